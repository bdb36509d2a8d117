package sections

import "bytes"

// Obsidian comments. Text between "%%" and "%%" is hidden when Obsidian
// shows a note: a user keeps private asides there, and the Excalidraw
// plugin keeps a drawing's compressed JSON (tens of kilobytes of base64).
// A comment that spans whole lines, from a line starting with "%%" to the
// line whose "%%" closes it and ends it, is a block of its own (Comment):
// a heading inside it opens no section, a #tag inside it tags nothing, and
// the chunker leaves it out of every passage. "%%" in code does not count;
// a comment never closed is not one, nor is "%%" inside a line (kept as
// text: it hides no structure).

// comment is a block-level comment: file offsets of its first line's start
// and of its last line's end (the newline excluded).
type comment struct{ start, end int }

// findComments returns the block-level comments of the parsed text, in
// order, given the walker's marks (for the code blocks to skip).
func (w *walker) findComments() []comment {
	buf := w.buf
	if bytes.Index(buf[w.base:], []byte("%%")) < 0 {
		return nil
	}
	code := w.codeRanges()
	var out []comment
	pos := w.base
	for {
		at := w.nextDelim(pos, code)
		if at < 0 {
			return out
		}
		closer := w.nextDelim(at+2, code)
		if closer < 0 {
			return out // never closed: not a comment
		}
		ls := w.lines.start(at)
		le := lineEnd(buf, closer+2)
		if ls >= w.base && isIndent(buf[ls:at]) && isBlank(buf[closer+2:le]) {
			out = append(out, comment{ls, le})
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
		return at
	}
	return -1
}

// codeRanges are the code blocks among the marks, as file offsets.
func (w *walker) codeRanges() [][2]int {
	var out [][2]int
	for i, m := range w.marks {
		if m.kind != Code || m.heading != nil {
			continue
		}
		end := len(w.buf)
		if i+1 < len(w.marks) {
			end = w.marks[i+1].start
		}
		out = append(out, [2]int{m.start, end})
	}
	return out
}

// inRange returns the end of the range of rs (in order, apart) holding
// pos, or 0.
func inRange(rs [][2]int, pos int) int {
	for _, r := range rs {
		if r[0] > pos {
			break
		}
		if pos < r[1] {
			return r[1]
		}
	}
	return 0
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
func (w *walker) hideComments(cs []comment) {
	if len(cs) == 0 {
		return
	}
	out := w.marks[:0:0]
	i := 0
	for _, c := range cs {
		kind := Other // what a line after the comment continues
		for ; i < len(w.marks) && w.marks[i].start < c.start; i++ {
			out = append(out, w.marks[i])
			kind = w.marks[i].kind
		}
		out = append(out, mark{start: c.start, kind: Comment})
		for ; i < len(w.marks) && w.marks[i].start <= c.end; i++ {
			kind = w.marks[i].kind
			if w.marks[i].heading != nil {
				kind = Other
			}
		}
		if after := c.end + 1; after < len(w.buf) && (i == len(w.marks) || w.marks[i].start > after) {
			out = append(out, mark{start: after, kind: kind})
		}
	}
	w.marks = append(out, w.marks[i:]...)
}

// inComment reports whether file offset pos lies in one of cs.
func inComment(cs []comment, pos int) bool {
	for _, c := range cs {
		if c.start > pos {
			return false
		}
		if pos < c.end {
			return true
		}
	}
	return false
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
