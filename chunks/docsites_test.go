package chunks

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// Docs-site syntax the chunker reads as what it stands for: a Hugo
// highlight shortcode as the fenced code block it is (the model reads its
// opening line, the language in it; keyword search all of it; no window
// starts inside it), and a kramdown attribute list under a heading as no
// text at all. Each note is cut as its plain equivalent is: the same
// passages, words, tags and embed texts, but for the fence lines written
// otherwise (of as many words, so counts match) and the line breaks a
// hidden line leaves. (The ids are those the headings' text makes; the
// sections tests hold the lists' ids.)
func TestDocsSiteSyntax(t *testing.T) {
	code := "# list the files\nls -la #notag\n\n# and count them\nls | wc -l\n"
	prose := words(70, "w")
	for _, tt := range []struct{ name, src, plain string }{
		{"highlight",
			"# Shell\n\nRun:\n\n{{<highlight bash>}}\n" + code + "{{</highlight>}}\n\n" + prose + "\n",
			"# Shell\n\nRun:\n\n```bash x\n" + code + "```\n\n" + prose + "\n"},
		{"highlight, percent form",
			"# Shell\n\n{{%highlight bash%}}\n" + code + "{{%/highlight%}}\n\n## Next\n\n" + prose + "\n",
			"# Shell\n\n```bash x\n" + code + "```\n\n## Next\n\n" + prose + "\n"},
		{"highlight, unclosed",
			"# Shell\n\n" + prose + "\n\n{{<highlight bash>}}\n" + code + "\n## Not a heading\n",
			"# Shell\n\n" + prose + "\n\n```bash x\n" + code + "\n## Not a heading\n"},
		{"highlight in a list item",
			"# Shell\n\n- Run:\n\n  {{<highlight bash>}}\n  # comment\n  {{</highlight>}}\n\n" + prose + "\n",
			"# Shell\n\n- Run:\n\n  ```bash x\n  # comment\n  ```\n\n" + prose + "\n"},
		{"attribute lines",
			"# Guide\n{: .no_toc }\n\n## Table of contents\n{: .no_toc .text-delta }\n\n1. TOC\n{:toc}\n\nInstall\n-------\n{: #install }\n\n" + prose + "\n",
			"# Guide\n\n## Table of contents\n\n1. TOC\n{:toc}\n\nInstall\n-------\n\n" + prose + "\n"},
		{"attribute line in a small window",
			"## Setup\n{: #setup .no_toc }\n" + prose + "\n",
			"## Setup\n" + prose + "\n"},
	} {
		for _, opts := range []Options{{}, {MaxTokens: 24, PassageWords: 40}, {CodeLines: -1}} {
			_, got := split(t, tt.src, opts)
			_, want := split(t, tt.plain, opts)
			if g, w := summary(got), summary(want); g != w {
				t.Errorf("%s %+v:\n got %s\nwant %s", tt.name, opts, g, w)
			}
			for _, c := range got {
				for _, w := range append(c.Windows, mdsearch.Window{EmbedText: c.Text}) {
					if strings.Contains(w.EmbedText, "no_toc") || strings.Contains(w.EmbedText, "delta") {
						t.Errorf("%s: %q holds the attribute list", tt.name, w.EmbedText)
					}
				}
			}
		}
	}
}

var (
	// fenceLines are the opening and closing lines of either form.
	fenceLines = regexp.MustCompile(`(?m)^( *)(\x60\x60\x60(\w*)[^\n]*|\{\{[<%] *highlight *(\w*)[^\n]*?[>%]\}\}|\{\{[<%] */highlight *[>%]\}\})$`)
	// the line breaks a hidden line leaves
	lineBreaks = regexp.MustCompile(`\n+`)
)

// summary is what a note's passages are, fences written one way and line
// breaks collapsed.
func summary(cs []mdsearch.Chunk) string {
	norm := func(s string) string {
		s = fenceLines.ReplaceAllString(s, "${1}FENCE$3$4")
		return lineBreaks.ReplaceAllString(s, "\n")
	}
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\n[%s #%s] %d words, tags %q, part %d/%d: %q", strings.Join(c.SectionPath, " > "), c.Anchor, c.WordCount,
			c.PassageTags, c.Part, c.Parts, norm(c.Text))
		for _, w := range c.Windows {
			fmt.Fprintf(&b, "\n  window %d tokens: %q", w.TokenCount, norm(w.EmbedText))
		}
	}
	return b.String()
}
