package notehtml

import (
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch/sections"
)

// Hugo's highlight shortcode shows as code of its language, at its
// opening line, without the shortcode lines; a kramdown attribute list
// under a heading is not shown, and its "#id" is the heading's id.
func TestDocsSiteSyntaxShown(t *testing.T) {
	for _, tt := range []struct {
		src       string
		want, not []string
	}{
		{"# Run\n\n{{< highlight bash \"linenos=table\" >}}\n# a comment\n{{< /highlight >}}\n",
			[]string{`<pre data-line="3"><code class="language-bash"># a comment` + "\n</code></pre>"}, []string{"<h1 id=\"a-comment\"", "highlight", "linenos"}},
		{"{{% highlight %}}\n<b>x</b>\n{{% /highlight %}}\n", []string{"<pre data-line=\"1\"><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>"}, nil},
		{"{{< note >}}\n# Heading\n{{< /note >}}\n", []string{`<h1 id="heading"`, "{{&lt; note &gt;}}"}, nil},
		{"## Table of contents\n{: .no_toc .text-delta }\n\nText.\n", []string{`<h2 id="table-of-contents" data-line="1">`}, []string{"no_toc", "{:"}},
		{"Install\n---\n{: #setup }\n", []string{`<h2 id="setup" data-line="1">Install</h2>`}, []string{"{:"}},
		{"## Install\n\n{: #setup }\n", []string{`<h2 id="install"`, `<p data-line="3">{: <span class="tag">#setup</span> }</p>`}, nil},
	} {
		checkPage(t, tt.src, tt.want, tt.not)
	}
}

// A heading inside a docs site's container opens a section, as sections
// reads it (the marker lines are text to it): the page neither marks it
// nested nor gives it an id after the top-level ones, so its id is the one
// read takes; a heading in a quote stays nested.
func TestContainerHeadings(t *testing.T) {
	src := "# T\n\n::: tip\n## Setup\ntext\n:::\n\n## Setup\n\n> ### Aside\n"
	got := HTML([]byte(src), Options{}).Headings
	want := []Heading{{ID: "t", Level: 1, Text: "T", Line: 1}, {ID: "setup", Level: 2, Text: "Setup", Line: 4},
		{ID: "setup-1", Level: 2, Text: "Setup", Line: 8}, {ID: "aside", Level: 3, Text: "Aside", Line: 10, Nested: true}}
	if !slices.Equal(got, want) {
		t.Errorf("headings\n%+v, want\n%+v", got, want)
	}
	doc := sections.Parse("", []byte(src))
	var ids []string
	gen := doc.CustomIDs()
	for _, h := range doc.Headings {
		ids = append(ids, gen.Generate(h.Text))
	}
	if !slices.Equal(ids, []string{"t", "setup", "setup-1"}) {
		t.Errorf("sections reads the headings' ids as %q", ids)
	}
}
