package assets

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	fence := strings.Repeat("`", 32)
	ex := func(md, html string) string { return fence + " example\n" + md + ".\n" + html + fence + "\n" }
	tests := []struct {
		name string
		spec string
		want []SpecExample
	}{
		{"none", "# Intro\n\nno examples\n", nil},
		{"sections and numbering", "# Tabs\n\n" + ex("→foo\n", "<pre><code>foo\n</code></pre>\n") +
			"## Lists\n" + ex("- a\n", "<ul>\n<li>a</li>\n</ul>\n") + ex("", ""),
			[]SpecExample{
				{"→foo\n", "<pre><code>foo\n</code></pre>\n", "Tabs", 1},
				{"- a\n", "<ul>\n<li>a</li>\n</ul>\n", "Lists", 2},
				{"", "", "Lists", 3},
			}},
		{"headings inside examples are not sections", "# A\n" + ex("# not a section\n", "<h1>x</h1>\n") + ex("b\n", "<p>b</p>\n"),
			[]SpecExample{{"# not a section\n", "<h1>x</h1>\n", "A", 1}, {"b\n", "<p>b</p>\n", "A", 2}}},
		{"CRLF", strings.ReplaceAll("# A\n"+ex("a\n", "<p>a</p>\n"), "\n", "\r\n"),
			[]SpecExample{{"a\n", "<p>a</p>\n", "A", 1}}},
		{"stops at END TESTS", "# A\n" + ex("a\n", "<p>a</p>\n") + "<!-- END TESTS -->\n# B\n" + ex("b\n", "<p>b</p>\n"),
			[]SpecExample{{"a\n", "<p>a</p>\n", "A", 1}}},
		{"31 backticks are no fence", "# A\n" + strings.Repeat("`", 31) + " example\na\n.\nb\n" + strings.Repeat("`", 31) + "\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseSpec(tt.spec); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseSpec = %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestSpecTestsJSONKeepsHTMLReadable(t *testing.T) {
	out, err := specTestsJSON([]byte("# A\n" + strings.Repeat("`", 32) + " example\n<a>&\n.\n<p>&lt;a&gt;</p>\n" + strings.Repeat("`", 32) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"markdown":"<a>&\n","html":"<p>&lt;a&gt;</p>\n","section":"A","number":1}]`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}
