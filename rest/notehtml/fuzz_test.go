package notehtml

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	xhtml "golang.org/x/net/html"
)

// safeTags and safeAttrs are all the page's renderer may write: a note's
// own HTML, whatever it holds, reaches the page as none of its tags.
var (
	safeTags = map[string]bool{"p": true, "div": true, "span": true, "a": true, "img": true, "ul": true, "ol": true, "li": true,
		"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "blockquote": true, "pre": true, "code": true,
		"em": true, "strong": true, "del": true, "mark": true, "sup": true, "hr": true, "br": true, "input": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "details": true, "summary": true, "section": true}
	safeAttrs = map[string]bool{"class": true, "data-line": true, "id": true, "href": true, "src": true, "alt": true, "title": true,
		"role": true, "loading": true, "width": true, "height": true, "type": true, "disabled": true, "checked": true,
		"data-callout": true, "open": true, "start": true, "data-block": true, "data-tag": true, "aria-label": true}
)

// FuzzHTML renders any note: never a tag or attribute outside the
// allowlists, never a link or image to a script, and every heading placed
// on a line of the note.
func FuzzHTML(f *testing.F) {
	for _, s := range []string{
		"# T\n\n::: tip Title\nBody <img src=x onerror=alert(1)>\n:::\n",
		"<p align=\"center\"><img src=\"diagram.png\"></p>\n\n<div><script>alert(1)</script></div>\n",
		"> [!note]- Fold\n> ## Inside\n\n- ### Item\n\n!!! warning \"T\"\n    body\n",
		"[x](javascript:alert(1)) [[Other#Setup|a]] ![[diagram.png]] ==hi== #tag $x$ %%c%% <!-- c -->\n",
		":::: code-group\n::: details {open}\n## H\n:::\n::::\n",
		"| a | b |\n|---|---|\n| <img src='diagram.png'> | [^1] |\n\n[^1]: note\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		r := HTML([]byte(src), Options{Link: goldenLink, Tag: tagHref, Attachment: attach})
		checkSafe(t, src, r.HTML)
		lines := strings.Count(src, "\n") + 1
		for _, h := range r.Headings {
			if h.Line < 1 || h.Line > lines {
				t.Fatalf("heading %+v placed outside the note's %d lines", h, lines)
			}
		}
	})
}

// checkSafe fails t when out holds a tag or attribute outside the
// allowlists, or a script address.
func checkSafe(t *testing.T, src, out string) {
	t.Helper()
	z := xhtml.NewTokenizer(strings.NewReader(out))
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			return
		}
		if tt != xhtml.StartTagToken && tt != xhtml.SelfClosingTagToken {
			continue
		}
		name, more := z.TagName()
		if !safeTags[string(name)] {
			t.Fatalf("%q renders a <%s>:\n%s", src, name, out)
		}
		for more {
			var key, val []byte
			key, val, more = z.TagAttr()
			if !safeAttrs[string(key)] {
				t.Fatalf("%q renders a %s attribute on <%s>:\n%s", src, key, name, out)
			}
			v := bytes.ToLower(bytes.Map(func(r rune) rune {
				if r <= ' ' || r == utf8.RuneError {
					return -1
				}
				return r
			}, val))
			if (string(key) == "href" || string(key) == "src") && (bytes.HasPrefix(v, []byte("javascript:")) ||
				bytes.HasPrefix(v, []byte("vbscript:")) || bytes.HasPrefix(v, []byte("data:"))) {
				t.Fatalf("%q renders %s=%q:\n%s", src, key, val, out)
			}
		}
	}
}
