package notehtml

import (
	"sort"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Obsidian comments the page hides beyond sections' whole-line ones
// (maskComments blanks those before the parse): a comment within a line
// ("a %%aside%% b"), or one from inside a line to inside a later one, as
// sections finds them for search (Document.InlineComments), so the page
// and the index agree on what a comment is. They are taken out of the
// parsed tree, not the source, so a paragraph a comment sits in stays one
// paragraph and a line starting with a comment does not turn into
// indented code.

// commentTransformer runs after the footnotes' transformer, so a comment
// in a footnote is hidden too. It reads the comments from the call's
// noteState.
type commentTransformer struct{}

func (commentTransformer) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	if st, _ := pc.Get(noteStateKey).(*noteState); st != nil && len(st.comments) > 0 {
		h := hider(st.comments)
		h.children(doc)
	}
}

// hider takes the comments, sorted and apart, out of a tree.
type hider [][2]int

// children hides the comments among parent's children.
func (h hider) children(parent ast.Node) {
	for c := parent.FirstChild(); c != nil; {
		next := c.NextSibling()
		h.node(parent, c)
		c = next
	}
}

// node removes n when a comment covers it, trims a text a comment cuts
// into, and looks inside anything else; a paragraph or an inline node
// left empty goes too.
func (h hider) node(parent, n ast.Node) {
	start, stop, ok := extent(n)
	if ok && h.covers(start, stop) {
		parent.RemoveChild(parent, n)
		return
	}
	switch n := n.(type) {
	case *ast.Text:
		h.trim(parent, n)
		return
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.CodeSpan, *ast.HTMLBlock:
		return
	}
	if !n.HasChildren() {
		return
	}
	h.children(n)
	if !n.HasChildren() && emptied(n) {
		parent.RemoveChild(parent, n)
	}
}

// emptied reports whether n, its content all hidden, goes too: a
// paragraph or an inline node does; a heading keeps its id, a table cell
// its column, a list item its bullet, as in Obsidian.
func emptied(n ast.Node) bool {
	switch n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return true
	}
	return n.Type() == ast.TypeInline
}

// covers reports whether one comment holds all of [start, stop).
func (h hider) covers(start, stop int) bool {
	i := sort.Search(len(h), func(i int) bool { return h[i][1] >= stop })
	return i < len(h) && h[i][0] <= start
}

// trim cuts the comments out of t, which becomes the pieces outside them;
// the last keeps t's line break.
func (h hider) trim(parent ast.Node, t *ast.Text) {
	seg := t.Segment
	i := sort.Search(len(h), func(i int) bool { return h[i][1] > seg.Start })
	if i == len(h) || h[i][0] >= seg.Stop {
		return // no comment cuts into it
	}
	var pieces []text.Segment
	at := seg.Start
	for ; i < len(h) && h[i][0] < seg.Stop; i++ {
		if h[i][0] > at {
			pieces = append(pieces, text.NewSegment(at, h[i][0]))
		}
		at = max(at, h[i][1])
	}
	if at < seg.Stop {
		pieces = append(pieces, seg.WithStart(at))
	}
	if len(pieces) == 0 {
		parent.RemoveChild(parent, t)
		return
	}
	soft, hard := t.SoftLineBreak(), t.HardLineBreak()
	t.Segment = pieces[0]
	t.SetSoftLineBreak(false)
	t.SetHardLineBreak(false)
	last := t
	for _, p := range pieces[1:] {
		next := ast.NewTextSegment(p)
		next.SetRaw(t.IsRaw())
		parent.InsertAfter(parent, last, next)
		last = next
	}
	last.SetSoftLineBreak(soft)
	last.SetHardLineBreak(hard)
}

// extent is the source range a node spans: a text's segment, a code
// span's text, a block from its first marker ("## ", "- ", "> ") to the
// end of its text, an inline node without children its first byte; ok is
// false where nothing places it.
func extent(n ast.Node) (start, stop int, ok bool) {
	switch n := n.(type) {
	case *ast.Text:
		return n.Segment.Start, n.Segment.Stop, true
	case *ast.CodeSpan:
		a, ok1 := n.FirstChild().(*ast.Text)
		b, ok2 := n.LastChild().(*ast.Text)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		return a.Segment.Start, b.Segment.Stop, true
	}
	if n.Type() == ast.TypeBlock {
		start, ok1 := firstOffset(n)
		stop, ok2 := lastOffset(n)
		if n.Pos() >= 0 {
			start = min(start, n.Pos())
		}
		return start, stop, ok1 && ok2
	}
	if !n.HasChildren() && n.Pos() >= 0 {
		return n.Pos(), n.Pos() + 1, true
	}
	return 0, 0, false
}

// lastOffset is the byte offset where a block's text ends.
func lastOffset(n ast.Node) (int, bool) {
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(n.Lines().Len() - 1).Stop, true
	}
	if t, ok := n.(*ast.Text); ok {
		return t.Segment.Stop, true
	}
	for c := n.LastChild(); c != nil; c = c.PreviousSibling() {
		if off, ok := lastOffset(c); ok {
			return off, true
		}
	}
	return 0, false
}
