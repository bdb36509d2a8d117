package notehtml

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// highlight is Obsidian's ==text==, shown as a <mark>. It pairs like
// strikethrough's ~~, but only runs of exactly two '=' count: "a == b"
// and "===" stay text.
type highlight struct{ ast.BaseInline }

var kindHighlight = ast.NewNodeKind("Highlight")

func (n *highlight) Kind() ast.NodeKind { return kindHighlight }

func (n *highlight) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

type highlightDelimiter struct{}

func (highlightDelimiter) IsDelimiter(b byte) bool { return b == '=' }

func (highlightDelimiter) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (highlightDelimiter) OnMatch(int) ast.Node { return &highlight{} }

// highlightParser reads a "==" run as a delimiter that the emphasis
// algorithm pairs.
type highlightParser struct{}

func (highlightParser) Trigger() []byte { return []byte{'='} }

func (highlightParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 2, highlightDelimiter{})
	if d == nil || d.OriginalLength != 2 || before == '=' {
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
