package sections

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Obsidian comments. Text between "%%" and "%%" is hidden when Obsidian
// shows a note: a user keeps private asides there, and the Excalidraw
// plugin keeps a drawing's compressed JSON (tens of kilobytes of base64).
// A comment that spans whole lines, from a line starting with "%%" to the
// line whose "%%" closes it and ends it, is a block of its own (Comment):
// a heading inside it opens no section, a #tag inside it tags nothing, and
// it is left out of passage text (LeftOut). Any other comment is inline
// (InlineComments): within a line, or opening or closing mid-line. It is
// hidden too: left out of the text passages hold (PassageText) and of
// word counts, heading texts and tags, and a heading or block that starts
// inside it is text of the block it opened in. "%%" in code does not
// count; a comment never closed is not one.

// findComments returns the comments of the parsed text, as file offsets
// in order: the Obsidian comments of whole lines, from a first line's
// start to a last line's end (its newline excluded); the inline ones, from
// their opening "%%" to just past their closing one, with the HTML
// comments (htmlcomments.go), each from its "<!--". Every "%%"
// outside code opens or closes one, as in Obsidian, so code (blocks at
// any depth of root, and code spans) is skipped.
func (w *walker) findComments(root ast.Node) (lines, inline [][2]int) {
	body := w.buf[w.base:]
	hasObsidian, hasHTML := bytes.Contains(body, []byte("%%")), bytes.Contains(body, htmlOpen)
	if !hasObsidian && !hasHTML {
		return nil, nil
	}
	code := w.codeRanges(root)
	if hasObsidian {
		lines, inline = w.obsidianComments(code)
	}
	if hasHTML {
		html := w.htmlComments(root, code, MergeRanges(slices.Clone(lines), inline))
		inline = MergeRanges(slices.Clone(inline), html)
	}
	return lines, inline
}

// obsidianComments returns the "%%" comments outside code, split as
// findComments splits them.
func (w *walker) obsidianComments(code [][2]int) (lines, inline [][2]int) {
	buf := w.buf
	pos := w.base
	for {
		at := w.nextDelim(pos, code)
		if at < 0 {
			return lines, inline
		}
		closer := w.nextDelim(at+2, code)
		if closer < 0 {
			if ls := w.lines.start(at); ls >= w.base && isIndent(w.buf[ls:at]) {
				w.unclosedComment = w.lines.line(at)
			}
			return lines, inline // never closed: not a comment
		}
		ls := w.lines.start(at)
		le := lineEnd(buf, closer+2)
		if ls >= w.base && isIndent(buf[ls:at]) && isBlank(buf[closer+2:le]) {
			lines = append(lines, [2]int{ls, le})
		} else {
			inline = append(inline, [2]int{at, closer + 2})
		}
		pos = closer + 2
	}
}

// hidden reports whether file offset pos is inside a comment.
func (w *walker) hidden(pos int) bool {
	return inRange(w.comments, pos) > 0 || inRange(w.inline, pos) > 0
}

// hideInline drops the marks of blocks (headings too) that start on a
// line an inline comment hides, after the line it opens on up to its
// closing "%%": what shows of them is text of the block the comment
// opened in.
func (w *walker) hideInline() {
	if len(w.inline) == 0 {
		return
	}
	out := w.marks[:0]
	for _, m := range w.marks {
		i := sort.Search(len(w.inline), func(i int) bool { return w.inline[i][1] > m.start })
		if i < len(w.inline) && w.lines.start(w.inline[i][0]) < m.start {
			continue
		}
		out = append(out, m)
	}
	w.marks = out
}

// visible is buf[start:stop] without the bytes of the ranges hidden (in
// order, apart); buf's own bytes when none meets it.
func visible(buf []byte, start, stop int, hidden [][2]int) []byte {
	return shownText(buf, start, stop, hidden, false)
}

// shownText is visible, with the line breaks of the hidden ranges kept
// when breaks is set, as PassageText keeps them: the words either side of
// a comment over a line break ("a%%\n%%b") are two there.
func shownText(buf []byte, start, stop int, hidden [][2]int, breaks bool) []byte {
	i := sort.Search(len(hidden), func(i int) bool { return hidden[i][1] > start })
	if i == len(hidden) || hidden[i][0] >= stop {
		return buf[start:stop]
	}
	var out []byte
	for ; i < len(hidden) && hidden[i][0] < stop; i++ {
		if hidden[i][0] > start {
			out = append(out, buf[start:hidden[i][0]]...)
		}
		if breaks {
			for _, c := range buf[max(start, hidden[i][0]):min(stop, hidden[i][1])] {
				if c == '\n' {
					out = append(out, c)
				}
			}
		}
		start = max(start, hidden[i][1])
	}
	if start < stop {
		out = append(out, buf[start:stop]...)
	}
	return out
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
		if end := w.codeSpanAt(at); end > 0 {
			pos = end
			continue
		}
		return at
	}
	return -1
}

// codeRanges are the code blocks of root at any depth (a fence in a list
// item too) and its code spans, one over two lines too ("`printf\n"%%d"`"),
// as file offsets, in order.
func (w *walker) codeRanges(root ast.Node) [][2]int {
	var out [][2]int
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if l := n.Lines(); l.Len() > 0 {
				out = append(out, [2]int{w.base + l.At(0).Start, w.base + l.At(l.Len()-1).Stop})
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			first, last := n.FirstChild(), n.LastChild()
			a, okA := first.(*ast.Text)
			b, okB := last.(*ast.Text)
			if okA && okB && b.Segment.Stop > a.Segment.Start {
				out = append(out, [2]int{w.base + a.Segment.Start, w.base + b.Segment.Stop})
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

// codeSpanAt returns the end of the code span holding offset at ("`%%`"),
// or 0. Spans are read within the line, as most are: a run of backticks
// opens one, the next run of as many closes it. A line's spans are found
// once (offsets are asked in order), so a line of many delimiters costs
// linear time.
func (w *walker) codeSpanAt(at int) int {
	if l := w.lines.line(at); l != w.spanLine {
		w.spanLine, w.spans = l, lineCodeSpans(w.buf, w.lines.start(at), w.spans[:0])
	}
	return inRange(w.spans, at)
}

// lineCodeSpans appends to out the code spans of the line starting at ls,
// each from its opening run to past its closing one, up to the first run
// that nothing closes (an unclosed run is text, and so is the rest of
// the line).
func lineCodeSpans(buf []byte, ls int, out [][2]int) [][2]int {
	for i := ls; i < len(buf) && buf[i] != '\n'; {
		if buf[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(buf) && buf[i+n] == '`' {
			n++
		}
		j := closingRun(buf, i+n, n)
		if j < 0 {
			return out
		}
		out = append(out, [2]int{i, j + n})
		i = j + n
	}
	return out
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

// Comments returns the byte ranges of the note's Comment blocks (comments
// of whole lines, and blocks of nothing but inline comments), in order.
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

// InlineComments returns the byte ranges of the note's inline comments,
// each from its opening "%%" to just past its closing one, and of its HTML
// comments (htmlcomments.go), "<!--" to "-->", in order.
func (d *Document) InlineComments() [][2]int { return d.inlineComments }

// PassageText is Text(start, end) as a passage holds it: without what
// LeftOut names, but for its line breaks, so that its lines are still the
// note's.
func (d *Document) PassageText(start, end int) string {
	return d.textWithout(start, end, d.leftOut)
}

// LeftOut is what no passage's text, word count or embed text holds, in
// order: the comments, of whole lines (Comments) and inline
// (InlineComments), kramdown's attribute
// lines under headings ("{: .no_toc}", headingattrs.go), which no page
// shows either, and blocks of HTML anchors alone ('<a id="old"></a>',
// htmlanchors.go). A read shows the lines; its comments are another
// matter (WithoutComments).
func (d *Document) LeftOut() [][2]int { return d.leftOut }

// WithoutComments is a copy of d whose Text (so Content and OwnContent)
// leaves every comment out, whole lines and inline, but for its line
// breaks, so that lines are still the note's: what a note shows, without
// the private asides (and an Excalidraw drawing's data) Obsidian hides.
// The copy shares d's slices; neither changes them.
func (d *Document) WithoutComments() *Document {
	c := *d
	c.hidden = MergeRanges(d.Comments(), d.inlineComments)
	if c.hidden == nil {
		c.hidden = [][2]int{}
	}
	return &c
}

// HidesComments reports whether d is a copy made by WithoutComments.
func (d *Document) HidesComments() bool { return d.hidden != nil }

// CommentsIn counts the comments, whole lines and inline, that meet the
// byte range [start, end): each inline one, and each Comment block that
// holds none (a block of inline comments alone is those comments).
func (d *Document) CommentsIn(start, end int) int {
	n := 0
	meets := func(c [2]int) bool { return c[0] < end && c[1] > start }
	for _, c := range d.inlineComments {
		if meets(c) {
			n++
		}
	}
	for _, c := range d.Comments() {
		if meets(c) && !slices.ContainsFunc(d.inlineComments, func(i [2]int) bool { return i[0] >= c[0] && i[1] <= c[1] }) {
			n++
		}
	}
	return n
}

// shownLen is the length of Text(start, end) but for invalid UTF-8: the
// range's bytes less those of hidden ranges other than line breaks and
// the block quote markers and indents textWithout keeps.
func (d *Document) shownLen(start, end int) int {
	n, src := end-start, d.Shown() // a lone CR is a line break
	first := sort.Search(len(d.hidden), func(i int) bool { return d.hidden[i][1] > start })
	for _, h := range d.hidden[first:] {
		if h[0] >= end {
			break
		}
		depth := quoteDepth(src[lineStart(src, h[0]):h[0]])
		stop := min(end, h[1])
		for j := max(start, h[0]); j < stop; j++ {
			switch src[j] {
			case '\n':
				j += keptPrefix(src[j+1:stop], depth) // kept, as textWithout keeps them
			case '\r':
			default:
				n--
			}
		}
	}
	return n
}

// MergeRanges is the ranges of a and b (each in order) in order, those
// that overlap made one: byte ranges a text leaves out. It reuses a's
// array.
func MergeRanges(a, b [][2]int) [][2]int {
	if len(b) == 0 {
		return a
	}
	a = append(a, b...)
	slices.SortFunc(a, func(x, y [2]int) int { return x[0] - y[0] })
	out := a[:1]
	for _, r := range a[1:] {
		if last := &out[len(out)-1]; r[0] < last[1] {
			last[1] = max(last[1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// textWithout is Text(start, end) without the bytes of the ranges cs (in
// order, apart) but for their line breaks.
func (d *Document) textWithout(start, end int, cs [][2]int) string {
	i := sort.Search(len(cs), func(i int) bool { return cs[i][1] > start })
	if i == len(cs) || cs[i][0] >= end {
		return d.rawText(start, end)
	}
	src := d.Shown()
	end = min(end, len(src))
	var b strings.Builder
	b.Grow(end - start)
	for ; i < len(cs) && cs[i][0] < end; i++ {
		if a := cs[i][0]; a > start {
			b.WriteString(d.rawText(start, a))
		}
		depth := quoteDepth(src[lineStart(src, cs[i][0]):cs[i][0]])
		stop := min(end, cs[i][1])
		for j := max(start, cs[i][0]); j < stop; j++ {
			if src[j] == '\n' {
				if j > 0 && src[j-1] == '\r' {
					b.WriteByte('\r')
				}
				b.WriteByte('\n')
				// A comment over lines of a block quote or list item
				// keeps their markers and indent, so the quote or item
				// still reads as one.
				if k := keptPrefix(src[j+1:stop], depth); k > 0 {
					b.Write(src[j+1 : j+1+k])
					j += k
				}
			}
		}
		start = max(start, cs[i][1])
	}
	if start < end {
		b.WriteString(d.rawText(start, end))
	}
	return b.String()
}

// lineStart is the offset where the line holding pos starts.
func lineStart(src []byte, pos int) int { return bytes.LastIndexByte(src[:pos], '\n') + 1 }

// quoteDepth is how many block quote markers ("> ") open line, the text
// of a line up to some point, list markers between them passed over
// ("- > q" is in a quote).
func quoteDepth(line []byte) int {
	n := 0
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '>':
			n++
			i++
		case listMarker(line[i:]) > 0: // depth.go's
			i += listMarker(line[i:])
		default:
			return n
		}
	}
	return n
}

// keptPrefix is the length of what a line inside a comment keeps: its
// indent and up to depth block quote markers, the comment's line's.
func keptPrefix(line []byte, depth int) int {
	k := 0
	for k < len(line) {
		switch {
		case line[k] == ' ' || line[k] == '\t':
		case line[k] == '>' && depth > 0:
			depth--
		default:
			return k
		}
		k++
	}
	return k
}
