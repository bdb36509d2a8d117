package notehtml

import (
	"regexp"

	"github.com/yuin/goldmark/ast"
)

// Obsidian block ids: a paragraph or list item that ends with " ^id"
// (letters, digits and '-') is the block [[Note#^id]] links to, and a
// line "^id" of its own names the block before it (a list, a table). The
// page gives that block the id "^id", which no heading id takes, and
// hides the marker, as Obsidian's reading view does.

// blockMarkRE finds the marker at the end of a paragraph's last text.
var blockMarkRE = regexp.MustCompile(`(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$`)

// blockIDs marks the blocks of doc that a block id names.
func blockIDs(doc ast.Node, src []byte) {
	var paras []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			if entering {
				paras = append(paras, n)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, p := range paras {
		blockID(p, src)
	}
}

// blockID gives paragraph p's block the id its marker names, if it ends
// with one, and takes the marker out.
func blockID(p ast.Node, src []byte) {
	t, ok := p.LastChild().(*ast.Text)
	if !ok {
		return
	}
	v := t.Segment.Value(src)
	m := blockMarkRE.FindSubmatchIndex(v)
	if m == nil {
		return
	}
	id := []byte("^" + string(v[m[2]:m[3]]))
	if start, _ := firstOffset(p); start == t.Segment.Start+m[2]-1 {
		// The marker alone: it names the block before it, not a heading
		// (whose id is its own).
		if prev := p.PreviousSibling(); prev != nil && prev.Kind() != ast.KindHeading {
			prev.SetAttributeString("id", id)
			p.Parent().RemoveChild(p.Parent(), p)
		}
		return
	}
	t.Segment = t.Segment.WithStop(t.Segment.Start + m[0])
	if t.Segment.Len() == 0 { // "text\n^id": the marker's line goes, and its break
		prev := t.PreviousSibling()
		p.RemoveChild(p, t)
		if pt, ok := prev.(*ast.Text); ok {
			pt.SetSoftLineBreak(false)
			pt.SetHardLineBreak(false)
		}
	}
	var block ast.Node = p
	if li, ok := p.Parent().(*ast.ListItem); ok {
		block = li
	}
	block.SetAttributeString("id", id)
}
