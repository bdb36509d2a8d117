package notehtml

import "testing"

// An HTML anchor alone ('<a id="old-name"></a>', in a block of its own or
// within a line) is rendered as an empty anchor of its id, so a link to
// "#old-name" scrolls to it; other raw HTML, and anchors among it, are
// omitted as before, and an id is escaped.
func TestPageHTMLAnchors(t *testing.T) {
	for _, tt := range []struct {
		src       string
		want, not []string
	}{
		{"See [the move](#ways-move).\n\n<a id=\"ways-move\"></a>\n\n## Ways\n", []string{`<a href="#ways-move">the move</a>`, `<a id="ways-move"></a>`}, nil},
		{"<a id=\"one\"></a>\n<a name='two'></a> <!-- kept -->\n\n## H\n", []string{`<a id="one"></a>`, `<a id="two"></a>`}, []string{"kept"}},
		{"<a id=\"b1\"></a>\n\n<a name=\"b2\">\n\n## H\n", []string{`<a id="b1"></a>`, `<a id="b2"></a>`}, nil},
		{"Text <a name=\"in-line\">here</a> on.\n", []string{`Text <a id="in-line"></a>here<!-- raw HTML omitted --> on.`}, nil},
		{"<div class=\"x\">\n<a id=\"among\"></a> words\n</div>\n", []string{"<!-- raw HTML omitted -->"}, []string{"among", "words"}},
		{"Bold <b>x</b> <a href=\"https://e.com\">link</a>\n", []string{"<!-- raw HTML omitted -->x"}, []string{"<b>", "href"}},
		{"<a id='\"><script>x'></a>\n", nil, []string{"<script>"}},
		{"<a id=\"q&amp;a\"></a>\n", []string{`<a id="q&amp;a"></a>`}, []string{"&amp;amp;"}}, // escaped once, as written
		{"```\n<a id=\"code\"></a>\n```\n", []string{"&lt;a id=&#34;code&#34;&gt;"}, []string{`<a id="code">`}},
	} {
		checkPage(t, tt.src, tt.want, tt.not)
	}
}
