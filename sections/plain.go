package sections

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// sections reads inline markup in three places only: heading text, #tags
// in text outside code, and code spans that hold a comment's "%%". A
// paragraph without a '#' byte can hold no tag, so unless it holds "%%"
// and a backtick its inline parse (about half of goldmark's time on
// prose) is skipped: the paragraph becomes a plainParagraph, a raw block goldmark's
// inline pass leaves alone. Its position and lines are the paragraph's.

// kindPlainParagraph is the node kind of plainParagraph.
var kindPlainParagraph = ast.NewNodeKind("PlainParagraph")

// plainParagraph is a paragraph whose inline content sections never reads.
type plainParagraph struct{ ast.BaseBlock }

func (n *plainParagraph) Kind() ast.NodeKind { return kindPlainParagraph }

// IsRaw makes goldmark's inline pass skip the node.
func (n *plainParagraph) IsRaw() bool { return true }

func (n *plainParagraph) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// skipInline is the paragraph transformer that swaps tag-free paragraphs
// for plainParagraphs. It runs after the link reference definition and
// table transformers, so those still see every paragraph.
type skipInline struct{}

// skipInlinePriority orders skipInline after goldmark's own transformers
// (lower values run first).
const skipInlinePriority = 1000

var skipInlineOption = parser.WithParagraphTransformers(util.Prioritized(skipInline{}, skipInlinePriority))

func (skipInline) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := p.Lines()
	if lines.Len() == 0 || !stillOpen(p, pc) {
		return
	}
	src := reader.Source()
	var percent, tick bool
	for i := range lines.Len() {
		seg := lines.At(i)
		v := seg.Value(src)
		if bytes.IndexByte(v, '#') >= 0 {
			return
		}
		percent = percent || bytes.Contains(v, []byte("%%"))
		tick = tick || bytes.IndexByte(v, '`') >= 0
	}
	if percent && tick {
		return // its code spans hide a "%%" from comments (codeRanges), over lines too
	}
	plain := &plainParagraph{}
	plain.SetLines(lines)
	plain.SetPos(p.Pos())
	plain.SetBlankPreviousLines(p.HasBlankPreviousLines())
	p.Parent().ReplaceChild(p.Parent(), p, plain)
}

// stillOpen reports whether p is being closed in the ordinary way. A
// setext underline closes the paragraph above it first and then asks the
// transformers; that paragraph becomes the heading's text, so it must stay
// a paragraph.
func stillOpen(p *ast.Paragraph, pc parser.Context) bool {
	blocks := pc.OpenedBlocks()
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].Node == p {
			return true
		}
	}
	return false
}
