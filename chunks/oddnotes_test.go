package chunks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

func TestInvalidUTF8AndCRLF(t *testing.T) {
	src := "\ufeff# Caf\xe9\r\n\r\n" + strings.ReplaceAll(words(200, "w"), ". ", ".\r\n") + "\r\n"
	doc, cs := split(t, src, Options{MaxTokens: 64})
	if cs[0].StartByte != 3 || !strings.HasPrefix(cs[0].Text, "# Caf\uFFFD\r\n") || !strings.HasPrefix(cs[0].Windows[0].EmbedText, "[Caf\uFFFD] # Caf\uFFFD\r\n") {
		t.Errorf("first passage %+v", cs[0])
	}
	if len(doc.Warnings) != 1 {
		t.Errorf("warnings %q", doc.Warnings)
	}
	// Invalid bytes before a window shift its text in Text: TextStart is
	// its offset there (checkChunks checks it), so the store finds the
	// window's text in Text and keeps it once; repeated text must not send
	// it to an earlier copy.
	for _, src := range []string{
		"# T\n\n\xff\xfe " + strings.Repeat("Same words again and again. ", 80),
		"# T\n\n" + strings.Repeat("Bad \xff byte here. ", 100),
		"# T\n\n" + strings.Repeat("| a\xff | b |\n", 2) + strings.Repeat("| c | d\xff |\n", 60),
	} {
		opts := Options{MaxTokens: 16}
		doc, cs := split(t, src, opts)
		for _, c := range cs {
			for _, w := range textWindows(c) {
				if text := embeddedText(doc, opts.withDefaults(), c, w.StartByte, w.EndByte); !strings.HasPrefix(c.Text[w.TextStart:], text) {
					t.Errorf("%q: window %d-%d at %d of the passage text", src[:20], w.StartByte, w.EndByte, w.TextStart)
				}
			}
		}
	}
}

func TestEmptyNotes(t *testing.T) {
	for _, src := range []string{"", "\n\n  \n", "---\n---\n", "---\n  \n---\n\n", "\ufeff"} {
		if _, cs := split(t, src, Options{}); len(cs) != 0 {
			t.Errorf("%q: %d chunks", src, len(cs))
		}
	}
}

// A note of properties alone (a blank body after its frontmatter) is one
// passage of the frontmatter's text, labelled with no section, so that its
// title, aliases and tags find it.
func TestPropertiesNote(t *testing.T) {
	src := "\ufeff---\naliases: [Hedgehog Person]\ntags: [person]\n---\n\n"
	doc, cs := split(t, src, Options{})
	if len(cs) != 1 {
		t.Fatalf("%d passages", len(cs))
	}
	c := cs[0]
	want := "aliases: [Hedgehog Person]\ntags: [person]"
	if c.Text != want || c.StartLine != 2 || c.EndLine != 3 || len(c.SectionPath) != 0 || c.WordCount != 5 || c.Properties != "" {
		t.Errorf("passage %q lines %d-%d path %v words %d", c.Text, c.StartLine, c.EndLine, c.SectionPath, c.WordCount)
	}
	if len(doc.Sections) != 0 {
		t.Errorf("the note itself now has %d sections", len(doc.Sections))
	}
	last := c.Windows[len(c.Windows)-1]
	if c.Windows[0].EmbedText != "["+doc.Title+"] "+want || last.EmbedText != "["+doc.Title+"]" {
		t.Errorf("windows %q … %q", c.Windows[0].EmbedText, last.EmbedText)
	}
	// A body of comments alone is none.
	if _, cs := split(t, "---\nfoo: bar\n---\n%%\nx\n%%\n", Options{}); len(cs) != 1 || cs[0].Text != "foo: bar" {
		t.Errorf("with a comment alone: %+v", cs)
	}
	// A body, however short, is what the note is found by.
	if _, cs := split(t, "---\ntags: [person]\n---\nJane.\n", Options{}); len(cs) != 1 || cs[0].Text != "Jane." {
		t.Errorf("with a body: %+v", cs)
	}
	// Its property values are the first passage's, which its text is
	// not, even after blank lines.
	long := strings.Repeat("More words. ", 60)
	_, cs = split(t, "---\n\n\nrole: dentist\n---\n\n# Jane\n\n"+long+"\n\n## Later\n\n"+long+"\n", Options{})
	if len(cs) != 2 || cs[0].Properties != "dentist" || cs[1].Properties != "" || strings.Contains(cs[0].Text, "dentist") {
		t.Errorf("properties: %+v", cs)
	}
	_, cs = split(t, "---\nrefs: ["+strings.Repeat("alpha, ", 400)+"omega]\n---\n# Jane\n\nJane.\n", Options{})
	if got := wordcount.Count(cs[0].Properties); got != DefaultPassageWords || strings.Contains(cs[0].Properties, "omega") {
		t.Errorf("401 property words kept %d, want the reading budget, %d", got, DefaultPassageWords)
	}
	if _, cs := split(t, "---\n\n\nrole: dentist\n---\n", Options{}); len(cs) != 1 || cs[0].Properties != "" {
		t.Errorf("a note of properties alone holds them again: %+v", cs)
	}
}

// Obsidian comments are in no passage's text, and none starts or ends
// in one: an Excalidraw drawing's labels come back without its base64.
func TestCommentsLeftOut(t *testing.T) {
	base64 := strings.Repeat(strings.Repeat("N4KAkARALgnmD", 20)+"\n\n", 40)
	src := "---\nexcalidraw-plugin: parsed\n---\n# Excalidraw Data\n## Text Elements\nServer rack ^a1\n\nFirewall ^b2\n\n" +
		"%%\n## Drawing\n```compressed-json\n" + base64 + "```\n%%\n"
	_, cs := split(t, src, Options{})
	if len(cs) != 1 || !strings.Contains(cs[0].Text, "Firewall") || strings.Contains(cs[0].Text, "N4KA") || strings.Contains(cs[0].Text, "%%") {
		t.Fatalf("excalidraw: %d passages: %+v", len(cs), cs)
	}
	for _, tt := range []struct{ name, src string }{
		// A comment under a heading: the heading stays with its text. It
		// was a passage of its own, or joined the stub before it.
		{"under a heading", "# A\n\nshort\n\n## B\n%%\nsecret\n%%\n\nafter\n"},
		{"one line under a heading", "# A\n\nshort\n\n## B\n%% secret %%\n\nafter\n"},
		// A stub merges across a comment, as across an HTML comment.
		{"between sections", "# A\n\nshort\n\n%%\nsecret\n%%\n\n## B\n\nafter\n"},
	} {
		_, cs = split(t, tt.src, Options{})
		if len(cs) != 1 || strings.Contains(cs[0].Text, "secret") || !strings.HasPrefix(cs[0].Text, "# A\n\nshort") ||
			!strings.Contains(cs[0].Text, "## B\n") || !strings.HasSuffix(cs[0].Text, "\n\nafter") {
			t.Errorf("%s: passages %+v, want one holding A and B without the comment", tt.name, cs)
		}
	}
	// Long sections: B's heading opens B's passage, the comment's lines blank.
	long := strings.Repeat("Many words about the first topic here. ", 60)
	_, cs = split(t, "# A\n\n"+long+"\n\n## B\n%%\nsecret\n%%\n\n"+long+"\n", Options{})
	var texts []string
	for _, c := range cs {
		if strings.HasPrefix(c.Text, "## B") {
			texts = append(texts, c.Text)
		}
		if strings.TrimSpace(c.Text) == "## B" || strings.Contains(c.Text, "secret") {
			t.Errorf("passage %q: a heading alone, or the comment", c.Text)
		}
	}
	if len(texts) != 1 || !strings.HasPrefix(texts[0], "## B\n\n\n\n\nMany words") {
		t.Errorf("B's passages %q, want one opening with its heading over the comment's blank lines", texts)
	}
	// A comment over BigComment lines (a hidden draft) cuts its section,
	// and no stub merges across it: no passage shows its blank lines.
	draft := "%%\n" + strings.Repeat("draft line\n", BigComment) + "%%\n"
	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		{"in a section", "# A\n\n" + strings.Repeat("Some words about A. ", 20) + "\n\n## B\n\nbefore\n\n" + draft + "\nafter\n", []string{"# A", "## B\n\nbefore", "after"}},
		{"after a stub", "# A\n\nshort\n\n" + draft + "\n## B\n\nafter\n", []string{"# A\n\nshort", "## B\n\nafter"}},
		{"one line short of big", "# A\n\nshort\n\n%%\n" + strings.Repeat("draft line\n", BigComment-2) + "%%\n\nafter\n", []string{"# A\n\nshort\n\n\n"}},
	} {
		_, cs = split(t, tt.src, Options{})
		var got []string
		for _, c := range cs {
			got = append(got, c.Text)
			if strings.Contains(c.Text, "draft") {
				t.Errorf("%s: passage %q holds the comment", tt.name, c.Text)
			}
		}
		ok := len(got) == len(tt.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.HasPrefix(got[i], tt.want[i])
		}
		if !ok {
			t.Errorf("%s: passages %q, want them to open with %q", tt.name, got, tt.want)
		}
	}
}

// TestHugeInputs covers the bad inputs that must never panic: 10,000
// headings, a 50 MB note, an unclosed fence.
func TestHugeInputs(t *testing.T) {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "%s %d\n\ntext %d\n\n", strings.Repeat("#", 1+i%6), i, i)
	}
	// Stubs merge forward down each run of levels 1 to 6, not up.
	if _, cs := split(t, b.String(), Options{}); len(cs) < 10000/6 {
		t.Errorf("10,000 headings gave %d passages", len(cs))
	}
	split(t, "# T\n\n```\n"+strings.Repeat("# not a heading\n", 5000), Options{})
	if testing.Short() {
		t.Skip("50 MB note skipped in -short mode")
	}
	unit := "## Part\n\n" + words(700, "z") + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n\n"
	big := strings.Repeat(unit, 50<<20/len(unit)+1)
	start := time.Now()
	doc := sections.Parse("big.md", []byte(big))
	cs := Split(doc, Options{})
	if len(cs) == 0 || cs[len(cs)-1].EndByte < len(big)-10 {
		t.Errorf("%d passages, last ends at %d of %d", len(cs), cs[len(cs)-1].EndByte, len(big))
	}
	t.Logf("50 MB: %d passages in %v", len(cs), time.Since(start))
}

// Another package's profile (index --profile fixed) is held to the same:
// a note of properties alone is found by them, and a note with a body by
// its property values. The cut here ignores frontmatter, as fixed does.
func TestSplitWithProperties(t *testing.T) {
	body := func(doc *sections.Document, o Options) []mdsearch.Chunk {
		if strings.TrimSpace(string(doc.Src[doc.Body:])) == "" {
			return nil
		}
		return []mdsearch.Chunk{{Path: doc.Path, Text: string(doc.Src[doc.Body:])}}
	}
	for _, tt := range []struct {
		name, src, text, props string
	}{
		{"properties alone", "---\naliases: [Hedgehog Person]\n---\n", "aliases: [Hedgehog Person]", ""},
		{"a body", "---\nauthor: Bartholomew Quince\n---\nPenguins.\n", "Penguins.\n", "Bartholomew Quince"},
		{"no frontmatter", "Penguins.\n", "Penguins.\n", ""},
	} {
		cs := SplitWith(sections.Parse("note.md", []byte(tt.src)), Options{}, body)
		if len(cs) != 1 || cs[0].Text != tt.text || cs[0].Properties != tt.props {
			t.Errorf("%s: %+v", tt.name, cs)
		}
	}
}

// A list item holding code is cut at lines, as code is: a sentence's end
// inside its code ("/* ... */") started a passage mid-line, and the code
// read garbled. A list item of prose alone is still cut at sentences.
func TestListItemWithCodeCutAtLines(t *testing.T) {
	item := "- Example:\n\n  ```js\n" + strings.Repeat("  const a = 1 /* ... */ + 2\n", 40) + "  ```\n"
	doc, cs := split(t, "# T\n\n"+item, Options{PassageWords: 60})
	if len(cs) < 2 {
		t.Fatalf("%d passages", len(cs))
	}
	for _, c := range cs {
		if c.StartByte > 0 && doc.Src[c.StartByte-1] != '\n' {
			t.Errorf("passage %d starts mid-line: %.30q", c.ChunkIndex, c.Text)
		}
	}
	prose := "- " + strings.Repeat("One sentence here. ", 80) + "\n"
	doc, cs = split(t, "# T\n\n"+prose, Options{PassageWords: 60})
	if len(cs) < 2 || doc.Src[cs[1].StartByte-1] == '\n' {
		t.Errorf("a list item of prose: %d passages, the second not cut at a sentence", len(cs))
	}
}
