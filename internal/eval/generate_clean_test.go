package eval

import (
	"strings"
	"testing"
)

// Generated text holds no markers of the parse, and a callout's title is
// not glued to its body's first sentence.
func TestParagraphsCleanText(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"code span in a wikilink's text", "Tags are read by the [[Functions#hasTag|`hasTag`]] function of Bases.\n",
			"Tags are read by the hasTag function of Bases."},
		{"a short callout title is dropped", "> [!tip] Tip\n> If you want to add an image, embed it.\n",
			"If you want to add an image, embed it."},
		{"a short title with a link is dropped with it", "> [!tip] See [[Other#Part]]\n> Then read on here.\n",
			"Then read on here."},
		{"a long title is a sentence of its own", "> [!note] Obsidian keeps every note on your disk\n> So back it up.\n",
			"Obsidian keeps every note on your disk. So back it up."},
		{"a title ending in a stop", "> [!warning]- Five words end here too.\n> Body.\n", "Five words end here too. Body."},
		{"no title", "> [!NOTE]\n> Only a body here.\n", "Only a body here."},
		{"a line break elsewhere is a space", "One line\nand the next.\n", "One line and the next."},
	} {
		ps := paragraphsOf([]byte(c.src), 0)
		if len(ps) != 1 || ps[0].text != c.want {
			t.Errorf("%s: %+v, want %q", c.name, ps, c.want)
		}
	}
	// The link of a title kept keeps its span.
	ps := paragraphsOf([]byte("> [!note] The [[Setup#Install|install steps]] come first here\n> Body.\n"), 0)
	if l := ps[0].links; len(l) != 1 || ps[0].text[l[0].start:l[0].end] != "install steps" {
		t.Errorf("title's link: %+v", ps[0])
	}
}

// A generated query holds no filter the search would read, nor footnote
// references; text without them is kept as it is.
func TestPlainQuery(t *testing.T) {
	g := &generator{props: map[string]bool{"status": true, "params.author": true}}
	for _, c := range []struct{ in, want string }{
		{"use the tag search operator, for example tag:#meeting.", "use the tag search operator, for example tag: #meeting."},
		{"search with path:Archive or -file:draft or FILE:x", "search with path: Archive or -file: draft or FILE: x"},
		{"The code will panic no matter why File::open failed.", "The code will panic no matter why File: :open failed."},
		{"notes marked [status:draft] or [params.author: Bob] wait", "notes marked status: draft or params.author: Bob wait"},
		{"a [Roadmap part 1: intro] link no property names", "a [Roadmap part 1: intro] link no property names"},
		{"the core team[^core] and the authority[^2] confer.[^x]", "the core team and the authority confer."},
		{"[^core]: Unlike other projects, the team", "Unlike other projects, the team"},
		{"tag: alone and path:  and words", "tag: alone and path:  and words"},
		{"plain  text, kept as it is", "plain  text, kept as it is"},
	} {
		if got := g.plainQuery(c.in); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

// Generated queries of a vault whose notes write operators and footnotes
// search for their words in every configuration.
func TestGenerateNoFilters(t *testing.T) {
	dir := writeVault(t, map[string]string{
		"Search.md": "---\nstatus: done\n---\n# Search\n\n## Tags\n\nTo find notes with a tag, search for example tag:#meeting in the box.[^1]\n\n" +
			"## Fields\n\nA note with [status:done] in its properties is found by the property search.\n",
	})
	qs, _, err := Generate(t.Context(), dir, []string{StyleHeadings})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs.Queries {
		if strings.Contains(q.Text, "tag:#") || strings.Contains(q.Text, "[status:") || strings.Contains(q.Text, "[^") {
			t.Errorf("query %q holds a filter or a footnote", q.Text)
		}
	}
	if len(qs.Queries) != 2 {
		t.Errorf("%d queries, want 2: %+v", len(qs.Queries), qs.Queries)
	}
}
