package notehtml

import "testing"

// Hugo's highlight shortcode shows as code of its language, at its
// opening line, without the shortcode lines.
func TestDocsSiteSyntaxShown(t *testing.T) {
	for _, tt := range []struct {
		src       string
		want, not []string
	}{
		{"# Run\n\n{{< highlight bash \"linenos=table\" >}}\n# a comment\n{{< /highlight >}}\n",
			[]string{`<pre data-line="3"><code class="language-bash"># a comment` + "\n</code></pre>"}, []string{"<h1 id=\"a-comment\"", "highlight", "linenos"}},
		{"{{% highlight %}}\n<b>x</b>\n{{% /highlight %}}\n", []string{"<pre data-line=\"1\"><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>"}, nil},
		{"{{< note >}}\n# Heading\n{{< /note >}}\n", []string{`<h1 id="heading"`, "{{&lt; note &gt;}}"}, nil},
	} {
		checkPage(t, tt.src, tt.want, tt.not)
	}
}
