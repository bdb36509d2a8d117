package sections

import (
	"fmt"
	"testing"
)

// Links reads wikilinks, embeds and markdown links to the vault's files,
// where they start, and leaves out URLs, links within the page and links
// in code.
func TestLinks(t *testing.T) {
	src := "# Plan\n\nSee [[Budget#Q1|the budget]] and ![[Chart.png]].\n\n" +
		"A [relative link](../notes/My%20Note.md#setup \"title\"), [[folder/Other]], <https://example.com>, [site](https://x.org), [here](#plan), [[#Plan]].\n\n" +
		"```\n[[InCode]] [x](code.md)\n```\n\nInline `[[Span]]` code. [[ Spaced \\| alias ]]\n"
	var got []string
	for _, l := range Links([]byte(src)) {
		got = append(got, fmt.Sprintf("%s %v %q", l.Target, l.Wiki, src[l.At:min(len(src), l.At+3)]))
	}
	want := []string{`Budget true "[[B"`, `Chart.png true "![["`, `../notes/My Note.md false "[re"`, `folder/Other true "[[f"`, `Spaced true "[[ "`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Links:\n%q\nwant\n%q", got, want)
	}
}

// FuzzLinks: whatever a note holds, Links never panics, every link it
// reads has a target and starts inside the text, and links come in order.
func FuzzLinks(f *testing.F) {
	for _, s := range []string{"[[a]] [b](c.md)", "![[x|y]]\n```\n[[z]]\n```", "[a](<b c.md>) [[#h]] [[", "[x](%zz.md) [[a\\|b]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		at := 0
		for _, l := range Links([]byte(src)) {
			if l.Target == "" || l.At < at || l.At > len(src) {
				t.Fatalf("%q: %+v (after %d)", src, l, at)
			}
			at = l.At
		}
	})
}
