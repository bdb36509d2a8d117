package eval

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// Text cutting for the baseline chunkers. Every function works on byte
// ranges of the source, so chunks keep exact offsets and lines.

// wordSize measures text in words.
func wordSize(b []byte) int { return wordcount.Count(b) }

// trimSpan narrows [start, end) to exclude white space at both ends.
func trimSpan(src []byte, start, end int) (int, int) {
	for start < end {
		r, n := utf8.DecodeRune(src[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		start += n
	}
	for end > start {
		r, n := utf8.DecodeLastRune(src[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= n
	}
	return start, end
}

// paragraphs splits [from, to) at blank lines.
func paragraphs(src []byte, from, to int) []unit {
	var out []unit
	pstart := -1
	for pos := from; pos < to; {
		eol := bytes.IndexByte(src[pos:to], '\n')
		next := to
		if eol >= 0 {
			next = pos + eol + 1
		}
		blank := len(bytes.TrimSpace(src[pos:next])) == 0
		switch {
		case blank && pstart >= 0:
			out = appendUnit(out, src, pstart, pos)
			pstart = -1
		case !blank && pstart < 0:
			pstart = pos
		}
		pos = next
	}
	if pstart >= 0 {
		out = appendUnit(out, src, pstart, to)
	}
	return out
}

// sentences splits [from, to) after sentence-ending punctuation followed
// by white space, and at line breaks.
func sentences(src []byte, from, to int) []unit {
	var out []unit
	start := from
	for pos := from; pos < to; {
		r, n := utf8.DecodeRune(src[pos:to])
		pos += n
		switch {
		case r == '\n':
			out = appendUnit(out, src, start, pos)
			start = pos
		case r == '.' || r == '!' || r == '?':
			end := pos
			for end < to && bytes.IndexByte([]byte(`"')]*_`), src[end]) >= 0 {
				end++
			}
			if end == to || src[end] == ' ' || src[end] == '\t' || src[end] == '\n' || src[end] == '\r' {
				out = appendUnit(out, src, start, end)
				start, pos = end, end
			}
		}
	}
	return appendUnit(out, src, start, to)
}

// appendUnit adds the trimmed [start, end) unless it is blank.
func appendUnit(out []unit, src []byte, start, end int) []unit {
	start, end = trimSpan(src, start, end)
	if start < end {
		out = append(out, unit{start: start, end: end})
	}
	return out
}

// cutLong measures every unit and cuts those over limit at words into
// pieces of at most limit (a single word over limit stays whole).
func cutLong(src []byte, units []unit, size func([]byte) int, limit int) []unit {
	out := make([]unit, 0, len(units))
	for _, u := range units {
		u.size = size(src[u.start:u.end])
		if u.size <= limit {
			out = append(out, u)
			continue
		}
		out = append(out, cutWords(src, u, size, limit)...)
	}
	return out
}

// cutWords cuts a unit at white space into pieces of at most limit,
// measuring word by word.
func cutWords(src []byte, u unit, size func([]byte) int, limit int) []unit {
	var out []unit
	cur := unit{start: -1}
	for _, w := range words(src, u.start, u.end) {
		w.size = size(src[w.start:w.end])
		if cur.start >= 0 && cur.size+w.size > limit {
			out = append(out, cur)
			cur = unit{start: -1}
		}
		if cur.start < 0 {
			cur.start = w.start
		}
		cur.end = w.end
		cur.size += w.size
	}
	if cur.start >= 0 {
		out = append(out, cur)
	}
	return out
}

// words splits [from, to) at white space.
func words(src []byte, from, to int) []unit {
	var out []unit
	start := -1
	for pos := from; pos < to; {
		r, n := utf8.DecodeRune(src[pos:to])
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, unit{start: start, end: pos})
				start = -1
			}
		} else if start < 0 {
			start = pos
		}
		pos += n
	}
	if start >= 0 {
		out = append(out, unit{start: start, end: to})
	}
	return out
}
