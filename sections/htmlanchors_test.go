package sections

import "testing"

// "#id" of an HTML anchor reads the heading the anchor stands before
// (blank lines, comments and other anchors between), or else the section
// the anchor sits in; a heading's own id comes first.
func TestHTMLAnchors(t *testing.T) {
	src := "## Deref\n\nText about deref.\n\n<!-- Old headings. Do not remove or links may break. -->\n\n" +
		"<a id=\"using-deref-coercions\"></a>\n<a name='implicit'></a>\n\n" +
		"### Implicit Deref Coercions\n\nCoercion text <a id=\"inline-spot\"></a> here.\n\n" +
		"<a id=\"next\"></a>\n\n### Next\n\nEnd <a id=\"last\"></a>.\n\n```html\n<a id=\"in-code\"></a>\n```\n\n<!-- <a id=\"hidden\"></a> -->\n\n<a data-id=\"data\"></a>\n\n<a id=\"old&amp;name\"></a>\n\n### Renamed\n\nShown as code:\n\n    <a id=\"in-indented\"></a>\n"
	d := Parse("n.md", []byte(src))
	for _, tt := range []struct{ query, want string }{
		{"#using-deref-coercions", "Implicit Deref Coercions"},
		{"#IMPLICIT", "Implicit Deref Coercions"},
		{"#inline-spot", "Implicit Deref Coercions"},
		{"#next", "Next"}, // a heading's own id ("next") and the anchor agree
		{"#last", "Next"},
		{"#deref", "Deref"},
		{"#nowhere", ""},
		{"#in-code", ""},
		{"#hidden", ""},
		{"#data", ""},
		{"#old&name", "Renamed"},
		{"#in-indented", ""},          // indented code shows the markup      // the id as a browser reads it
		{"using-deref-coercions", ""}, // without '#', words of a heading, as before
	} {
		s, _, err := d.find(tt.query)
		got := ""
		if err == nil {
			got = s.Heading
		}
		if got != tt.want {
			t.Errorf("%q: %q (%v), want %q", tt.query, got, err, tt.want)
		}
	}
}
