package sections

import "bytes"

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
// just past "-->", as file offsets in order.
func (w *walker) htmlComments(code, obsidian [][2]int) [][2]int {
	var out [][2]int
	buf := w.buf
	for pos := w.base; ; {
		i := bytes.Index(buf[pos:], htmlOpen)
		if i < 0 {
			return out
		}
		at := pos + i
		if end := max(inRange(code, at), inRange(obsidian, at)); end > 0 {
			pos = end
			continue
		}
		ls := w.lines.start(at)
		if end := codeSpanEnd(buf, ls, at); end > 0 {
			pos = end
			continue
		}
		end := htmlCommentEnd(buf, at, ls >= w.base && isIndent(buf[ls:at]))
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
func htmlCommentEnd(buf []byte, at int, block bool) int {
	body := at + len(htmlOpen)
	switch {
	case bytes.HasPrefix(buf[body:], []byte(">")):
		return body + 1
	case bytes.HasPrefix(buf[body:], []byte("->")):
		return body + 2
	}
	stop := len(buf)
	if !block {
		stop = nextBlankLine(buf, body)
	}
	j := bytes.Index(buf[body:stop], htmlClose)
	if j < 0 {
		return -1
	}
	return body + j + len(htmlClose)
}

// nextBlankLine is the offset of the first blank line after the line
// holding pos, or the end of buf.
func nextBlankLine(buf []byte, pos int) int {
	for i := lineEnd(buf, pos); i < len(buf); {
		next := lineEnd(buf, i+1)
		if isBlank(buf[i+1 : next]) {
			return i + 1
		}
		i = next
	}
	return len(buf)
}

// meetsAny reports whether [start, end) meets one of rs (in order, apart).
func meetsAny(rs [][2]int, start, end int) bool {
	for _, r := range rs {
		if r[0] < end && r[1] > start {
			return true
		}
	}
	return false
}
