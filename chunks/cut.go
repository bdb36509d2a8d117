package chunks

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/sections"
)

// atom is a range the packer never cuts: a whole block when it fits the
// room, else a sentence, line, row, run of words or, as a last resort, a
// run of characters.
type atom struct {
	start, end int
	tokens     int
}

// level returns the cut points strictly inside [start, end): the offsets
// where the next piece starts.
type level func(src []byte, start, end int) []int

var (
	proseLevels = []level{sentenceCuts, lineCuts}
	lineLevels  = []level{lineCuts}
)

// atoms turns a unit's pieces into atoms of at most room tokens where it
// can. A heading is glued to the atom after it, a link reference
// definition to the atom before it where both fit.
func (s *splitter) atoms(u *unit, room int) []atom {
	out := s.atomBuf[:0] // one unit is packed at a time
	defer func() { s.atomBuf = out[:0] }()
	glue, glueEnd, glueTok := -1, -1, 0
	for _, p := range u.pieces {
		if p.kind == sections.Comment {
			continue // no text of a passage: none starts or ends in one
		}
		if p.kind == heading {
			if glue < 0 {
				glue, glueTok = p.start, 0
			}
			glueEnd, glueTok = p.end, glueTok+p.tokens
			if glueTok > room/2 { // too long to glue: an atom of its own
				s.cut(&out, glue, glueEnd, glueTok, room, proseLevels)
				glue = -1
			}
			continue
		}
		if k := len(out) - 1; p.kind == sections.LinkDef && glue < 0 && k >= 0 && out[k].end <= p.start && out[k].tokens+p.tokens <= room {
			// Its text is the link's target, shown nowhere: it goes with
			// the text before it, never a passage or window of its own.
			out[k].end, out[k].tokens = p.end, out[k].tokens+p.tokens
			continue
		}
		limit := room
		if glue >= 0 {
			limit = max(1, room-glueTok)
		}
		n := len(out)
		s.cutPiece(&out, p, limit)
		if glue >= 0 && len(out) > n {
			out[n].start = glue
			out[n].tokens += glueTok
			glue = -1
		}
	}
	if glue >= 0 {
		s.cut(&out, glue, glueEnd, glueTok, room, proseLevels)
	}
	return out
}

// cutPiece cuts one block by its kind.
func (s *splitter) cutPiece(out *[]atom, p piece, limit int) {
	switch {
	case p.kind == sections.Paragraph && p.block != nil && p.block.HoldsCode && s.passages:
		// A sentence's end inside its code ("/* ... */") would start a
		// passage mid-line; windows, which no one reads, still cut at
		// sentences.
		s.cut(out, p.start, p.end, p.tokens, limit, lineLevels)
	case p.kind == sections.Paragraph:
		s.cut(out, p.start, p.end, p.tokens, limit, proseLevels)
	case p.kind == sections.Table:
		s.cutTable(out, p, limit)
	default:
		s.cut(out, p.start, p.end, p.tokens, limit, lineLevels)
	}
}

// cutTable cuts a table at rows. The first atom holds the header and the
// first row; the other rows leave room for the header, which the embed text
// repeats when a chunk starts among them.
func (s *splitter) cutTable(out *[]atom, p piece, limit int) {
	b := p.block
	if p.tokens <= limit || b == nil || b.HeaderEnd >= p.end {
		s.cut(out, p.start, p.end, p.tokens, limit, lineLevels)
		return
	}
	hdrEnd := trimRight(s.src, b.StartByte, b.HeaderEnd)
	hdr := s.count(b.StartByte, hdrEnd)
	reserve := hdr
	if hdr > limit/2 { // too long to repeat; see tableHeader
		reserve = 0
	}
	if p.start >= b.HeaderEnd {
		// A piece of a passage that starts among the rows: every atom
		// leaves room for the header.
		s.cut(out, p.start, p.end, p.tokens, max(1, limit-reserve), lineLevels)
		return
	}
	var rows []atom
	s.cut(&rows, b.HeaderEnd, p.end, s.count(b.HeaderEnd, p.end), max(1, limit-reserve), lineLevels)
	if len(rows) > 0 && hdr+rows[0].tokens <= limit {
		rows[0].start = p.start
		rows[0].tokens += hdr
	} else {
		s.cut(out, p.start, hdrEnd, hdr, limit, lineLevels)
	}
	*out = append(*out, rows...)
}

// cut appends [start, end) as one atom if it fits limit, else cuts it at
// the first level's points and recurses with the finer levels, ending with
// words and then characters.
func (s *splitter) cut(out *[]atom, start, end, tokens, limit int, levels []level) {
	if tokens <= limit {
		*out = append(*out, atom{start, end, tokens})
		return
	}
	if len(levels) == 0 {
		s.cutWords(out, start, end, limit)
		return
	}
	cuts := levels[0](s.src, start, end)
	if len(s.elided) > 0 {
		// Elided code and comments stick to the line before them.
		cuts = slices.DeleteFunc(cuts, s.elidedAt)
	}
	if len(cuts) == 0 {
		s.cut(out, start, end, tokens, limit, levels[1:])
		return
	}
	cuts = append(cuts, end)
	for _, c := range cuts {
		if e := trimRight(s.src, start, c); e > start {
			s.cut(out, start, e, s.count(start, e), limit, levels[1:])
		}
		start = c
	}
}

// cutWords groups words into atoms of at most limit tokens, less the
// overlap so that the next chunk has room to repeat the end of this one; a
// word over the limit is cut into characters.
func (s *splitter) cutWords(out *[]atom, start, end, limit int) {
	group := max(1, limit-s.overlapTokens())
	gs, ge, gt := -1, -1, 0
	flush := func() {
		if gs >= 0 {
			*out = append(*out, atom{gs, ge, gt})
		}
		gs, gt = -1, 0
	}
	for ws := skipSpace(s.src, start, end); ws < end; {
		we := ws
		for we < end && !isSpace(s.src[we]) {
			we++
		}
		t := s.count(ws, we)
		switch {
		case t > limit:
			flush()
			s.cutRunes(out, ws, we, t, limit)
		case gs >= 0 && gt+t <= group:
			ge, gt = we, gt+t
		default:
			flush()
			gs, ge, gt = ws, we, t
		}
		ws = skipSpace(s.src, we, end)
	}
	flush()
}

// cutRunes cuts a run without white space into pieces of at most limit
// tokens at character boundaries. It guesses a length from the run's
// average and halves it until the count fits, so the work stays linear.
func (s *splitter) cutRunes(out *[]atom, start, end, tokens, limit int) {
	step := max(4, limit*(end-start)/max(1, tokens))
	for pos := start; pos < end; {
		c := pieceStart(s.src, pos, min(end, pos+step))
		t := 0
		for {
			if c <= pos { // one character over the limit: it cannot be cut
				_, size := utf8.DecodeRune(s.src[pos:end])
				c = pos + size
				t = s.count(pos, c)
				break
			}
			if t = s.count(pos, c); t <= limit {
				break
			}
			c = pieceStart(s.src, pos, pos+(c-pos)/2)
		}
		if e, ok := s.elidedPast(c); ok {
			// The model reads nothing of the run from c to e: that goes
			// with this atom, not into one of its own with no text.
			c = min(e, end)
			t = s.count(pos, c)
		}
		*out = append(*out, atom{pos, c, t})
		pos = c
	}
}

// pieceStart moves c back to the start of the character holding it, not
// before lo, and then before the marks written on the character before
// (a Thai vowel, an accent), so no piece starts with one. Characters are
// what decoding yields: a valid UTF-8 sequence, or a single invalid byte
// (shown as U+FFFD).
func pieceStart(src []byte, lo, c int) int {
	if c >= len(src) {
		return c
	}
	c = decodedStart(src, lo, c)
	for c > lo {
		if r, _ := utf8.DecodeRune(src[c:]); !unicode.IsMark(r) {
			break
		}
		c = decodedStart(src, lo, c-1)
	}
	return c
}

// decodedStart moves c back to the start of the character holding it, not
// before lo.
func decodedStart(src []byte, lo, c int) int {
	for j := c; j > lo && j > c-utf8.UTFMax; j-- {
		if utf8.RuneStart(src[j-1]) {
			if _, size := utf8.DecodeRune(src[j-1:]); j-1+size > c {
				return j - 1
			}
			break
		}
	}
	return c
}

// sentenceCuts cuts after '.', '!' or '?' (and closing quotes or
// brackets) followed by white space, after the full stops of Chinese and
// Japanese (。！？, and closing marks), which need no space after them,
// and at blank lines.
func sentenceCuts(src []byte, start, end int) []int {
	var cuts []int
	for i := start; i < end; i++ {
		switch src[i] {
		case 0xE3, 0xEF:
			if k := wideStopEnd(src, i, end); k > i {
				if k = skipSpace(src, k, end); k < end {
					cuts = append(cuts, k)
					i = k - 1
				}
			}
		case '.', '!', '?':
			j := i + 1
			for j < end && (src[j] == ')' || src[j] == '"' || src[j] == '\'' || src[j] == ']' || src[j] == '*' || src[j] == '_') {
				j++
			}
			if j < end && isSpace(src[j]) {
				if k := skipSpace(src, j, end); k < end {
					cuts = append(cuts, k)
					i = k - 1
				}
			}
		case '\n':
			if k := sections.SkipBlankLines(src, i+1, end); k > i+1 && k < end {
				cuts = append(cuts, k)
				i = k - 1
			}
		}
	}
	return cuts
}

// wideStopEnd is the end of a full stop of Chinese or Japanese at i (。,
// ！ or ？, the full-width forms), with the closing quotes and brackets
// after it, or i when none is there.
func wideStopEnd(src []byte, i, end int) int {
	r, size := utf8.DecodeRune(src[i:end])
	if r != '。' && r != '！' && r != '？' {
		return i
	}
	for j := i + size; j < end; j += size {
		if r, size = utf8.DecodeRune(src[j:end]); !strings.ContainsRune("」』）”’】〕》〉", r) {
			return j
		}
	}
	return end
}

// lineCuts cuts at the start of every line.
func lineCuts(src []byte, start, end int) []int {
	var cuts []int
	for i := start; i < end-1; i++ {
		if src[i] == '\n' {
			cuts = append(cuts, i+1)
		}
	}
	return cuts
}

func skipSpace(src []byte, pos, end int) int {
	for pos < end && isSpace(src[pos]) {
		pos++
	}
	return pos
}
