package chunks

import (
	"strings"
	"testing"
)

// An HTML comment is in no passage's text, word count or embed text, but
// passages run across it: a build note between two paragraphs, or a line
// of them before the next heading, cuts nothing.
func TestHTMLCommentsLeftOut(t *testing.T) {
	src := "# Guess\n\nFirst we read a line. " + words(60, "w") + "\n\n<!-- manual-regeneration\ncd listings\ncargo run\n-->\n\n" +
		"Then we parse it, as [the chapter][ch]<!-- ignore --> shows.\n\n<!-- Old headings. Do not remove. -->\n\n" +
		"<a id=\"parse\"></a>\n\n## Parse\n\nParsing text.\n"
	_, cs := split(t, src, Options{})
	if len(cs) != 2 || cs[0].SectionPath[len(cs[0].SectionPath)-1] != "Guess" || cs[1].SectionPath[len(cs[1].SectionPath)-1] != "Parse" {
		t.Fatalf("%d passages, want Guess and Parse: %+v", len(cs), cs)
	}
	for _, c := range cs {
		for _, hidden := range []string{"<!--", "regeneration", "ignore", "Old headings"} {
			if strings.Contains(c.Text, hidden) {
				t.Errorf("passage %q holds %q", c.Text, hidden)
			}
			for _, w := range c.Windows {
				if strings.Contains(w.EmbedText, hidden) {
					t.Errorf("window %q holds %q", w.EmbedText, hidden)
				}
			}
		}
	}
	if !strings.Contains(cs[0].Text, "First we read") || !strings.Contains(cs[0].Text, "Then we parse it") {
		t.Errorf("the comment cut the section: %q", cs[0].Text)
	}
}

// An MkDocs admonition's or tab's indented body is prose the model reads
// whole, not indented code cut to its first line.
func TestAdmonitionBodyEmbedded(t *testing.T) {
	src := "# Tuning\n\n!!! warning \"Pool size\"\n\n    For workloads dominated by disk latency, a pool twice the core count keeps\n" +
		"    every disk busy.\n\n    - Keep sync_writes off for scratch data.\n\n=== \"Linux\"\n\n    Raise the open file limit first.\n"
	_, cs := split(t, src, Options{})
	var embedded strings.Builder
	for _, c := range cs {
		for _, w := range c.Windows {
			embedded.WriteString(w.EmbedText)
		}
	}
	for _, want := range []string{"every disk busy", "sync_writes off", "open file limit"} {
		if !strings.Contains(embedded.String(), want) {
			t.Errorf("%q is embedded in no window: %q", want, embedded.String())
		}
	}
}

// HTML anchors alone ('<a id="old-name"></a>', kept for links to a renamed
// heading) are no words of the note: before the first heading they make no
// preamble for the section after them to merge into, and after a section's
// text they end no passage's text.
func TestHTMLAnchorsNoText(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string // each passage's section path, joined with " > "
	}{
		{"<a id=\"old\"></a>\n\n## Closures\n\nClosures capture their environment.\n", []string{"Closures"}},
		{"<a id=\"one\"></a>\n<a name='two'></a> <!-- old ids -->\n\n## Closures\n\nClosures capture their environment.\n", []string{"Closures"}},
		{"Intro " + words(60, "w") + ".\n\n<a id=\"old\"></a>\n\n## Closures\n\n" + words(60, "c") + ".\n", []string{"", "Closures"}},
		{"<a id=\"x\">link text</a> is prose.\n\n## Closures\n\nText.\n", []string{""}}, // an anchor with words is text
		{"# Markup\n\nWrite an anchor like this:\n\n    <a id=\"example\"></a>\n\nThat is all.\n", []string{"Markup"}},
	} {
		_, cs := split(t, tt.src, Options{})
		var got []string
		for _, c := range cs {
			got = append(got, strings.Join(c.SectionPath, " > "))
			if strings.HasPrefix(tt.src, "# Markup") != strings.Contains(c.Text, `<a id="example">`) {
				t.Errorf("%q: passage %q: indented code shows the anchor, nothing else does", tt.src, c.Text)
			}
			if strings.HasSuffix(strings.TrimSpace(c.Text), "</a>") {
				t.Errorf("%q: passage %q ends on an anchor", tt.src, c.Text)
			}
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: passages %q, want %q", tt.src, got, tt.want)
		}
	}
}
