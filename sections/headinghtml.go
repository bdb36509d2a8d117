package sections

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// headingText is a heading's text as sections names it (Heading.Text):
// PlainText, but with the raw HTML that is no markup kept as written, and
// the text its id is made of, which drops all raw HTML as a page's text
// does ("" when the two are the same). shown leaves inline comments out
// (walker.shown).
func headingText(n ast.Node, src []byte, shown func(start, stop int) []byte) (heading, idText string) {
	var b strings.Builder
	inlineText(&b, n, src, nil, true, shown)
	heading = collapse(b.String())
	if !holdsRawHTML(n) { // the two texts are one: read it once
		return heading, ""
	}
	var id strings.Builder
	inlineText(&id, n, src, nil, false, shown)
	if idText = collapse(id.String()); idText == heading {
		idText = ""
	}
	return heading, idText
}

// holdsRawHTML reports whether raw inline HTML is among n's descendants.
func holdsRawHTML(n ast.Node) bool {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*ast.RawHTML); ok || holdsRawHTML(c) {
			return true
		}
	}
	return false
}

// typedHTML is raw inline HTML as a heading keeps it: as written when it
// is text a person typed in angle brackets ("<angle>", "MaybeRef<T>"),
// which no page draws as anything; "" when it is markup a page draws or
// hides: a comment or declaration, a tag with attributes or closed on
// itself ("<sup class=…/>", "<Badge/>"), a custom element ("<my-card>"),
// or an element of HTML ("<br>", "<kbd>", "<script>").
func typedHTML(n *ast.RawHTML, src []byte) string {
	var b strings.Builder
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		b.Write(seg.Value(src))
	}
	raw := b.String()
	body, ok := strings.CutPrefix(raw, "<")
	body, closed := strings.CutSuffix(body, ">")
	if !ok || !closed || strings.HasPrefix(body, "!") || strings.HasPrefix(body, "?") {
		return ""
	}
	body = strings.TrimPrefix(body, "/")
	name, attrs, _ := strings.Cut(strings.Join(strings.Fields(body), " "), " ")
	if attrs != "" || strings.HasSuffix(name, "/") || strings.Contains(name, "-") || htmlElements[strings.ToLower(name)] {
		return ""
	}
	return raw
}

// htmlElements are the elements of HTML, those a page no longer draws
// included: a tag of one is markup, whatever its attributes.
var htmlElements = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`a abbr acronym address area article aside audio b base basefont bdi bdo bgsound
		big blink blockquote body br button canvas caption center cite code col colgroup data datalist dd del details
		dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6
		head header hgroup hr html i iframe image img input ins isindex kbd keygen label legend li link listing main map
		mark marquee math menu menuitem meta meter nav nobr noembed noframes noscript object ol optgroup option output p
		param picture plaintext pre progress q rb rp rt rtc ruby s samp script search section select slot small source
		spacer span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title
		tr track tt u ul var video wbr xmp`) {
		htmlElements[e] = true
	}
}

// collapse is s shown as text: invalid UTF-8 as U+FFFD, runs of white
// space as one space, none at either end.
func collapse(s string) string {
	return strings.Join(strings.Fields(display([]byte(s))), " ")
}
