package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// words is n filler words about topic.
func words(topic string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s%d ", topic, i%7)
	}
	return strings.TrimSpace(b.String())
}

// TestSectionEnd: a result whose sections go on past it (a passage that
// merged a short section with its first subsections, the next subsection
// a passage of its own; a part of a long section) says where they end;
// one that ends its sections, or is its note's last passage, does not. A
// note's title heading, over the whole note, counts where its own text is
// shown alone: reading it reads the whole note; shown with other
// sections, those are what is read.
func TestSectionEnd(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "let-else.md", "## Summary\n\n"+words("alpha", 60)+"\n\n## Unresolved questions\n\n"+
		"### Readability\n\n"+words("readable", 20)+"\n\n### Conflicts\n\n"+words("conflict", 20)+
		"\n\n### Amount\n\n"+words("amount", 15)+"\n\n### Grammar clarity\n\n"+words("grammar", 12)+
		"\n\n## Future possibilities\n\n"+words("future", 60)+"\n")
	write(t, dir, "titled.md", "# Titled\n\n"+words("intro", 60)+"\n\n## Setup\n\n"+words("setup", 60)+
		"\n\n### Linux\n\n"+words("linux", 60)+"\n\n## Usage\n\n"+words("usage", 60)+"\n")
	write(t, dir, "repeats.md", "## Notes\n\n"+words("first", 60)+"\n\n## Other\n\n"+words("other", 60)+
		"\n\n## Notes\n\n"+words("second", 60)+"\n")
	// A section named as its note (no title heading), parts of the text
	// before the first heading, and headings repeated side by side.
	write(t, dir, "Version history.md", "Intro "+words("pre", 700)+"\n\n## Version history\n\n"+words("vh", 60)+
		"\n\n### Restore\n\n"+words("restore", 60)+"\n\n## Other\n\n"+words("else", 60)+"\n")
	write(t, dir, "tasks.md", "## Tasks\n\n"+words("tone", 60)+"\n\n## Tasks\n\n"+words("ttwo", 60)+
		"\n\n### Detail\n\n"+words("detail", 60)+"\n\n## Tasks\n\n"+words("tthree", 60)+"\n\n## End\n\n"+words("end", 60)+"\n")
	// A note of several top headings, the first its title's.
	write(t, dir, "multi.md", "# Multi\n\n"+words("mintro", 60)+"\n\n## Part\n\n"+words("mpart", 60)+
		"\n\n# Appendix\n\n"+words("mappendix", 60)+"\n")
	// A short title text merged with its first section: the next section
	// is no part of those shown.
	write(t, dir, "merged.md", "# Merged\n\nShort intro.\n\n## Schedule\n\n"+words("sched", 60)+"\n\n## Retention\n\n"+words("retain", 60)+"\n")
	var paras []string
	for i := range 6 {
		paras = append(paras, words(fmt.Sprintf("para%c", 'a'+i), 100))
	}
	write(t, dir, "long.md", strings.Join(paras, "\n\n")+"\n\n## Next\n\n"+words("next", 60)+"\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "notes")
	for _, tc := range []struct {
		query, path, section string
		end                  int // want SectionEnd; 0: none
	}{
		{"readable3 conflict2", "let-else.md", "Unresolved questions", 21}, // Grammar clarity follows
		{"grammar4", "let-else.md", "Grammar clarity", 0},
		{"future5", "let-else.md", "Future possibilities", 0}, // the note's last passage
		{"setup2", "titled.md", "Setup", 11},                  // its subsection Linux follows
		{"intro3", "titled.md", "Titled", 15},                 // the title heading's text alone: reading it reads the whole note
		{"linux1", "titled.md", "Linux", 0},                   // Usage is no part of Setup
		{"first1", "repeats.md", "Notes", 0},                  // a later heading of the same name is another section
		{"vh3", "Version history.md", "Version history", 9},   // named as its note, yet a section: Restore follows
		{"paraa1 paraa2", "long.md", "", 11},                  // part 1 of the text before the first heading
		{"tone2", "tasks.md", "Tasks", 0},                     // the next "## Tasks" is another section
		{"ttwo2", "tasks.md", "Tasks", 11},                    // its Detail follows, then another "## Tasks"
		{"mintro3", "multi.md", "Multi", 7},                   // the title heading's text goes on to the next top heading
		{"mpart3", "multi.md", "Part", 0},                     // Appendix is no part of Part
		{"sched2", "merged.md", "Schedule", 0},                // Retention is no part of Merged + Schedule
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mdsearch.ModeKeyword, N: 1})
		if len(resp.Results) == 0 || !covers(resp.Results[0], tc.path, tc.section) {
			t.Fatalf("%q: %s, want %s > %s first", tc.query, describe(resp), tc.path, tc.section)
		}
		if r := resp.Results[0]; r.SectionEnd != tc.end {
			t.Errorf("%q: %s > %v, lines %d-%d: section_end %d, want %d", tc.query, r.Path, r.Sections, r.StartLine, r.EndLine, r.SectionEnd, tc.end)
		}
	}
}

// BenchmarkSectionEnds is what sectionEnds adds to a search: a hybrid
// search of 10 results over the Obsidian help vault (test embedder), and
// beside it, in the same run, sectionEnds over those results alone.
func BenchmarkSectionEnds(b *testing.B) {
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), newBow("bow"))
	index(b, e, copyDir(b, helpVault(b)), "help")
	req := mdsearch.SearchRequest{Query: "link to a heading in another note", Mode: mdsearch.ModeHybrid, N: 10}
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			search(b, e, req)
		}
	})
	res := search(b, e, req).Results
	b.Run("section_ends", func(b *testing.B) { benchEnds(b, e, res) })
	// The worst case: a note of 2,000 sections whose opening, under its
	// title, is shown alone, so its end is read past every one.
	dir := b.TempDir()
	var long strings.Builder
	long.WriteString("# Long\n\n" + words("opening", 60) + "\n")
	for i := range 2000 {
		fmt.Fprintf(&long, "\n## Part %d\n\n%s\n", i, words("part", 60))
	}
	write(b, dir, "long.md", long.String())
	index(b, e, dir, "long")
	opening := search(b, e, mdsearch.SearchRequest{Query: "opening3", Mode: mdsearch.ModeKeyword, N: 1}).Results
	if len(opening) != 1 || opening[0].ChunkIndex != 0 {
		b.Fatalf("opening: %+v", opening)
	}
	b.Run("title_alone_2000", func(b *testing.B) { benchEnds(b, e, opening) })
}

// benchEnds measures sectionEnds for res, in a read transaction of its own.
func benchEnds(b *testing.B, e *Engine, res []mdsearch.Result) {
	b.Helper()
	for b.Loop() {
		rt, err := e.st.BeginRead(bg)
		if err != nil {
			b.Fatal(err)
		}
		err = sectionEnds(bg, rt.Reader, res)
		rt.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
