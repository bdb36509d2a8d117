package notehtml

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// highlight is Obsidian's ==text==, shown as a <mark> (pairParser).
type highlight struct{ ast.BaseInline }

var kindHighlight = ast.NewNodeKind("Highlight")

func (n *highlight) Kind() ast.NodeKind { return kindHighlight }

func (n *highlight) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// pairDelimiter is a run of exactly two of one character that the
// emphasis algorithm pairs into node: "==" for a highlight, "~~" for a
// strikethrough. Obsidian reads no other run length as either, so a single
// tilde ("1~3", "10時~12時", GFM's one-tilde strikethrough) and "a == b"
// stay text, as the section parser keeps them in headings.
type pairDelimiter struct {
	char byte
	node func() ast.Node
}

func (d pairDelimiter) IsDelimiter(b byte) bool { return b == d.char }

func (pairDelimiter) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (d pairDelimiter) OnMatch(int) ast.Node { return d.node() }

// pairParser reads a run of exactly two d.char as a delimiter that the
// emphasis algorithm pairs.
type pairParser struct{ d pairDelimiter }

var (
	highlightParser = pairParser{pairDelimiter{'=', func() ast.Node { return &highlight{} }}}
	strikeParser    = pairParser{pairDelimiter{'~', func() ast.Node { return east.NewStrikethrough() }}}
)

func (p pairParser) Trigger() []byte { return []byte{p.d.char} }

func (p pairParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 2, p.d)
	if d == nil || d.OriginalLength != 2 || before == rune(p.d.char) {
		return nil
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

func renderHighlight(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(`<mark class="highlight">`)
	} else {
		_, _ = w.WriteString("</mark>")
	}
	return ast.WalkContinue, nil
}

// registerMarks adds the renderers of this file's nodes.
func registerMarks(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindHighlight, renderHighlight)
	reg.Register(kindMath, renderMath)
	reg.Register(kindTag, renderTag)
	reg.Register(kindEmbeddedImage, renderEmbeddedImage)
}
