package chunks

import (
	"sort"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/sections"
)

// pack emits the chunks of one unit: the whole unit when it fits, else
// atoms packed greedily up to the room, each chunk after the first
// starting with the tail of the one before it.
func (s *splitter) pack(u *unit) {
	first := len(s.out)
	defer func() {
		for i := first; i < len(s.out); i++ {
			s.out[i].Part, s.out[i].Parts = i-first+1, len(s.out)-first
		}
	}()
	room := s.unitRoom(u)
	if u.tokens() <= room {
		if c := s.chunk(u, u.start(), u.end()); s.tokens(c) <= s.opts.MaxTokens {
			s.emit(c, u)
			return
		}
	}
	atoms := s.atoms(u, room)
	if len(atoms) == 0 {
		return
	}
	overlap := s.overlapTokens()
	start, startTok := atoms[0].start, 0
	for i := 0; i < len(atoms); {
		est := startTok + s.tableHeader(u, start).tokens
		j := i
		for j < len(atoms) && (j == i || est+max(1, atoms[j].tokens) <= room) {
			est += max(1, atoms[j].tokens) // any text is at least a token
			j++
		}
		c := s.chunk(u, start, atoms[j-1].end)
		if s.tokens(c) > s.opts.MaxTokens && j-1 > i {
			// The estimate was low: keep the most atoms that fit.
			k := sort.Search(j-1-i, func(k int) bool {
				return s.chunkTokens(u, start, atoms[i+k].end) > s.opts.MaxTokens
			})
			j = i + max(k, 1)
			c = s.chunk(u, start, atoms[j-1].end)
		}
		if s.tokens(c) > s.opts.MaxTokens {
			if start < atoms[i].start { // try again without the overlap
				start, startTok = atoms[i].start, 0
				continue
			}
			if first := skipSpace(s.src, start, atoms[i].end); first > start {
				// Indentation costs tokens with some counters: drop it.
				atoms[i].start, start = first, first
				atoms[i].tokens = s.count(first, atoms[i].end)
				continue
			}
			if cut := s.fit(u, atoms[i]); cut > 0 {
				a := atoms[i]
				rest := atom{start: skipSpace(s.src, cut, a.end), end: a.end}
				rest.tokens = s.count(rest.start, rest.end)
				a.end = trimRight(s.src, a.start, cut)
				a.tokens = s.count(a.start, a.end)
				atoms = append(atoms[:i+1], atoms[i:]...)
				atoms[i], atoms[i+1] = a, rest
				continue
			}
			// A single character over the budget: it cannot be cut.
		}
		s.emit(c, u)
		i = j
		if i < len(atoms) {
			start, startTok = s.overlap(u, c.StartByte, c.EndByte, overlap, room-atoms[i].tokens, atoms[i].start)
		}
	}
}

// overlapTokens is how much of a chunk the next one repeats, in tokens.
func (s *splitter) overlapTokens() int {
	return int(s.opts.Overlap * float64(s.opts.MaxTokens))
}

// fit finds where to cut atom a so that its first part fits the budget as
// a chunk of its own: the last word start that fits, else the last
// character boundary that does. It returns 0 when not even one character
// fits.
func (s *splitter) fit(u *unit, a atom) int {
	fits := func(c int) bool {
		return s.chunkTokens(u, a.start, trimRight(s.src, a.start, c)) <= s.opts.MaxTokens
	}
	// Candidates leave at least the first word, or its first character, in
	// the first part.
	first := skipSpace(s.src, a.start, a.end)
	var words []int
	for i := first + 1; i < a.end; i++ {
		if isSpace(s.src[i-1]) && !isSpace(s.src[i]) {
			words = append(words, i)
		}
	}
	if k := sort.Search(len(words), func(k int) bool { return !fits(words[k]) }); k > 0 {
		return words[k-1]
	}
	end := a.end
	if len(words) > 0 {
		end = trimRight(s.src, first, words[0])
	}
	var chars []int
	for i := first; i < end; {
		_, size := utf8.DecodeRune(s.src[i:end])
		if i += size; i < end {
			chars = append(chars, i)
		}
	}
	if k := sort.Search(len(chars), func(k int) bool { return !fits(chars[k]) }); k > 0 {
		return chars[k-1]
	}
	return 0
}

// chunkTokens counts the embed text a chunk of [start, end) would have.
func (s *splitter) chunkTokens(u *unit, start, end int) int {
	if s.passages {
		return s.overhead + s.count(start, end)
	}
	own, _ := u.label(start, end, false)
	prefix, header := s.prefix(own), s.tableHeader(u, start).text
	if n, ok := s.countHeaded(prefix+header, start, end); ok {
		return n
	}
	return s.opts.Counter.CountTokens(s.embedText(prefix, header, start, end))
}

// overlap picks where the chunk after [ps, pe) starts: back into it by
// about want tokens, never more than avail, at a sentence or paragraph
// start (prose) or a line start (tables), which may take up to twice
// want, and never inside a code block. Without such a start it is next,
// the start of the next atom: no overlap.
func (s *splitter) overlap(u *unit, ps, pe, want, avail, next int) (int, int) {
	limit := min(2*want, avail)
	if want <= 0 || limit <= 0 || s.inCode(u, pe-1) {
		return next, 0 // a window never starts inside a code block
	}
	prose := s.isProse(u, pe-1)
	good, goodTok := -1, 0
	for pos, tok := pe, 0; ; {
		we := trimRight(s.src, ps, pos)
		ws := we
		for ws > ps && !isSpace(s.src[ws-1]) {
			ws--
		}
		if ws <= ps {
			break
		}
		t := s.count(ws, we)
		if tok+t > limit {
			break
		}
		pos, tok = ws, tok+t
		if s.goodStart(ps, pos, prose) {
			if tok <= want || good < 0 {
				good, goodTok = pos, tok
			}
			if tok > want {
				break
			}
		}
	}
	start, tok := good, goodTok
	if start < 0 || s.inCode(u, start) {
		return next, 0 // only a sentence, paragraph or line start will do
	}
	if !prose {
		start = lineStartIfFirst(s.src, start)
	}
	if tok+s.tableHeader(u, start).tokens > avail {
		return next, 0
	}
	return start, tok
}

// inCode reports whether offset pos lies in a code block.
func (s *splitter) inCode(u *unit, pos int) bool {
	p := u.pieceAt(pos)
	return p != nil && p.kind == sections.Code
}

// isProse reports whether offset pos lies in a paragraph or list rather
// than in code, a table, HTML or a quote (whose lines each start with
// "> ", so a piece of one starts at a line).
func (s *splitter) isProse(u *unit, pos int) bool {
	if p := u.pieceAt(pos); p != nil {
		return p.kind == sections.Paragraph || p.kind == heading
	}
	return true
}

// goodStart reports whether the word at pos starts a sentence, a
// paragraph or a list item (prose), or a line (anything else).
func (s *splitter) goodStart(lo, pos int, prose bool) bool {
	ls := lineStartIfFirst(s.src, pos)
	first := ls < pos || (pos > 0 && s.src[pos-1] == '\n')
	if !prose {
		return first
	}
	if isSentenceEnd(s.src, lo, pos-1) {
		return true
	}
	if !first {
		return false
	}
	if ls >= 1 && prevLineBlank(s.src, ls) {
		return true // a paragraph start
	}
	switch c := s.src[pos]; {
	case c == '-' || c == '*' || c == '+' || c == '>' || c == '|':
		return true
	case c >= '0' && c <= '9':
		return true
	}
	return false
}

// lineStartIfFirst returns the start of pos's line when only blanks come
// before pos on it, else pos.
func lineStartIfFirst(src []byte, pos int) int {
	i := pos
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i == 0 || src[i-1] == '\n' {
		return i
	}
	return pos
}

// isSentenceEnd reports whether white space at i follows the end of a
// sentence.
func isSentenceEnd(src []byte, lo, i int) bool {
	for i > lo && isSpace(src[i]) {
		i--
	}
	for i > lo && (src[i] == ')' || src[i] == '"' || src[i] == '\'' || src[i] == ']' || src[i] == '*' || src[i] == '_') {
		i--
	}
	return src[i] == '.' || src[i] == '!' || src[i] == '?'
}

// blankLine reports whether the line starting at i (up to pe) holds only
// white space.
func blankLine(src []byte, i, pe int) bool {
	for ; i < pe && src[i] != '\n'; i++ {
		if !isSpace(src[i]) {
			return false
		}
	}
	return true
}

// prevLineBlank reports whether the line before the one starting at ls
// holds only white space.
func prevLineBlank(src []byte, ls int) bool {
	j := ls - 1
	for j > 0 && src[j-1] != '\n' {
		j--
	}
	return blankLine(src, j, ls-1)
}
