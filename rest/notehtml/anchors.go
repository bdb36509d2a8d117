package notehtml

import (
	"bytes"
	"html"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// HTML anchors. Raw HTML is omitted from the page, but an anchor a docs
// site keeps a renamed heading's old id with ('<a id="old-name"></a>')
// is rendered as an empty anchor of that id alone, so a link to
// "#old-name" scrolls to it, as `read --section '#old-name'` reads the
// section it stands before (sections' htmlanchors.go).

type anchorRenderer struct{}

func (anchorRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

// omitted is what the page shows of other raw HTML, as goldmark does.
const omitted = "<!-- raw HTML omitted -->"

func renderRawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	ids := sections.HTMLAnchorIDs(n.Segments.Value(src))
	if ids == nil {
		_, _ = w.WriteString(omitted)
	}
	writeAnchors(w, ids)
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var b bytes.Buffer
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		b.Write(seg.Value(src))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(src))
	}
	ids := sections.HTMLAnchorIDs(b.Bytes())
	if ids == nil {
		_, _ = w.WriteString(omitted + "\n")
		return ast.WalkContinue, nil
	}
	writeAnchors(w, ids)
	_ = w.WriteByte('\n')
	return ast.WalkContinue, nil
}

func writeAnchors(w util.BufWriter, ids []string) {
	for _, id := range ids {
		_, _ = w.WriteString(`<a id="` + html.EscapeString(id) + `"></a>`)
	}
}
