package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

func TestSlug(t *testing.T) {
	for _, c := range []struct{ heading, slug string }{
		{"Which to Choose?", "which-to-choose"},
		{"Custom derive Macros", "custom-derive-macros"},
		{"A Shortcut for Propagating Errors: the ? Operator", "a-shortcut-for-propagating-errors-the--operator"},
		{"Stack-Only Data: Copy", "stack-only-data-copy"},
		{"Ünïcode Héading", "ünïcode-héading"},
	} {
		if got := Slug(c.heading); got != c.slug {
			t.Errorf("Slug(%q) = %q, want %q", c.heading, got, c.slug)
		}
	}
}

func TestQuerySentences(t *testing.T) {
	p := para{text: "First one. Then see the Setup guide for details! Last?"}
	start := strings.Index(p.text, "Setup guide")
	code := paragraphsOf([]byte("Use `format!` or `x.0` here. Then [more](a.md#b) follows.\n"), 0)[0]
	zh := para{text: "先备份数据库。然后做恢复演练！对吗？"}
	zhStart := strings.Index(zh.text, "恢复演练")
	for _, c := range []struct{ got, want string }{
		{p.sentenceAround(start, start+len("Setup guide")), "Then see the Setup guide for details!"},
		{p.sentenceAround(0, 5), "First one."},
		{para{text: "No stop at all here"}.sentenceAround(3, 7), "No stop at all here"},
		{p.firstSentence(), "First one."},
		{para{text: "Ends with a colon:"}.firstSentence(), "Ends with a colon:"},
		{code.firstSentence(), "Use format! or x.0 here."},
		{code.sentenceAround(code.links[0].start, code.links[0].end), "Then more follows."},
		// Chinese and Japanese full stops need no space after them.
		{zh.firstSentence(), "先备份数据库。"},
		{zh.sentenceAround(zhStart, zhStart+len("恢复演练")), "然后做恢复演练！"},
		{zh.sentenceAround(len(zh.text)-3, len(zh.text)), "对吗？"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestParagraphsStripMarkup(t *testing.T) {
	src := "Read **the** [setup `guide`](setup.md#install) and [[Other Note#Part Two|the other note]] now.\n" +
		"- item with ![[Embedded]] and [[Plain#Head]]\n\n" +
		"```\ncode [x](y.md#z)\n```\n\n> [!note] Mind\n> the <b>gap</b>.\n\n::: tip\nA container line.\n:::\n\n" +
		"Declare it with the <span class=\"o\">emits option</span><span class=\"c\">defineEmits() macro</span> as in Chapter 3<!-- ignore -->, H<sub>2</sub>O.\n"
	ps := paragraphsOf([]byte(src), 0)
	want := []struct {
		text    string
		targets []string
	}{
		{"Read the setup guide and the other note now.", []string{"setup.md#install", "Other Note#Part Two"}},
		{"item with and Plain Head", []string{"Plain#Head"}},
		{"the gap.", nil}, // the callout's title, "Mind", is no part of its first sentence
		{"A container line.", nil},
		{"Declare it with the emits option defineEmits() macro as in Chapter 3, H2O.", nil}, // two spans' words apart; a comment, or a tag inside a word, parts none
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d paragraphs: %+v", len(ps), ps)
	}
	for i, w := range want {
		p := ps[i]
		if p.text != w.text || len(p.links) != len(w.targets) {
			t.Errorf("paragraph %d: %q %+v; want %q", i, p.text, p.links, w.text)
			continue
		}
		for j, l := range p.links {
			if l.target != w.targets[j] {
				t.Errorf("paragraph %d link %d: target %q, want %q", i, j, l.target, w.targets[j])
			}
		}
	}
	if l := ps[0].links[0]; ps[0].text[l.start:l.end] != "setup guide" {
		t.Errorf("link span %q", ps[0].text[l.start:l.end])
	}
}

func TestGenerateSmallVault(t *testing.T) {
	files := map[string]string{
		"guide/setup.md": "# Setup {#setup}\n\n## Install the Tool {#install}\n\nDownload the archive and unpack it in your home folder.\n\n## Configure It\n\nShort.\n",
		"guide/use.md": "# Use\n\nBefore you start, follow the [install steps](./setup#install) carefully and slowly.\n" +
			"The [configuration](/guide/setup.md#configure-it) page explains every single option.\n" +
			"A [dead link](setup.md#nowhere) is not a label for any query here.\n" +
			"A [same page link](#use) never makes a query at all.\n",
		"Notes/Daily.md": "# Daily\n\nToday I reread [[Use#Use|the usage notes]] about the tool before starting.\n",
	}
	dir := writeVault(t, files)
	qs, st, err := Generate(context.Background(), dir, []string{StyleLinks, StyleHeadings})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Query{}
	for _, q := range qs.Queries {
		got[q.Text] = q
	}
	for _, w := range []struct {
		text, style, path, section, exclude string
	}{
		{"Before you start, follow the install steps carefully and slowly.", StyleLinks, "guide/setup.md", "Setup/Install the Tool", "guide/use.md"},
		{"The configuration page explains every single option.", StyleLinks, "guide/setup.md", "Setup/Configure It", "guide/use.md"},
		{"Today I reread the usage notes about the tool before starting.", StyleLinks, "guide/use.md", "Use", "Notes/Daily.md"},
		{"Download the archive and unpack it in your home folder.", StyleHeadings, "guide/setup.md", "Setup/Install the Tool", ""},
	} {
		q, ok := got[w.text]
		if !ok {
			t.Errorf("no query %q among %d", w.text, len(qs.Queries))
			continue
		}
		l := q.Relevant[0]
		if q.Difficulty != w.style || l.Path != w.path || strings.Join(l.SectionPath, "/") != w.section || q.Exclude != w.exclude {
			t.Errorf("%q: %+v", w.text, q)
		}
	}
	if len(qs.Queries) != 4 || st.Links != 4 || st.Unresolved != 1 || st.SameNote != 0 || st.Short != 1 {
		t.Errorf("%d queries, stats %+v", len(qs.Queries), st)
	}
	if err := qs.Resolve(context.Background(), dir); err != nil {
		t.Errorf("generated labels do not resolve: %v", err)
	}
}

// TestGenerateSameNamedSections: a query made from the second of two
// sections with the same heading path is labelled with that section's
// lines, not the first one's, and Resolve keeps them.
func TestGenerateSameNamedSections(t *testing.T) {
	dir := t.TempDir()
	src := "# Tool\n\n## Usage\n\nThe first usage section explains how to start the tool quickly.\n\n" +
		"## Options\n\nEvery option of the tool is listed on this page below.\n\n" +
		"## Usage\n\nThe second usage section explains how to stop the tool cleanly.\n"
	if err := os.WriteFile(filepath.Join(dir, "tool.md"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, _, err := Generate(context.Background(), dir, []string{StyleHeadings})
	if err != nil {
		t.Fatal(err)
	}
	if err := qs.Resolve(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{ // query → heading line, last line
		"The first usage section explains how to start the tool quickly.": {3, 5},
		"Every option of the tool is listed on this page below.":          {7, 9},
		"The second usage section explains how to stop the tool cleanly.": {11, 13},
	}
	if len(qs.Queries) != len(want) {
		t.Fatalf("%d queries: %+v", len(qs.Queries), qs.Queries)
	}
	for _, q := range qs.Queries {
		w, ok := want[q.Text]
		sp := q.Relevant[0].span
		if !ok || !sp.resolved || sp.start != w[0] || sp.end != w[1] {
			t.Errorf("%q: span %+v, want lines %v", q.Text, sp, w)
		}
	}
	// Span hits (by lines) count the second section, not the first.
	q := &qs.Queries[2]
	second := []mdsearch.Result{{Path: "tool.md", SectionPath: []string{"Tool", "Usage"}, StartLine: 11, EndLine: 13}}
	first := []mdsearch.Result{{Path: "tool.md", SectionPath: []string{"Tool", "Usage"}, StartLine: 3, EndLine: 5}}
	if o := Score(q, second, 5); o.SpanRank != 1 {
		t.Errorf("second section: %+v", o)
	}
	if o := Score(q, first, 5); o.SpanRank != 0 {
		t.Errorf("first section counted for the second: %+v", o)
	}
}

// TestGenerateDocsTrees checks generation on two real docs trees: their
// link queries match the hand-checked link-context sets in size, and every
// label resolves.
func TestGenerateDocsTrees(t *testing.T) {
	for _, c := range []struct {
		dir            string
		links, atLeast int // links: exact; headings: at least
	}{
		{testenv.Corpora("vue-docs", "vault"), 319, 700},
		{testenv.Corpora("rust-book", "src"), 86, 400},
	} {
		if _, err := os.Stat(c.dir); err != nil {
			testenv.Absent(t, "corpus missing: %v", err)
		}
		qs, st, err := Generate(context.Background(), c.dir, []string{StyleLinks, StyleHeadings})
		if err != nil {
			t.Fatal(err)
		}
		if st.ByStyle[StyleLinks] != c.links || st.ByStyle[StyleHeadings] < c.atLeast {
			t.Errorf("%s: %+v", c.dir, st)
		}
		if err := qs.Resolve(context.Background(), c.dir); err != nil {
			t.Errorf("%s: %v", c.dir, err)
		}
	}
}

func TestExcludedResults(t *testing.T) {
	rs := []mdsearch.Result{{Path: "a.md"}, {Path: "b.md"}, {Path: "a.md"}, {Path: "c.md"}}
	got := dropExcluded(rs, "a.md")
	if len(got) != 2 || got[0].Path != "b.md" || got[1].Path != "c.md" || len(rs) != 4 || rs[0].Path != "a.md" {
		t.Errorf("dropExcluded: %+v (input %+v)", got, rs)
	}
	if got := dropExcluded(rs, ""); len(got) != 4 {
		t.Errorf("dropExcluded without exclude: %+v", got)
	}
}

// A heading asked as a question loses the capitals of Title Case, not
// those of a name in a sentence-case heading, nor an acronym's.
func TestAsQuestion(t *testing.T) {
	for _, c := range []struct{ heading, title, want string }{
		{"Restore Drill", "Backups", "What about restore drill in Backups?"},
		{"Baking Day", "Sourdough", "How does baking day work?"},
		{"Working with Obsidian vaults", "Sync", "How does working with Obsidian vaults work?"},
		{"DNS", "Network", "What about DNS in Network?"},
		{"VLANs and DNS", "Network", "What is VLANs and DNS?"},
		{"GitHub Actions Setup", "CI", "What is GitHub actions setup?"},
		{"Network", "Network", "What is network?"},
		{"Why Rust?", "", "Why Rust?"},
	} {
		if got := asQuestion(c.heading, c.title); got != c.want {
			t.Errorf("asQuestion(%q, %q) = %q, want %q", c.heading, c.title, got, c.want)
		}
	}
}

// --style reads "all", "both" or a list of styles; "all" or "both" inside
// a list, or an unknown style, is an error that says why.
func TestParseStyles(t *testing.T) {
	for in, want := range map[string]string{
		"": strings.Join(AllStyles, ","), "all": strings.Join(AllStyles, ","), "both": "links,headings",
		"links, questions": "links,questions", "links,links": "links", "LINKS,Terms": "links,terms", "All": strings.Join(AllStyles, ","),
		"all,links": `"all" stands alone`, "headlines": `"headlines" is unknown`,
	} {
		got, err := ParseStyles(in)
		s := strings.Join(got, ",")
		if err != nil {
			s = err.Error()
		}
		if !strings.Contains(s, want) {
			t.Errorf("ParseStyles(%q) = %q, want %q", in, s, want)
		}
	}
}

// A vault without notes says so, not that nothing could be made of them.
func TestGenerateNoNotes(t *testing.T) {
	dir := writeVault(t, map[string]string{"readme.txt": "not markdown"})
	_, _, err := Generate(t.Context(), dir, AllStyles)
	if err == nil || !strings.Contains(err.Error(), "the vault has no notes to make queries from") {
		t.Errorf("error %v", err)
	}
}

// Link queries of a vault without links to another note's heading say
// so, with the links counted, and what to try.
func TestGenerateNoLinks(t *testing.T) {
	dir := writeVault(t, map[string]string{"a.md": "# A\n\nSee [that part](b.md#gone) of the other note, which is there.\n", "b.md": "# B\n\ntext\n"})
	_, _, err := Generate(t.Context(), dir, []string{StyleLinks})
	if err == nil || !strings.Contains(err.Error(), "no link to a heading of another note that resolves (1 link to a heading: 0 to the same note, 1 unresolved)") ||
		!strings.Contains(err.Error(), "try --style all") {
		t.Errorf("error %v", err)
	}
}
