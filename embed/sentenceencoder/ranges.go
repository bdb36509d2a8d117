package sentenceencoder

import (
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch/embed"
)

// Range counts. The chunker counts a note's ranges several times over:
// blocks, cuts, overlaps, windows with their heading prefix. Ranges walks
// the note once, word by word as count does (countFrom), and keeps the
// running token total at every run's end. A range's count is then its
// first word, counted as a text's first word (after the head), plus the
// difference of two running totals for the rest; a range that starts
// after a space is the difference alone, as the walk met its first word
// after a separator too (unless a piece scoring 0 or more could make the
// text's start differ: the reference reads a best score of 0 as unset).
//
// That difference is exact because every run of tokens the walk meets is
// delimited the same way in the range: a separator (a space) always starts
// a token, and a break byte is a token of its own whose merging with an
// unknown token depends only on the run just before it. What can differ is
// the best score a run starts from. A run whose choices hold only up to
// some magnitude of it (a near tie between two paths) is weak: a range
// whose runs include a weak one is counted in full. Magnitudes in a range
// never exceed the head's and first word's plus a token's largest score
// for every byte of the note, as every piece scores at most 0 (else the
// run is weak).
//
// The walk leaves out the ranges the chunker says it will not count in
// (the code its windows do not read, the tails of long runs): code costs
// several times what prose does a byte, and a 9 MB word took hundreds of
// megabytes to count. It stops at a space or a break, or inside an ASCII
// word, and resumes at a break or a space, where no run crosses, so the
// runs after a gap are the note's (but for a break it resumes at, which may
// merge with an unknown token in the gap: no range counts from there); a
// range that meets a gap is counted in full. Stopped inside a word, the walk counts the word's head as a run
// of its own, which the word's tokens need not start with; no range is
// counted from it: one that ends there does not end at a space or a break.
//
// Non-ASCII text is NFKC-normalised piece by piece, a piece being the bytes
// between spaces and break bytes; that is the normalisation of the whole
// text as long as each piece starts at a normalisation boundary, which a
// piece starting with a combining mark does not (it is weak).

// rangeSlack bounds the best score's magnitude at the end of a range's head
// and first word, for the running totals to hold.
const rangeSlack = 1e6

// weakCap is a tolerance above any limit a note can need.
const weakCap = 1e12

// Ranges implements embed.RangeCounter. A Ranges is for one goroutine.
func (t *Tokenizer) Ranges(text string, skip [][2]int) embed.Ranges {
	r := &ranges{t: t, text: text, heads: map[string]headState{}}
	if t.wordwise && len(text) < math.MaxInt32/2 && utf8.ValidString(text) {
		r.build(skip)
	}
	return r
}

// ranges counts ranges of one text.
type ranges struct {
	t    *Tokenizer
	text string
	ok   bool // the running totals below are usable
	// prepared is the text as the walk read it: normalised piece by piece.
	// shifts map text offsets to prepared ones (none when the same).
	prepared string
	shifts   []shift
	// total holds, at each prepared offset where a run of tokens ends, the
	// tokens of the runs ending there or before, plus weak<<32 for the weak
	// runs among them; offsets inside a gap the walk left out hold values
	// below every total (see build); other offsets are unset. A space's
	// offset is always a run's end (the one before it).
	total []int64
	heads map[string]headState
	// last is the head asked for last, and its state: a passage's windows
	// all ask for the same few heads, most often the last one again.
	last      string
	lastState headState
	buf       []byte // scratch for heads looked up with a space added
}

// weak is one weak run in a running total.
const weak = 1 << 32

// gapTotal is below every running total: totals in a gap start there.
const gapTotal = -1 << 62

// shift is how far prepared offsets are from text offsets from a text
// offset on: the end of a piece whose normalisation changed its length.
type shift struct{ from, by int32 }

// headState is where counting stands after a head: the tokens so far and
// the best score, or first when nothing came before.
type headState struct {
	n     int
	base  float64
	first bool
	ok    bool // the head ends with a space or a break (or is empty)
	// brk is set when the head ends with a break (a table's header rows):
	// n and base then take it in, and what follows starts a run after a
	// break, as in the note after a line break.
	brk bool
}

// builder keeps a walk's running totals.
type builder struct {
	total  []int64
	off    int // prepared offset of the text being walked
	n      int64
	limit  float64 // runs that hold only below it are weak
	weakAt []int32 // prepared offsets where pieces that are weak end, in order
}

// unit records a run of n tokens that ends at prepared offset end and
// holds up to magnitude tol.
func (b *builder) unit(end, n int, tol float64) {
	b.n += int64(n)
	if tol <= b.limit {
		b.n += weak
	}
	end += b.off
	for len(b.weakAt) > 0 && int(b.weakAt[0]) <= end {
		b.n += weak
		b.weakAt = b.weakAt[1:]
	}
	b.total[end] = b.n
}

// Release implements embed.Ranges: the running totals go back to the
// tokenizer, for the next note.
func (r *ranges) Release() {
	if r.total != nil {
		r.t.freeTotals(r.total)
	}
	*r = ranges{t: r.t}
}

// keptTotals bounds the running totals a tokenizer keeps for reuse: a few
// notes' worth, none over maxKeptTotal offsets.
const (
	keptTotals   = 4
	maxKeptTotal = 4 << 20
)

// totalsFor returns running totals for n offsets, reusing released ones.
// Offsets a walk does not set are never read, so they need no clearing.
func (t *Tokenizer) totalsFor(n int) []int64 {
	t.freeMu.Lock()
	var buf []int64
	if k := len(t.free); k > 0 {
		buf, t.free = t.free[k-1], t.free[:k-1]
	}
	t.freeMu.Unlock()
	if cap(buf) < n {
		buf = make([]int64, n)
	}
	return buf[:n]
}

func (t *Tokenizer) freeTotals(buf []int64) {
	if cap(buf) > maxKeptTotal {
		return
	}
	t.freeMu.Lock()
	if len(t.free) < keptTotals {
		t.free = append(t.free, buf)
	}
	t.freeMu.Unlock()
}

// build walks the text once, but for the gaps of skip it can leave out.
// Every token scores at least -maxAbs, and there are at most as many
// tokens as bytes, plus one.
func (r *ranges) build(skip [][2]int) {
	s, weakAt := r.prepare()
	limit := (float64(len(s)+1)*r.t.maxAbs + rangeSlack) * 1.01
	if limit >= weakCap {
		return
	}
	b := &builder{total: r.t.totalsFor(len(s) + 1), limit: limit, weakAt: weakAt}
	b.total[0] = 0
	if s != "" {
		c := r.t.lockCache()
		n, base, from := 0, 0.0, 0
		gaps := r.usableGaps(skip)
		for _, g := range gaps {
			b.off = from
			start, end := int(r.offset(g[0])), int(r.offset(g[1]))
			n, base = c.countFrom(r.t, s[from:start], n, base, from == 0, true, b)
			// The totals in the gap go down, so no difference that ends
			// in it holds; the weak run marked after it keeps ranges from
			// spanning it. The walk resumes at a break or a space: no run
			// crosses one, so the runs after it are the note's. It reads a
			// lone separator there that the note does not have, a token no
			// range counted from the totals holds: it would have to start
			// before it, in the gap. A gap that reaches the end of the text
			// ends the walk.
			r.markGap(b.total, s, start, end)
			b.n += weak
			from = end
		}
		if from == 0 || from < len(s) {
			b.off = from
			c.countFrom(r.t, s[from:], n, base, from == 0, true, b)
		}
		c.mu.Unlock()
		r.unsetBreakResumes(b.total, s, gaps)
	}
	r.total, r.prepared, r.ok = b.total, s, true
}

// usableGaps are the ranges of skip, in order and apart, that the walk can
// leave out, each cut to where the walk resumes. Each starts at a space or
// a break, where the walk's last run ends, or inside a word that is ASCII
// to the gap's end (no piece that normalisation changed). It resumes at a
// break after any spaces that follow, else at the last of those spaces,
// else at the end of the text; a gap followed by none of these (it ends
// inside a word) is not left out.
func (r *ranges) usableGaps(skip [][2]int) [][2]int {
	var gaps [][2]int
	text, last := r.text, 0
	for _, g := range skip {
		start, end := g[0], g[1]
		if start <= last || end <= start || end > len(text) {
			continue
		}
		if !r.delim(text[start]) {
			word := start
			for word > last && !r.delim(text[word-1]) {
				word--
			}
			if !isASCII(text[word:end]) {
				continue
			}
		}
		spaced := end
		for end < len(text) && text[end] == ' ' {
			end++
		}
		switch {
		case end == len(text), r.t.breaks[text[end]]:
		case end > spaced:
			end-- // the last space: the next word follows a separator
		default:
			continue
		}
		gaps = append(gaps, [2]int{start, end})
		last = end
	}
	return gaps
}

// markGap sets the running totals in the gap that a walk stopped at
// prepared offset start and resumes at end leaves out, where a range
// could read them: at a space or a break, after a break, and at the end
// of the text. Other offsets are never read.
func (r *ranges) markGap(total []int64, s string, start, end int) {
	if end == len(s) {
		total[end] = gapTotal - int64(end)
	}
	for x := start + 1; x < end; x++ {
		if c := s[x]; c == ' ' || r.t.breaks[c] || r.t.breaks[s[x-1]] {
			total[x] = gapTotal - int64(x)
		}
	}
}

// unsetBreakResumes marks the running total where the walk resumed at a
// break: a break merges with an unknown token before it, which the walk
// never read there (the gap's last run), so a range counted from that
// total, one that starts at the break, would be off by that merge.
func (r *ranges) unsetBreakResumes(total []int64, s string, gaps [][2]int) {
	for _, g := range gaps {
		if end := int(r.offset(g[1])); end < len(s) && r.t.breaks[s[end]] {
			total[end] = gapTotal - int64(end)
		}
	}
}

// delim reports whether c ends a run: a space or a break.
func (r *ranges) delim(c byte) bool { return c == ' ' || r.t.breaks[c] }

// prepare normalises the non-ASCII pieces of the text and records how
// offsets shift. It returns the prepared text and the prepared offsets
// where pieces that do not start at a normalisation boundary end.
func (r *ranges) prepare() (string, []int32) {
	text, delim := r.text, r.delim
	var out strings.Builder
	var weak []int32
	done := 0 // text[:done] is in out
	for i := nextNonASCII(text, 0); i < len(text); i = nextNonASCII(text, i) {
		from, to := i, i+1
		for from > done && !delim(text[from-1]) {
			from--
		}
		for to < len(text) && !delim(text[to]) {
			to++
		}
		if done == 0 {
			out.Grow(len(text) + len(text)/8)
		}
		out.WriteString(text[done:from])
		piece := text[from:to]
		out.WriteString(norm.NFKC.String(piece))
		if !norm.NFKC.PropertiesString(piece).BoundaryBefore() {
			weak = append(weak, int32(out.Len()))
		}
		if by := int32(out.Len() - to); by != r.by(to) {
			r.shifts = append(r.shifts, shift{int32(to), by})
		}
		done, i = to, to
	}
	if done == 0 {
		return text, nil
	}
	out.WriteString(text[done:])
	return out.String(), weak
}

// CountRange implements embed.Ranges.
func (r *ranges) CountRange(head string, start, end int) int {
	if n, ok := r.count(head, start, end); ok {
		return n
	}
	return r.t.Count(head + r.text[start:end])
}

// count is CountRange from the running totals; ok is false when they
// cannot answer: the range does not start at a word or end at a run's end,
// or holds a weak run or meets a gap, or the head does not end with a
// space, or ends with a break and the range does not start a line.
func (r *ranges) count(head string, start, end int) (int, bool) {
	text := r.text
	if start == end && start >= 0 && end <= len(text) && r.t.wordwise {
		return r.headOnly(head)
	}
	if !r.ok || start < 0 || end > len(text) || start >= end ||
		!utf8.RuneStart(text[start]) || text[end-1] == ' ' ||
		end < len(text) && text[end] != ' ' && !r.t.breaks[text[end]] {
		return 0, false
	}
	h := r.head(head)
	if !h.ok {
		return 0, false
	}
	if h.brk {
		// After a break, as the walk met the range's start: the runs that
		// follow are the note's.
		if start == 0 || !r.t.breaks[text[start-1]] {
			return 0, false
		}
		n, ok := r.between(r.offset(start), r.offset(end))
		return h.n + n, ok
	}
	if text[start] == ' ' {
		// Indentation: a lone separator, then what follows the space, as
		// the walk met it.
		n, ok := r.between(r.offset(start), r.offset(end))
		return h.n + 1 + n, ok
	}
	if start > 0 && text[start-1] == ' ' {
		// A word after a space: the walk met it after a separator too.
		if a := r.offset(start); r.segmentAt(a) && (h.base < 0 || r.signedLead(a)) {
			if n, ok := r.between(a-1, r.offset(end)); ok { // a-1: the space
				return h.n + n, true
			}
		}
	}
	cut := end // the first word: up to the first space
	if i := strings.IndexByte(text[start:end], ' '); i >= 0 {
		cut = start + i
	}
	first := text[start:cut]
	if !isASCII(first) && !norm.NFKC.PropertiesString(first).BoundaryBefore() {
		return 0, false
	}
	first = normalize(first)
	c := r.t.lockCache()
	c.inexact = false
	n, base := c.countFrom(r.t, first, h.n, h.base, h.first, true, nil)
	inexact := c.inexact
	c.mu.Unlock()
	if inexact {
		return 0, false
	}
	if cut == end {
		return n, true
	}
	if -base > rangeSlack {
		return 0, false
	}
	rest, ok := r.between(r.offset(cut), r.offset(end))
	return n + rest, ok
}

// between is the tokens of the runs ending in (a, b], two run ends; ok is
// false when one of them is weak, or b is in a gap.
func (r *ranges) between(a, b int32) (int, bool) {
	d := r.total[b] - r.total[a]
	return int(d % weak), d >= 0 && d < weak
}

// segmentAt reports whether a word's first segment starts at prepared
// offset a, rather than a separator (normalisation made one, or U+2581 was
// written) or a break: the walk counts the empty segment before either at
// a, with the text before it.
func (r *ranges) segmentAt(a int32) bool {
	s := r.prepared[a:]
	return s != "" && s[0] != ' ' && !r.t.breaks[s[0]] && !strings.HasPrefix(s, string(separator))
}

// signedLead reports whether the run of the word at prepared offset a, up
// to a space or a break, is of bytes that no piece scoring 0 or more holds:
// it then scores below 0 from a text's start on (the separator does), so
// no best score is 0, the reference's unset, and it makes the same choices
// at the start as after the other words the walk met it after.
func (r *ranges) signedLead(a int32) bool {
	t := r.t
	if t.sepScore >= 0 {
		return false
	}
	s := r.prepared
	for i := int(a); i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || t.breaks[c]:
			return true
		case c >= utf8.RuneSelf || t.unsigned[c]:
			return false
		}
	}
	return true
}

// offset is the prepared offset of text offset i, which is not inside a
// piece.
func (r *ranges) offset(i int) int32 {
	return int32(i) + r.by(i)
}

// by is the shift at text offset i.
func (r *ranges) by(i int) int32 {
	k := sort.Search(len(r.shifts), func(k int) bool { return int(r.shifts[k].from) > i })
	if k == 0 {
		return 0
	}
	return r.shifts[k-1].by
}

// headOnly counts head alone: what comes before its last space, which head
// keeps, then that space, a lone separator. The chunker counts each
// heading prefix so, and then the ranges after it. A head that does not
// end with a space or a break (a heading window: the prefix without its
// last space) is what head keeps of itself plus a space.
func (r *ranges) headOnly(head string) (int, bool) {
	if head == "" {
		return 0, true
	}
	if last := head[len(head)-1]; last != ' ' && !r.t.breaks[last] {
		r.buf = append(append(r.buf[:0], head...), ' ')
		if h, ok := r.heads[string(r.buf)]; ok { // no string made to look it up
			return h.n, h.ok
		}
		h := r.head(string(r.buf))
		return h.n, h.ok
	}
	h := r.head(head)
	if h.brk {
		return h.n, h.ok
	}
	return h.n + 1, h.ok
}

// head is the state after head, cached: heads are few (one per section).
func (r *ranges) head(head string) headState {
	if head == "" {
		return headState{first: true, ok: true}
	}
	if head == r.last {
		return r.lastState
	}
	if h, ok := r.heads[head]; ok {
		r.last, r.lastState = head, h
		return h
	}
	h := headState{}
	last := head[len(head)-1]
	if last == ' ' || r.t.breaks[last] {
		h.brk = last != ' '
		counted := head
		if !h.brk {
			counted = head[:len(head)-1]
		}
		c := r.t.lockCache()
		h.n, h.base = c.countText(r.t, normalize(counted))
		c.mu.Unlock()
		h.ok = -h.base <= rangeSlack/2 && (!h.brk || h.base < 0)
	}
	r.heads[head] = h
	r.last, r.lastState = head, h
	return h
}
