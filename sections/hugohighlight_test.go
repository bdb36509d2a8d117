package sections

import (
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Hugo's highlight shortcode is a code block: a "# comment" in it is no
// heading and a "#word" no tag, in either delimiter form and any spacing,
// indented up to three spaces, in a list item or quote too; one never
// closed runs to the end of the note with a warning, as a fence does.
// Other shortcodes, and lines that only look like one, stay markdown.
func TestHugoHighlight(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		headings  []string // every heading's text, nested ones too, in order
		code      []string // the first line of each top-level Code block
		tags      []string
		warning   string // a warning holds this; "" for none
	}{
		{"angle brackets", "# Run\n\n{{< highlight bash \"linenos=table\" >}}\n# not a heading\nmake #notag\n{{< /highlight >}}\n\nAfter.\n",
			[]string{"Run"}, []string{`{{< highlight bash "linenos=table" >}}`}, nil, ""},
		{"percent", "# Run\n\n{{% highlight python %}}\n# comment\n{{% /highlight %}}\n\n## Next\n",
			[]string{"Run", "Next"}, []string{"{{% highlight python %}}"}, nil, ""},
		{"no spaces", "{{<highlight bash>}}\n# c\n{{</highlight>}}\n# Real\n",
			[]string{"Real"}, []string{"{{<highlight bash>}}"}, nil, ""},
		{"wide spaces", "{{<   highlight   go  \"hl_lines=2\"   >}}\n# c\n{{<  /  highlight  >}}\n# Real\n",
			[]string{"Real"}, []string{`{{<   highlight   go  "hl_lines=2"   >}}`}, nil, ""},
		{"no language", "{{< highlight >}}\n# c\n{{< /highlight >}}\n", nil, []string{"{{< highlight >}}"}, nil, ""},
		{"trailing white space", "{{< highlight sh >}}  \n# c\n{{< /highlight >}}\t\n# Real\n",
			[]string{"Real"}, []string{"{{< highlight sh >}}"}, nil, ""},
		{"indented three", "   {{< highlight sh >}}\n# c\n   {{< /highlight >}}\n# Real\n",
			[]string{"Real"}, []string{"   {{< highlight sh >}}"}, nil, ""},
		{"indented four is indented code", "    {{< highlight sh >}}\n# Real\n",
			[]string{"Real"}, []string{"    {{< highlight sh >}}"}, nil, ""},
		{"closing indented four closes nothing", "{{< highlight sh >}}\n    {{< /highlight >}}\n# c\n{{< /highlight >}}\n",
			nil, []string{"{{< highlight sh >}}"}, nil, ""},
		{"after a line of text", "Run this:\n{{< highlight sh >}}\n# c\n{{< /highlight >}}\n",
			nil, []string{"{{< highlight sh >}}"}, nil, ""},
		{"a fence inside", "{{< highlight md >}}\n```\n# c\n{{< /highlight >}}\n# Real\n",
			[]string{"Real"}, []string{"{{< highlight md >}}"}, nil, ""},
		{"inside a fence", "```\n{{< highlight go >}}\n```\n# Real\n{{< /highlight >}}\n",
			[]string{"Real"}, []string{"```"}, nil, ""},
		{"closed by the other delimiter", "{{< highlight sh >}}\n# c\n{{% /highlight %}}\n# Real\n",
			[]string{"Real"}, []string{"{{< highlight sh >}}"}, nil, ""},
		{"CRLF", "{{< highlight sh >}}\r\n# c\r\n{{< /highlight >}}\r\n# Real\r\n",
			[]string{"Real"}, []string{"{{< highlight sh >}}"}, nil, ""},
		{"in a list item", "- Install:\n\n  {{< highlight sh >}}\n  # c #notag\n  {{< /highlight >}}\n",
			nil, nil, nil, ""},
		{"in a quote", "> {{< highlight sh >}}\n> # c\n> {{< /highlight >}}\n", nil, nil, nil, ""},
		{"unclosed", "# Top\n\n{{< highlight sh >}}\n# c\n\n## not either #notag\n",
			[]string{"Top"}, []string{"{{< highlight sh >}}"}, nil, "highlight shortcode opened on line 3 is never closed"},
		{"unclosed, its line last", "# Top\n\n{{< highlight sh >}}\n", []string{"Top"}, []string{"{{< highlight sh >}}"}, nil,
			"highlight shortcode opened on line 3 is never closed"},
		{"unclosed in a list item ends with it", "- {{< highlight sh >}}\n  # c\n\n# Real\n", []string{"Real"}, nil, nil, ""},
		{"closed last", "{{< highlight sh >}}\n# c\n{{< /highlight >}}\n\n", nil, []string{"{{< highlight sh >}}"}, nil, ""},

		// Markdown, as before.
		{"another shortcode", "{{< note >}}\n# Real #tag\n{{< /note >}}\n", []string{"Real #tag"}, nil, []string{"tag"}, ""},
		{"delimiters unpaired", "{{< highlight sh %}}\n# Real\n", []string{"Real"}, nil, nil, ""},
		{"self-closing", "{{< highlight sh />}}\n# Real\n", []string{"Real"}, nil, nil, ""},
		{"within a line", "{{< highlight sh >}}x{{< /highlight >}}\n# Real\n", []string{"Real"}, nil, nil, ""},
		{"more after it", "{{< highlight sh >}} and text\n# Real\n", []string{"Real"}, nil, nil, ""},
		{"escaped", "{{</* highlight sh */>}}\n# Real\n", []string{"Real"}, nil, nil, ""},
		{"a longer name", "{{< highlighter sh >}}\n# Real\n", []string{"Real"}, nil, nil, ""},
		{"a closing line alone", "{{< /highlight >}}\n# Real\n", []string{"Real"}, nil, nil, ""},
	} {
		d := Parse("n.md", []byte(tt.src))
		var headings, code []string
		for _, h := range d.Headings {
			headings = append(headings, h.Text)
		}
		for _, h := range d.Nested {
			headings = append(headings, h.Text)
		}
		for _, s := range d.Sections {
			for _, b := range s.Blocks {
				if b.Kind == Code {
					line, _, _ := strings.Cut(string(d.Src[b.StartByte:b.EndByte]), "\n")
					code = append(code, strings.TrimRight(line, " \t\r"))
				}
			}
		}
		warnings := strings.Join(d.Warnings, "; ")
		if !slices.Equal(headings, tt.headings) || !slices.Equal(code, tt.code) || !slices.Equal(d.Tags, tt.tags) ||
			(tt.warning == "") != (warnings == "") || !strings.Contains(warnings, tt.warning) {
			t.Errorf("%s: headings %q, code %q, tags %q, warnings %q\nwant %q, %q, %q, %q",
				tt.name, headings, code, d.Tags, warnings, tt.headings, tt.code, tt.tags, tt.warning)
		}
	}
}

// The block is goldmark's FencedCodeBlock, its language the shortcode's
// first argument (unquoted) and its lines the code alone, so the page
// shows it as a fence's.
func TestHugoHighlightNode(t *testing.T) {
	for _, tt := range []struct{ src, lang, code string }{
		{"{{< highlight go \"linenos=table\" >}}\nfunc main() {}\n{{< /highlight >}}\n", "go", "func main() {}\n"},
		{"{{< highlight \"go-html-template\" >}}\n{{ .Title }}\n{{< /highlight >}}\n", "go-html-template", "{{ .Title }}\n"},
		{"{{% highlight %}}\nplain\n{{% /highlight %}}\n", "", "plain\n"},
		{"  {{< highlight sh >}}\n  indented\n   more\n  {{< /highlight >}}\n", "sh", "indented\n more\n"},
		{"- {{< highlight sh >}}\n  in item\n  {{< /highlight >}}\n", "sh", "in item\n"},
		{"{{< highlight sh >}}\nto the end\n", "sh", "to the end\n"},
	} {
		src := []byte(tt.src)
		var got *ast.FencedCodeBlock
		_ = ast.Walk(md.Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if f, ok := n.(*ast.FencedCodeBlock); ok && entering && got == nil {
				got = f
			}
			return ast.WalkContinue, nil
		})
		if got == nil {
			t.Errorf("%q: no code block", tt.src)
			continue
		}
		var code strings.Builder
		for i := range got.Lines().Len() {
			seg := got.Lines().At(i)
			code.Write(seg.Value(src))
		}
		if lang := string(got.Language(src)); lang != tt.lang || code.String() != tt.code {
			t.Errorf("%q: language %q, code %q; want %q, %q", tt.src, lang, code.String(), tt.lang, tt.code)
		}
	}
}

// Fences, which readers of raw lines (the nesting check, result cuts)
// follow code with, knows the shortcode too.
func TestFencesHighlight(t *testing.T) {
	var f Fences
	var got []bool
	for _, line := range strings.Split("a\n{{< highlight sh >}}\n```\n# c\n{{< /highlight >}}\n# h\n```\n{{< highlight sh >}}\n```\nb", "\n") {
		got = append(got, f.Line([]byte(line)))
	}
	want := []bool{false, true, true, true, true, false, true, true, true, false}
	if !slices.Equal(got, want) {
		t.Errorf("in code: %v, want %v", got, want)
	}
}
