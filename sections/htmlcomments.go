package sections

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// HTML comments. "<!-- … -->" is never shown where a note is rendered
// (Obsidian's reading view, a docs site, a forge): authors leave notes to
// each other and to their tools there ("<!-- ignore -->" after a link a
// docs build must not check, "<!-- Old headings. Do not remove or links
// may break. -->"), and such words matched queries as if the note said
// them. An HTML comment is hidden as an inline Obsidian comment is
// (InlineComments), whole lines too: left out of the text passages hold
// (its line breaks kept), of word counts and tags. Unlike a "%%" comment
// of whole lines it is no Comment block, and passages run across it
// whatever its size (chunks cuts at a "%%" block over chunks.BigComment
// lines, where drafts and drawings are kept): it sits among a section's
// text (a line before a heading, a build note between two paragraphs).
// CommonMark bounds a comment by the leaf block it is in, as goldmark
// parses the note: one inside a paragraph, a list item's text, a heading
// or a table cell is inline raw HTML and must close within that block
// (over its lazy lines too), or it is text, as "- a <!-- x" is when the
// next item holds the "-->"; one in an HTML block must close within it,
// so one opening a line closes at the next "-->", blank lines and all,
// unless a list item or quote it opens in ends first. Elsewhere (a
// fence's info string, a link definition, an admonition's title) it must
// close on its line. "<!--" in code, or in an Obsidian comment, opens
// none, and one never closed is text.

var (
	htmlOpen  = []byte("<!--")
	htmlClose = []byte("-->")
)

// htmlComments returns the HTML comments of root's text outside code
// and the Obsidian comments obsidian (in order, apart), from "<!--" to
// just past "-->", as file offsets in order. The offsets it asks about
// only grow, so each far lookup (the next "-->", a line's code spans) is
// kept for the next: a note of many "<!--" costs linear time.
func (w *walker) htmlComments(root ast.Node, code, obsidian [][2]int) [][2]int {
	var out [][2]int
	buf := w.buf
	leaves := w.leafRanges(root)
	closes := nextFinder{buf: buf, sep: htmlClose}
	for pos := w.base; ; {
		i := bytes.Index(buf[pos:], htmlOpen)
		if i < 0 {
			return out
		}
		at := pos + i
		if end := max(inRange(code, at), inRange(obsidian, at), w.codeSpanAt(at)); end > 0 {
			pos = end
			continue
		}
		end := htmlCommentEnd(buf, at, w.commentBound(leaves, at), &closes)
		if end < 0 || meetsAny(obsidian, at, end) {
			pos = at + len(htmlOpen)
			continue
		}
		out = append(out, [2]int{at, end})
		pos = end
	}
}

// htmlCommentEnd is the offset just past the "-->" that closes the
// comment opened at at, or -1 when none does by bound. "<!-->" and
// "<!--->" are whole comments, as CommonMark reads them.
func htmlCommentEnd(buf []byte, at, bound int, closes *nextFinder) int {
	body := at + len(htmlOpen)
	switch {
	case bytes.HasPrefix(buf[body:], []byte(">")):
		return body + 1
	case bytes.HasPrefix(buf[body:], []byte("->")):
		return body + 2
	}
	c := closes.at(body)
	if c < 0 || c+len(htmlClose) > bound {
		return -1
	}
	return c + len(htmlClose)
}

// commentBound is the offset a comment opened at at must close by: the
// end of the leaf block holding it (leafRanges), else of its line.
func (w *walker) commentBound(leaves [][2]int, at int) int {
	if end := inRange(leaves, at); end > 0 {
		return end
	}
	if l := w.lines.line(at); l < len(w.lines) {
		return w.lines[l]
	}
	return len(w.buf)
}

// leafRanges are the leaf blocks of root at any depth that may hold an
// HTML comment: paragraphs (a tight list item's text too), headings,
// table cells and HTML blocks, each from its first line's text to its
// last line's end, so over the quote markers and indents between, as
// file offsets in order.
func (w *walker) leafRanges(root ast.Node) [][2]int {
	var out [][2]int
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Paragraph, *plainParagraph, *ast.TextBlock, *ast.Heading, *east.TableCell:
			if l := n.Lines(); l.Len() > 0 {
				out = append(out, [2]int{w.base + l.At(0).Start, w.base + l.At(l.Len()-1).Stop})
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			if l := n.Lines(); l.Len() > 0 {
				stop := l.At(l.Len() - 1).Stop
				if n.HasClosure() {
					stop = n.ClosureLine.Stop
				}
				out = append(out, [2]int{w.base + l.At(0).Start, w.base + stop})
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// nextFinder finds the next sep at or after an offset, keeping the last
// answer for offsets asked in order.
type nextFinder struct {
	buf         []byte
	sep         []byte
	from, found int // found: sep's offset searching from from; -1 none
	searched    bool
}

// at is the offset of the first sep at or after pos, or -1.
func (f *nextFinder) at(pos int) int {
	if f.searched && f.from <= pos && (f.found < 0 || f.found >= pos) {
		return f.found
	}
	f.from, f.searched = pos, true
	f.found = bytes.Index(f.buf[pos:], f.sep)
	if f.found >= 0 {
		f.found += pos
	}
	return f.found
}

// meetsAny reports whether [start, end) meets one of rs (in order, apart).
func meetsAny(rs [][2]int, start, end int) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] > start })
	return i < len(rs) && rs[i][0] < end
}

// noObsidianComment reports whether the ranges left out (leftOut) that
// meet [start, end) are all HTML comments and attribute lines: a block
// they alone blank is blank lines, as it shows, not a Comment.
func (d *Document) noObsidianComment(start, end int) bool {
	cs := d.leftOut
	for i := sort.Search(len(cs), func(i int) bool { return cs[i][1] > start }); i < len(cs) && cs[i][0] < end; i++ {
		if bytes.HasPrefix(d.Src[cs[i][0]:], []byte("%%")) {
			return false
		}
	}
	return true
}
