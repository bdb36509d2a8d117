package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// Tests of the passage engine: what a result holds (a whole section, or
// consecutive parts of a long one), how neighbouring parts merge, the token
// budget, absolute scores and custom heading ids.

// para is a paragraph of about words words: lead, then filler words that
// differ by n so no two paragraphs are the same text.
func para(lead string, n, words int) string {
	var b strings.Builder
	b.WriteString(lead)
	for i := wordcount.Count(lead); i < words; i++ {
		fmt.Fprintf(&b, " filler%d", (n*7+i)%23)
	}
	return b.String() + "."
}

// paras is count paragraphs of about words words, each with lead (where
// lead contains %d, the paragraph number), joined by blank lines.
func paras(lead string, count, words int) string {
	ps := make([]string, count)
	for i := range ps {
		l := lead
		if strings.Contains(lead, "%d") {
			l = fmt.Sprintf(lead, i+1)
		}
		ps[i] = para(l, i, words)
	}
	return strings.Join(ps, "\n\n")
}

// passageVault writes the test vault and indexes it with the bag-of-words
// embedder.
func passageVault(t *testing.T) (*Engine, string) {
	t.Helper()
	vault := t.TempDir()
	// Mashing: one section of about 250 words, one passage; "sparge" only
	// in its third paragraph. Fermentation: about 800 words, every
	// paragraph about zymurgy, cut into several passages.
	write(t, vault, "brewing.md", "# Brewing\n\n"+para("An introduction to brewing beer at home", 0, 60)+"\n\n"+
		"## Mashing\n\n"+
		paras("Mashing paragraph %d soaks the crushed grain in hot water", 2, 50)+"\n\n"+
		para("Then sparge the grain bed with hot water to rinse the sugars", 9, 50)+"\n\n"+
		paras("Mashing closing paragraph %d checks the gravity", 2, 50)+"\n\n"+
		"## Fermentation\n\n"+
		paras("Fermentation note %d: zymurgy is the study of yeast at work", 20, 40)+"\n\n"+
		"## Bottling\n\n"+para("Bottle the beer with priming sugar and wait two weeks", 3, 60)+"\n")
	// Kettle: a stub "Intro" merges forward into "Details".
	write(t, vault, "kettle.md", "# Kettle\n\n"+para("The kettle is the big pot of the brewery", 1, 60)+"\n\n"+
		"## Intro\n\nThe kettlewhistle signals the boil.\n\n"+
		"## Details\n\n"+para("Boil the wort for an hour and add hops at intervals", 2, 55)+"\n")
	// Three notes about hops, each one section of five short paragraphs,
	// for the token budget.
	for _, name := range []string{"hops-a.md", "hops-b.md", "hops-c.md"} {
		write(t, vault, name, "# "+strings.TrimSuffix(name, ".md")+"\n\n## Hop varieties\n\n"+
			paras("Hop paragraph %d: hops give bitterness and aroma", 5, 30)+"\n")
	}
	// A heading with a custom id.
	write(t, vault, "choose.md", "# Choosing\n\n"+para("How to pick equipment", 4, 60)+"\n\n"+
		"## Which to Choose? {#which-to-choose}\n\n"+para("Pick the carboy made of glass for long conditioning", 5, 60)+"\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "brew")
	return e, vault
}

func TestPassageResults(t *testing.T) {
	e, _ := passageVault(t)
	cases := []struct {
		name, q       string
		mode          mdsearch.Mode
		path, section string
		sections      [][]string // Result.Sections of the top hit
		contains      []string   // text the top hit holds
	}{
		{
			name: "whole section", q: "sparge", mode: mdsearch.ModeKeyword,
			path: "brewing.md", section: "Mashing",
			contains: []string{"## Mashing", "Mashing paragraph 1", "sparge the grain", "closing paragraph 2"},
		},
		{
			name: "whole section, hybrid", q: "sparge the grain bed", mode: mdsearch.ModeHybrid,
			path: "brewing.md", section: "Mashing",
			contains: []string{"## Mashing", "Mashing paragraph 1", "closing paragraph 2"},
		},
		{
			name: "section that is not a stub stays alone", q: "big pot of the brewery", mode: mdsearch.ModeKeyword,
			path: "kettle.md", section: "Kettle",
			contains: []string{"# Kettle", "big pot"},
		},
		{
			name: "stub merged forward", q: "kettlewhistle", mode: mdsearch.ModeKeyword,
			path: "kettle.md", section: "Intro",
			sections: [][]string{{"Kettle", "Intro"}, {"Kettle", "Details"}},
			contains: []string{"## Intro", "kettlewhistle", "## Details", "Boil the wort"},
		},
		{
			name: "stub merged forward, semantic", mode: mdsearch.ModeSemantic,
			q:    "the kettlewhistle signals the boil; boil the wort for an hour and add hops at intervals",
			path: "kettle.md", section: "Intro",
			sections: [][]string{{"Kettle", "Intro"}, {"Kettle", "Details"}},
			contains: []string{"kettlewhistle", "Boil the wort"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := search(t, e, mdsearch.SearchRequest{Query: c.q, Mode: c.mode})
			if len(resp.Results) == 0 || resp.Results[0].Path != c.path || resp.Results[0].Section != c.section {
				t.Fatalf("got\n%swant first %s > %s", describe(resp), c.path, c.section)
			}
			r := resp.Results[0]
			if !slices.EqualFunc(r.Sections, c.sections, slices.Equal) {
				t.Errorf("sections %v, want %v", r.Sections, c.sections)
			}
			for _, s := range c.contains {
				if !strings.Contains(r.Text, s) {
					t.Errorf("text lacks %q:\n%s", s, r.Text)
				}
			}
			// A passage that no stub merged into is its section's own
			// text: the section read up to its first subsection.
			sec, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path, Section: strings.Join(r.SectionPath, "/")})
			if err != nil {
				t.Fatal(err)
			}
			if c.sections == nil {
				own := sec.Content
				if i := strings.Index(own, "\n\n#"); i >= 0 {
					own = own[:i]
				}
				if r.Text != own || r.StartLine != sec.StartLine || r.EndLine != sec.StartLine+strings.Count(own, "\n") {
					t.Errorf("passage lines %d-%d, section lines %d-%d;\npassage %q\nsection %q",
						r.StartLine, r.EndLine, sec.StartLine, sec.EndLine, r.Text, sec.Content)
				}
				if r.Section == "Mashing" && wordcount.Count(r.Text) < 200 {
					t.Errorf("Mashing passage has %d words, want the whole section (≥ 200)", wordcount.Count(r.Text))
				}
				return
			}
			// A merged passage starts with its own section and ends in
			// the last one it covers.
			last, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path, Section: strings.Join(c.sections[len(c.sections)-1], "/")})
			if err != nil {
				t.Fatal(err)
			}
			if r.StartLine != sec.StartLine || r.EndLine != last.EndLine || !strings.HasPrefix(r.Text, sec.Content) ||
				!strings.HasSuffix(r.Text, last.Content) {
				t.Errorf("merged passage lines %d-%d, want %d-%d:\n%s", r.StartLine, r.EndLine, sec.StartLine, last.EndLine, r.Text)
			}
		})
	}
}

func TestNeighbourPassagesMerge(t *testing.T) {
	e, vault := passageVault(t)
	src := readLines(t, filepath.Join(vault, "brewing.md"))
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		t.Run(string(mode), func(t *testing.T) {
			resp := search(t, e, mdsearch.SearchRequest{Query: "zymurgy yeast", Mode: mode, N: 10, MaxPerPage: 5})
			var runs []mdsearch.Result
			for _, r := range resp.Results {
				if r.Section == "Fermentation" {
					runs = append(runs, r)
				}
			}
			if len(runs) == 0 || runs[0].ChunkEnd <= runs[0].ChunkIndex {
				t.Fatalf("want the Fermentation passages merged into a result with ChunkEnd:\n%s", describe(resp))
			}
			seen := map[int]bool{}
			for _, r := range runs {
				end := max(r.ChunkIndex, r.ChunkEnd)
				for i := r.ChunkIndex; i <= end; i++ {
					if seen[i] {
						t.Errorf("chunk %d in two results", i)
					}
					seen[i] = true
				}
				// One line range, the passages' text joined by the blank
				// line that separates them in the note.
				want := strings.Join(src[r.StartLine-1:r.EndLine], "\n")
				if r.Text != want {
					t.Errorf("chunks %d-%d lines %d-%d: text is not the source lines:\n%q\nwant\n%q",
						r.ChunkIndex, end, r.StartLine, r.EndLine, r.Text, want)
				}
				if r.ChunkEnd > r.ChunkIndex && !strings.Contains(r.Text, "\n\n") {
					t.Errorf("merged text has no blank line: %q", r.Text)
				}
				if r.ChunkEnd != 0 && (r.ChunkEnd <= r.ChunkIndex || r.ChunkEnd >= r.TotalChunks) {
					t.Errorf("ChunkEnd %d with ChunkIndex %d of %d", r.ChunkEnd, r.ChunkIndex, r.TotalChunks)
				}
			}
			// Runs of one section are disjoint and not adjacent: adjacent
			// ones would have merged (up to the cap of passages per result).
			for i, a := range runs {
				for _, b := range runs[i+1:] {
					if a.EndLine >= b.StartLine && b.EndLine >= a.StartLine {
						t.Errorf("results overlap: lines %d-%d and %d-%d", a.StartLine, a.EndLine, b.StartLine, b.EndLine)
					}
				}
			}
		})
	}
}

func TestMaxTokens(t *testing.T) {
	e, _ := passageVault(t)
	req := mdsearch.SearchRequest{Query: "hops bitterness aroma", Mode: mdsearch.ModeKeyword, N: 3}
	full := search(t, e, req).Results
	if len(full) != 3 {
		t.Fatalf("want 3 hop results, got %d", len(full))
	}
	cost := func(r mdsearch.Result) int { return EstimateTokens(r.Text) + frameTokens(r) }
	t0, t1 := cost(full[0]), cost(full[1])
	all := t0 + t1 + cost(full[2])
	cases := []struct {
		name      string
		budget    int
		whole     int  // results returned whole, in full's order
		truncated bool // and one more, cut
	}{
		{"no budget", 0, 3, false},
		{"budget for everything", all, 3, false},
		{"budget one short", all - 1, 2, true},
		{"first whole, half the second", t0 + t1/2, 1, true},
		{"exactly the first and the notice counting the others", t0 + noticeTokens(droppedNotice(3, t0)), 1, false},
		{"less than one block: a dozen words of it", 5, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := req
			req.MaxTokens = c.budget
			got := search(t, e, req).Results
			want := c.whole
			if c.truncated {
				want++
			}
			if len(got) != want {
				t.Fatalf("%d results, want %d", len(got), want)
			}
			spent := 0
			for i, r := range got {
				spent += cost(r)
				f := full[i]
				if r.Path != f.Path || r.ChunkIndex != f.ChunkIndex || r.StartLine != f.StartLine {
					t.Errorf("result %d is %s chunk %d, want %s chunk %d", i, r.Path, r.ChunkIndex, f.Path, f.ChunkIndex)
				}
				if i < c.whole {
					if r.Text != f.Text || r.EndLine != f.EndLine || r.Truncated || r.ReadHint != "" {
						t.Errorf("result %d: want the whole passage, got %+v", i, r)
					}
					continue
				}
				// The cut result: whole blocks from the start of its passage,
				// and the lines that read the rest; or, when its first block
				// alone is over the budget, the start of that block, the rest
				// from the line of the cut.
				inside := c.whole == 0
				from, after := r.EndLine+1, "\n\n"
				if inside {
					from, after = r.EndLine, " "
				}
				wantRest := fmt.Sprintf("read %s:%s, lines %d-%d", r.Collection, r.Path, from, f.EndLine)
				if !r.Truncated || !strings.HasSuffix(r.ReadHint, wantRest) {
					t.Errorf("result %d: truncated %v, read hint %q, want %q", i, r.Truncated, r.ReadHint, wantRest)
				}
				if len(r.Text) >= len(f.Text) || !strings.HasPrefix(f.Text, r.Text+after) {
					t.Errorf("result %d: cut text is not whole blocks (or words) of the passage:\n%q", i, r.Text)
				}
				if r.EndLine >= f.EndLine || r.EndLine-r.StartLine != strings.Count(r.Text, "\n") {
					t.Errorf("result %d: lines %d-%d for %d lines of text (whole %d-%d)",
						i, r.StartLine, r.EndLine, strings.Count(r.Text, "\n")+1, f.StartLine, f.EndLine)
				}
			}
			switch {
			case c.budget > 0 && c.whole == 0:
				// The first dozen words of the first result, headings over
				// them included.
				if n := wordcount.Count(got[0].Text); n != minWords {
					t.Errorf("first result cut to %d words, want %d: %q", n, minWords, got[0].Text)
				}
			case c.budget > 0 && spent > c.budget:
				t.Errorf("%d tokens returned, budget %d", spent, c.budget)
			}
		})
	}
}

func TestAbsoluteScores(t *testing.T) {
	e, _ := passageVault(t)
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic, mdsearch.ModeHybrid} {
		t.Run(string(mode), func(t *testing.T) {
			real := search(t, e, mdsearch.SearchRequest{Query: "bottle the beer with priming sugar and wait two weeks", Mode: mode, N: 20, MaxPerPage: 5})
			if len(real.Results) == 0 {
				t.Fatal("no results")
			}
			for i, r := range real.Results {
				if r.Score < 0 || r.Score > 1 || (i > 0 && r.Score > real.Results[i-1].Score) {
					t.Errorf("score %v at %d: out of 0–1 or out of order", r.Score, i)
				}
			}
			top := real.Results[0].Score
			if top <= 0 || top >= 1 {
				t.Errorf("top score %v: want within (0, 1), not rescaled to 1", top)
			}
			nonsense := search(t, e, mdsearch.SearchRequest{Query: "zxqv blorft quux", Mode: mode, N: 20})
			if len(nonsense.Results) > 0 && nonsense.Results[0].Score >= top {
				t.Errorf("nonsense query scores %v, at least the real query's %v", nonsense.Results[0].Score, top)
			}
			if mode == mdsearch.ModeKeyword && len(nonsense.Results) > 0 {
				t.Errorf("keyword search found nonsense: %s", describe(nonsense))
			}
		})
	}
}

func TestCustomHeadingID(t *testing.T) {
	e, _ := passageVault(t)
	resp := search(t, e, mdsearch.SearchRequest{Query: "carboy made of glass", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) == 0 {
		t.Fatal("no results")
	}
	r := resp.Results[0]
	if r.Path != "choose.md" || r.Section != "Which to Choose?" ||
		!slices.Equal(r.SectionPath, []string{"Choosing", "Which to Choose?"}) {
		t.Errorf("top hit %s > %v (%q), want choose.md > Choosing > Which to Choose?", r.Path, r.SectionPath, r.Section)
	}
	var starts []int
	for _, q := range []string{"which-to-choose", "#which-to-choose", "Which to Choose?", "Choosing/Which to Choose?",
		strings.Join(r.SectionPath, "/")} {
		got, err := e.Read(bg, mdsearch.ReadRequest{Path: "choose.md", Section: q})
		if err != nil {
			t.Errorf("read --section %q: %v", q, err)
			continue
		}
		if got.Section != "Which to Choose?" || !strings.HasPrefix(got.Content, "## Which to Choose? {#which-to-choose}\n") ||
			!strings.Contains(got.Content, "carboy") {
			t.Errorf("read --section %q: %+v", q, got)
		}
		starts = append(starts, got.StartLine)
	}
	if len(starts) > 0 && (starts[0] != r.StartLine || slices.Min(starts) != slices.Max(starts)) {
		t.Errorf("section start lines %v, result starts at %d", starts, r.StartLine)
	}
	o, err := e.Outline(bg, "choose.md")
	if err != nil || len(o.Sections) != 2 || o.Sections[1].Heading != "Which to Choose?" || o.Sections[1].Anchor != "which-to-choose" {
		t.Errorf("outline: %+v %v", o, err)
	}
}

// readLines reads a file's lines.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}

// TestSameNamedSectionsApart: two sections with one path ("## Setup"
// twice) are two sections in the index, so neighbouring passages of both
// never merge into one result, and each result reads back as itself.
func TestSameNamedSectionsApart(t *testing.T) {
	vault := t.TempDir()
	body := func(w string) string { return strings.Repeat(w+" calibration runtime battery ", 25) + "\n" }
	intro := strings.Repeat("An introduction long enough to stand alone. ", 12) + "\n\n"
	write(t, vault, "Dup.md", "# Dup\n\n"+intro+"## Setup\n\n"+body("first")+"\n## Setup\n\n"+body("second"))
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "battery runtime calibration", N: 5, MaxPerPage: 2, Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 2 {
		t.Fatalf("%d results, want one a section: %+v", len(resp.Results), resp.Results)
	}
	for _, r := range resp.Results {
		if r.ChunkEnd != 0 || strings.Contains(r.Text, "first") == strings.Contains(r.Text, "second") {
			t.Errorf("result %s lines %d-%d holds both sections or neither: %q", r.Path, r.StartLine, r.EndLine, r.Text)
		}
	}
}
