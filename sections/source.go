package sections

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

var bom = []byte("\xef\xbb\xbf")

// LineIndex maps byte offsets of a text to 1-based line numbers, as
// sections numbers the lines of a note.
type LineIndex struct{ l lineIndex }

// NewLineIndex indexes the lines of src.
func NewLineIndex(src []byte) LineIndex { return LineIndex{newLineIndex(src)} }

// Line is the 1-based line holding byte offset off.
func (x LineIndex) Line(off int) int { return x.l.line(off) }

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int // offsets where lines start; lineIndex[0] == 0

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return idx
		}
		i += j + 1
		idx = append(idx, i)
	}
}

// line is the 1-based line holding offset off.
func (l lineIndex) line(off int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > off })
}

// start is the offset of the line holding off.
func (l lineIndex) start(off int) int {
	return l[l.line(off)-1]
}

// parseCopy returns the bytes goldmark reads: src itself, or a copy of the
// same length in which lone CRs (old Mac line endings, which goldmark does
// not treat as line breaks) become LFs. Offsets are therefore shared.
func parseCopy(src []byte) (buf []byte, loneCR bool) {
	first := bytes.IndexByte(src, '\r')
	if first < 0 {
		return src, false
	}
	for i, c := range src[first:] {
		i += first
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			loneCR = true
			break
		}
	}
	if !loneCR {
		return src, false
	}
	buf = bytes.Clone(src)
	for i, c := range buf {
		if c == '\r' && (i+1 == len(buf) || buf[i+1] != '\n') {
			buf[i] = '\n'
		}
	}
	return buf, true
}

// utf8Warning describes invalid UTF-8 in src, or returns "".
func utf8Warning(src []byte, lines lineIndex) string {
	if utf8.Valid(src) {
		return ""
	}
	n, first := 0, -1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			if first < 0 {
				first = i
			}
			n++
		}
		i += size
	}
	return fmt.Sprintf("invalid UTF-8: %d bytes, first on line %d, shown as U+FFFD", n, lines.line(first))
}

// LooksBinary reports whether src seems to be a binary file rather than
// text: it has a NUL byte in its first 8 KiB.
func LooksBinary(src []byte) bool {
	return bytes.IndexByte(src[:min(len(src), 8192)], 0) >= 0
}

// Text returns Src[start:end] for display: each byte of invalid UTF-8
// shown as U+FFFD and a lone CR as LF, nothing else changed, but that a
// byte-order mark is no text: a range from the file's start begins past
// it (on the same line 1). Out-of-range bounds are clamped.
func (d *Document) Text(start, end int) string {
	if d.hidden != nil {
		return d.textWithout(start, end, d.hidden)
	}
	return d.rawText(start, end)
}

// rawText is Text with nothing hidden.
func (d *Document) rawText(start, end int) string {
	src := d.Shown()
	if start < len(bom) && bytes.HasPrefix(src, bom) {
		start = len(bom)
	}
	start = max(0, min(start, len(src)))
	end = max(start, min(end, len(src)))
	return display(src[start:end])
}

// Content is the text of section s, subsections included, for display:
// from its heading to the next heading of the same or a higher level, with
// trailing blank lines dropped.
func (d *Document) Content(s *Section) string {
	return d.Text(s.StartByte, d.ShownEnd(s.StartByte, s.EndByte))
}

// ShownEnd is where the text of [start, end) that Text shows ends: past
// its last byte but white space and, in a copy that hides comments
// (WithoutComments), past the last that is in none (an Excalidraw
// drawing's data after its labels would show as hundreds of blank lines).
func (d *Document) ShownEnd(start, end int) int {
	end = trimRight(d.Src, start, end)
	for d.hidden != nil && end > start {
		i := sort.Search(len(d.hidden), func(i int) bool { return d.hidden[i][1] >= end })
		if i == len(d.hidden) || d.hidden[i][0] >= end {
			break
		}
		end = trimRight(d.Src, start, max(start, d.hidden[i][0]))
		end = trimRight(d.Src, start, quoteMarksBefore(d.Src, start, end))
	}
	return end
}

// quoteMarksBefore is where the line holding end starts when all of it
// before end is block quote markers ("> >"): what a comment opened on a
// quote's line leaves of it, no text; else end.
func quoteMarksBefore(src []byte, start, end int) int {
	at := end
	for at > start && src[at-1] != '\n' && src[at-1] != '\r' {
		if c := src[at-1]; c != '>' && c != ' ' && c != '\t' {
			return end
		}
		at--
	}
	return at
}

// OwnContent is the text of section s without its subsections: from its
// heading to the next heading of any level, trailing blank lines dropped.
func (d *Document) OwnContent(s *Section) string {
	return d.Text(s.StartByte, d.ShownEnd(s.StartByte, s.BodyEnd))
}

// display is b as a string with each byte of invalid UTF-8 shown as U+FFFD.
func display(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b) + 16)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			s.WriteString("\uFFFD")
		} else {
			s.Write(b[:size])
		}
		b = b[size:]
	}
	return s.String()
}

// Frontmatter splits src the way Parse reads it: an optional byte-order
// mark, then YAML frontmatter from a first line "---" to a line "---" or
// "...", or TOML frontmatter (Hugo's) from a first line "+++" to a line
// "+++" (trailing blanks allowed on all). text is the YAML or TOML, ok
// false when there is none; body is the offset where the markdown starts,
// past the byte-order mark and the frontmatter.
func Frontmatter(src []byte) (text []byte, body int, ok bool) {
	off := 0
	if bytes.HasPrefix(src, bom) {
		off = len(bom)
	}
	fs, fe, after, _, ok := splitFrontmatter(src, off)
	if !ok {
		return nil, off, false
	}
	return src[fs:fe], after, true
}

// frontmatterOpens reports whether a note's first line opens frontmatter,
// and whether it is TOML.
func frontmatterOpens(first []byte) (opens, toml bool) {
	switch string(first) {
	case "---":
		return true, false
	case "+++":
		return true, true
	}
	return false, false
}

// splitFrontmatter finds frontmatter at off: a first line "---" and a
// closing line "---" or "..." (YAML), or "+++" and "+++" (TOML). It
// returns the text's range and the offset just past the closing line, or
// ok=false.
func splitFrontmatter(src []byte, off int) (start, end, after int, toml, ok bool) {
	first, next := lineAt(src, off)
	opens, toml := frontmatterOpens(first)
	if !opens {
		return 0, 0, 0, false, false
	}
	for pos := next; pos < len(src); {
		line, n := lineAt(src, pos)
		if s := string(line); s == string(first) || s == "..." && !toml {
			// A "---" and a blank line open a note with a rule, as
			// often as metadata: what runs to the next rule is
			// frontmatter only if it reads as fields (# Intro, text).
			if !toml && blankAfterOpen(src, next) && !yamlFields(src[next:pos]) {
				return 0, 0, 0, false, false
			}
			return next, pos, n, toml, true
		}
		pos = n
	}
	return 0, 0, 0, false, false
}

// blankAfterOpen reports whether the line at next, after a note's first
// line, is blank.
func blankAfterOpen(src []byte, next int) bool {
	if next >= len(src) {
		return false
	}
	line, _ := lineAt(src, next)
	return len(bytes.TrimSpace(line)) == 0
}

// lineAt returns the line starting at off without its line ending and
// trailing blanks, and the offset of the next line.
func lineAt(src []byte, off int) ([]byte, int) {
	end := bytes.IndexByte(src[off:], '\n')
	next := len(src)
	if end < 0 {
		end = len(src)
	} else {
		end += off
		next = end + 1
	}
	return bytes.TrimRight(src[off:end], " \t\r"), next
}
