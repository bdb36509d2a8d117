package notehtml

import "testing"

// MkDocs admonitions and tabs show as callouts with their body as
// markdown (a list is a list, not code), at their marker's line.
func TestAdmonitionsShowAsCallouts(t *testing.T) {
	for _, tt := range []struct {
		src       string
		want, not []string
	}{
		{"# T\n\n!!! warning \"Pool size\"\n\n    Keep it *small*.\n\n    - one\n",
			[]string{`<div class="callout" data-callout="warning" data-line="3">`, `<div class="callout-title">Pool size</div>`,
				"<em>small</em>", "<li>one</li>"}, []string{"<pre>", "!!!"}},
		{"??? tip\n\n    Folded.\n", []string{`<details class="callout" data-callout="tip"`, `<summary class="callout-title">Tip</summary>`}, []string{" open"}},
		{"???+ note \"Open <b>\"\n    Shown.\n", []string{`data-callout="note" data-line="1" open>`, "Open &lt;b&gt;"}, nil},
		{"=== \"pip\"\n\n    ```sh\n    pip install x\n    ```\n", []string{`data-callout="tab"`, `<div class="callout-title">pip</div>`, `language-sh`}, []string{"```"}},
		// No body, or a sentence: text, as Obsidian shows it.
		{"!!! Remember\n\nText.\n", []string{`<p data-line="1">!!! Remember</p>`, `<p data-line="3">Text.</p>`}, []string{"callout"}},
		{"!!! Remember to renew the domain\n\nText.\n", []string{`>!!! Remember to renew the domain</p>`}, []string{"callout"}},
	} {
		checkPage(t, tt.src, tt.want, tt.not)
	}
}
