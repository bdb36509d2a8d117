package notehtml

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/mdsearch/mdsearch/sections"
)

// MkDocs admonitions and content tabs (sections.Admonition: "!!! note",
// "??? tip", "=== "Tab"") show as callouts, as Material for MkDocs shows
// them: a box of their type titled with their title, else their type; a
// collapsible one ("???") folded, "???+" open; a tab a box titled with
// its label. Their bodies are markdown, not the indented code CommonMark
// would make of them.

type admonitionTransformer struct{}

func (admonitionTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	for _, a := range nodesOf[*sections.Admonition](doc) {
		if !a.HasChildren() {
			a.Parent().ReplaceChild(a.Parent(), a, markerText(a, reader.Source()))
			continue
		}
		a.Parent().ReplaceChild(a.Parent(), a, admonitionCallout(a))
	}
}

// markerText is a paragraph of a's marker line: one with no body shows as
// the text it is, as Obsidian shows "!!! Remember".
func markerText(a *sections.Admonition, src []byte) ast.Node {
	start := max(a.Pos(), 0)
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	p := ast.NewParagraph()
	seg := text.NewSegment(start, end)
	p.Lines().Append(seg)
	p.AppendChild(p, ast.NewTextSegment(seg))
	return p
}

// admonitionCallout is the callout a shows as, a's children moved into it.
func admonitionCallout(a *sections.Admonition) *callout {
	c := &callout{kind: a.Class}
	if c.kind == "" {
		c.kind = "tab"
	}
	switch a.Marker {
	case "???":
		c.fold = '-'
	case "???+":
		c.fold = '+'
	}
	if a.Pos() >= 0 { // for data-line; set after the parse, so no inline text
		c.Lines().Append(text.NewSegment(a.Pos(), a.Pos()))
	}
	title := kindTitle(c.kind)
	if a.Title != "" {
		title = &calloutTitle{}
		title.AppendChild(title, ast.NewString([]byte(a.Title)))
	}
	c.fill(title, a)
	return c
}
