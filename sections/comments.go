package sections

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark/ast"
)

// Obsidian comments. Text between "%%" and "%%" is hidden when Obsidian
// shows a note: a user keeps private asides there, and the Excalidraw
// plugin keeps a drawing's compressed JSON (tens of kilobytes of base64).
// A comment that spans whole lines, from a line starting with "%%" to the
// line whose "%%" closes it and ends it, is a block of its own (Comment):
// a heading inside it opens no section, a #tag inside it tags nothing, and
// the chunker leaves it out of every passage. "%%" in code does not count;
// a comment never closed is not one, nor is "%%" inside a line (kept as
// text: it hides no structure).

// findComments returns the block-level comments of the parsed text, in
// order, as file offsets of a first line's start and a last line's end
// (its newline excluded). Every "%%" outside code opens or closes one, as in Obsidian, so
// code (blocks at any depth of root, and code spans) is skipped.
func (w *walker) findComments(root ast.Node) [][2]int {
	buf := w.buf
	if bytes.Index(buf[w.base:], []byte("%%")) < 0 {
		return nil
	}
	code := w.codeRanges(root)
	var out [][2]int
	pos := w.base
	for {
		at := w.nextDelim(pos, code)
		if at < 0 {
			return out
		}
		closer := w.nextDelim(at+2, code)
		if closer < 0 {
			if ls := w.lines.start(at); ls >= w.base && isIndent(w.buf[ls:at]) {
				w.unclosedComment = w.lines.line(at)
			}
			return out // never closed: not a comment
		}
		ls := w.lines.start(at)
		le := lineEnd(buf, closer+2)
		if ls >= w.base && isIndent(buf[ls:at]) && isBlank(buf[closer+2:le]) {
			out = append(out, [2]int{ls, le})
		}
		pos = closer + 2
	}
}

// nextDelim is the offset of the next "%%" at or after pos outside code,
// or -1.
func (w *walker) nextDelim(pos int, code [][2]int) int {
	for pos < len(w.buf) {
		i := bytes.Index(w.buf[pos:], []byte("%%"))
		if i < 0 {
			return -1
		}
		at := pos + i
		if end := inRange(code, at); end > 0 {
			pos = end
			continue
		}
		if end := codeSpanEnd(w.buf, w.lines.start(at), at); end > 0 {
			pos = end
			continue
		}
		return at
	}
	return -1
}

// codeRanges are the code blocks of root at any depth (a fence in a list
// item too), as file offsets, in order.
func (w *walker) codeRanges(root ast.Node) [][2]int {
	var out [][2]int
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if l := n.Lines(); l.Len() > 0 {
				out = append(out, [2]int{w.base + l.At(0).Start, w.base + l.At(l.Len()-1).Stop})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// inRange returns the end of the range of rs (in order, apart) holding
// pos, or 0: code, or a comment.
func inRange(rs [][2]int, pos int) int {
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] > pos })
	if i < len(rs) && rs[i][0] <= pos {
		return rs[i][1]
	}
	return 0
}

// codeSpanEnd returns the end of the code span on the line starting at ls
// that holds offset at ("`%%`"), or 0. Spans are read within the line,
// as most are: a run of backticks opens one, the next run of as many
// closes it.
func codeSpanEnd(buf []byte, ls, at int) int {
	for i := ls; i < at; {
		if buf[i] != '`' {
			if buf[i] == '\n' {
				return 0
			}
			i++
			continue
		}
		n := 0
		for i+n < len(buf) && buf[i+n] == '`' {
			n++
		}
		j := closingRun(buf, i+n, n)
		if j < 0 {
			return 0 // an unclosed run is text
		}
		if at < j {
			return j + n
		}
		i = j + n
	}
	return 0
}

// closingRun is the offset of the next run of exactly n backticks from
// pos on the same line, or -1.
func closingRun(buf []byte, pos, n int) int {
	for i := pos; i < len(buf) && buf[i] != '\n'; {
		if buf[i] != '`' {
			i++
			continue
		}
		m := 0
		for i+m < len(buf) && buf[i+m] == '`' {
			m++
		}
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// isIndent reports whether b is at most three spaces: what may come before
// a block's first character on its line.
func isIndent(b []byte) bool {
	return len(b) <= 3 && len(bytes.Trim(b, " ")) == 0
}

// lineEnd is the offset of the newline ending the line holding pos, or
// the end of buf.
func lineEnd(buf []byte, pos int) int {
	if i := bytes.IndexByte(buf[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(buf)
}

// hideComments replaces the marks inside each comment with one Comment
// mark, and starts the block that goes on after it, if any, where it ends.
func (w *walker) hideComments(cs [][2]int) {
	if len(cs) == 0 {
		return
	}
	out := w.marks[:0:0]
	i := 0
	for _, c := range cs {
		kind := Other // what a line after the comment continues
		for ; i < len(w.marks) && w.marks[i].start < c[0]; i++ {
			out = append(out, w.marks[i])
			kind = w.marks[i].kind
		}
		out = append(out, mark{start: c[0], kind: Comment})
		for ; i < len(w.marks) && w.marks[i].start <= c[1]; i++ {
			kind = w.marks[i].kind
			if w.marks[i].heading != nil {
				kind = Other
			}
		}
		if after := c[1] + 1; after < len(w.buf) && (i == len(w.marks) || w.marks[i].start > after) {
			out = append(out, mark{start: after, kind: kind})
		}
	}
	w.marks = append(out, w.marks[i:]...)
}

// Comments returns the byte ranges of the note's block-level comments, in
// order.
func (d *Document) Comments() [][2]int {
	var out [][2]int
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			if b.Kind == Comment {
				out = append(out, [2]int{b.StartByte, b.EndByte})
			}
		}
	}
	return out
}
