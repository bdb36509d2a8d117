package sections

import (
	"bytes"
	"sort"
)

// HTML comments. "<!-- … -->" is never shown where a note is rendered
// (Obsidian's reading view, a docs site, a forge): authors leave notes to
// each other and to their tools there ("<!-- ignore -->" after a link a
// docs build must not check, "<!-- Old headings. Do not remove or links
// may break. -->"), and such words matched queries as if the note said
// them. An HTML comment is hidden as an inline Obsidian comment is
// (InlineComments), whole lines too: left out of the text passages hold
// (its line breaks kept), of word counts and tags. Unlike a "%%" comment
// of whole lines it is no Comment block, and passages run across it: it
// sits among a section's text (a line before a heading, a build note
// between two paragraphs), where "%%" blocks hold asides and drawings.
// One opening a line (an HTML block, in CommonMark) closes at the next
// "-->", blank lines and all; one inside a line must close before the
// next blank line, as an inline comment of CommonMark must close within
// its paragraph. "<!--" in code, or in an Obsidian comment, opens none,
// and one never closed is text.

var (
	htmlOpen  = []byte("<!--")
	htmlClose = []byte("-->")
)

// htmlComments returns the HTML comments of the parsed text outside code
// and the Obsidian comments obsidian (in order, apart), from "<!--" to
// just past "-->", as file offsets in order. The offsets it asks about
// only grow, so each far lookup (the next "-->", the next blank line, a
// line's code spans) is kept for the next: a note of many "<!--" costs
// linear time.
func (w *walker) htmlComments(code, obsidian [][2]int) [][2]int {
	var out [][2]int
	buf := w.buf
	closes := nextFinder{buf: buf, sep: htmlClose}
	blanks := blankFinder{lines: w.lines, buf: buf}
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
		ls := w.lines.start(at)
		end := htmlCommentEnd(buf, at, ls >= w.base && isIndent(buf[ls:at]), &closes, &blanks)
		if end < 0 || meetsAny(obsidian, at, end) {
			pos = at + len(htmlOpen)
			continue
		}
		out = append(out, [2]int{at, end})
		pos = end
	}
}

// htmlCommentEnd is the offset just past the "-->" that closes the
// comment opened at at, or -1: for one opening a line (block) the next
// anywhere, else the next before a blank line. "<!-->" and "<!--->" are
// whole comments, as CommonMark reads them.
func htmlCommentEnd(buf []byte, at int, block bool, closes *nextFinder, blanks *blankFinder) int {
	body := at + len(htmlOpen)
	switch {
	case bytes.HasPrefix(buf[body:], []byte(">")):
		return body + 1
	case bytes.HasPrefix(buf[body:], []byte("->")):
		return body + 2
	}
	c := closes.at(body)
	if c < 0 || !block && c >= blanks.after(body) {
		return -1
	}
	return c + len(htmlClose)
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

// blankFinder finds the first blank line after an offset's line, keeping
// the last answer for offsets asked in order.
type blankFinder struct {
	lines      lineIndex
	buf        []byte
	line, next int // the blank line found after line (1-based numbers); 0 none asked
}

// after is the offset of the first blank line after the line holding
// pos, or the end of buf.
func (f *blankFinder) after(pos int) int {
	l := f.lines.line(pos)
	if f.line == 0 || l < f.line || l >= f.next {
		f.line, f.next = l, len(f.lines)+1
		for k := l + 1; k <= len(f.lines); k++ {
			if isBlank(f.buf[f.lines[k-1]:lineEnd(f.buf, f.lines[k-1])]) {
				f.next = k
				break
			}
		}
	}
	if f.next > len(f.lines) {
		return len(f.buf)
	}
	return f.lines[f.next-1]
}

// meetsAny reports whether [start, end) meets one of rs (in order, apart).
func meetsAny(rs [][2]int, start, end int) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] > start })
	return i < len(rs) && rs[i][0] < end
}

// htmlAlone reports whether the inline comments that meet [start, end)
// are all HTML comments: a block they alone blank is blank lines, as it
// shows, not a Comment.
func (d *Document) htmlAlone(start, end int) bool {
	cs := d.inlineComments
	for i := sort.Search(len(cs), func(i int) bool { return cs[i][1] > start }); i < len(cs) && cs[i][0] < end; i++ {
		if !bytes.HasPrefix(d.Src[cs[i][0]:], htmlOpen) {
			return false
		}
	}
	return true
}
