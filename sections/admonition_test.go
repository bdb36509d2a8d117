package sections

import (
	"slices"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// MkDocs admonitions, collapsible blocks and content tabs hold markdown
// indented four spaces, not indented code; a marker that is text (inside
// a paragraph, or with more after it) opens nothing.
func TestAdmonitions(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string // Marker/Class/Title of each admonition, in order
		code      bool     // a code block remains
	}{
		{"admonition", "!!! warning \"Pool size\"\n\n    Keep the pool small.\n\n    - one\n    - two\n\nAfter.\n",
			[]string{"!!!/warning/Pool size"}, false},
		{"no title, modifiers", "!!! note inline end\n    Body.\n", []string{"!!!/note/"}, false},
		{"collapsible", "???+ tip\n\n    Open body.\n", []string{"???+/tip/"}, false},
		{"tabs", "=== \"pip\"\n\n    Install it.\n\n=== \"conda\"\n\n    Or this.\n",
			[]string{"===//pip", "===//conda"}, false},
		{"code in a tab", "=== \"Shell\"\n\n    ```sh\n    make\n    ```\n", []string{"===//Shell"}, false},
		{"indented code in the body", "!!! note\n\n        code line\n", []string{"!!!/note/"}, true},
		{"nested", "!!! note\n\n    !!! tip\n\n        Inner.\n", []string{"!!!/note/", "!!!/tip/"}, false},
		{"in a paragraph", "Text\n!!! note\n    more text\n", nil, false},
		{"more after", "!!! WARNING !!!\n\n    code\n", nil, true},
		{"no type", "!!!\n", nil, false},
		{"a sentence", "!!! Remember to renew the domain\n\nText.\n", nil, false},
		{"a question", "??? what is this\n", nil, false},
		{"setext underline", "Title\n===\n", nil, false},
		{"indented four", "    !!! note\n", nil, true},
	} {
		root := md.Parse(text.NewReader([]byte(tt.src)))
		var got []string
		code := false
		_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *Admonition:
				got = append(got, n.Marker+"/"+n.Class+"/"+n.Title)
			case *ast.CodeBlock:
				code = true
			}
			return ast.WalkContinue, nil
		})
		if !slices.Equal(got, tt.want) || code != tt.code {
			t.Errorf("%s: admonitions %q, code %v; want %q, %v", tt.name, got, code, tt.want, tt.code)
		}
	}
	// The body is prose: its words count, and its block is no code.
	d := Parse("n.md", []byte("# Tuning\n\n!!! tip \"Pools\"\n\n    A pool twice the core count keeps disks busy.\n"))
	if len(d.Sections) != 1 || len(d.Sections[0].Blocks) != 1 || d.Sections[0].Blocks[0].Kind != Paragraph || d.WordCount != 13 {
		t.Errorf("sections %+v, %d words", d.Sections, d.WordCount)
	}
}
