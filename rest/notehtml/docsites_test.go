package notehtml

import "testing"

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
