package sentenceencoder

import (
	"math"
	"math/bits"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch/internal/swar"
)

// Count path. Counting must cost little more than splitting words, with
// the same counts as Encode.
//
// The lattice of a prepared text falls apart at every separator: no piece
// holds a separator past its first symbol, so no piece crosses one, and a
// separator always matches the piece "▁", so no run of unknown tokens
// crosses one either. The best path passes through every separator, and the
// tokens of a word (a separator and what follows it up to the next) depend
// only on the word and the best score where it starts (the base). Count
// walks the text word by word with the reference's update rule. Bytes no
// piece holds (line breaks, tabs) cut words again the same way.
//
// A word's lattice run is cached with the smallest gap between two scores
// it compared (its margin). Scores are the base plus sums of piece scores;
// when the base is negative and the word's pieces score at most 0, no score
// is 0 (the reference's "unset"), and another base changes each score by
// the same amount up to rounding. A margin wider than twice that rounding
// bound means the run at the other base makes the same choices, so the
// cached tokens are exact; the new best score is their scores replayed onto
// the base, in the reference's order. Anything else runs the lattice again.
//
// Count looks words up in the short tables first (short.go), which keep a
// best score only to float32 and a run's tolerance rounded down; a near
// tie met there is counted again on the exact path.

// cacheShards bounds how many goroutines count with a cache at once; more
// wait for one.
const cacheShards = 4

// unit roundoff of float64.
const roundoff = 0x1p-53

// wordCache holds cached words and the scratch of one counting goroutine.
type wordCache struct {
	mu     sync.Mutex
	tables [kinds]wordTable   // lattice runs, by kind of segment
	short  [kinds]shortTables // the same, short words, for fast counts (short.go)
	// inexact is set when a fast count meets a near tie (short.go);
	// walking when the counting is a walk that marks such runs weak.
	inexact, walking bool
	runes            []rune
	score            []float64
	ids              []uint16
	rev              []uint16
}

// Kinds of segment, each with tables of its own: a text's first word (run
// from exactly 0), a word after a separator, a segment after a break.
const (
	kindFirst = iota
	kindLead
	kindBare
	kinds
)

// segKind is the kind of a segment after a separator when lead, or at the
// text's start when first.
func segKind(lead, first bool) int {
	switch {
	case first:
		return kindFirst
	case lead:
		return kindLead
	}
	return kindBare
}

// countSetup records whether the word-by-word count path holds for this
// vocabulary: "▁" is a piece, no piece holds "▁" past its start, and every
// piece's UTF-16 length is its length in code points (the reference steps
// back by the former, the lattice by the latter).
func (t *Tokenizer) countSetup(pieces []string, scores []float64) {
	t.scoreOf = make([]float64, len(pieces))
	sep := t.child(0, separator)
	ok := sep >= 0 && t.nodes[sep].id >= 0
	for id, p := range pieces {
		if id < reservedIDs {
			continue
		}
		t.scoreOf[id] = scores[id]
		t.maxAbs = max(t.maxAbs, math.Abs(scores[id]))
		if _, size := utf8.DecodeRuneInString(p); strings.ContainsRune(p[size:], separator) ||
			int(t.idLen[id]) != utf8.RuneCountInString(p) {
			ok = false
		}
	}
	// A piece that ends up replaced by a later duplicate keeps the later
	// score in the trie; the replay reads the trie's.
	for i := range t.nodes {
		if nd := &t.nodes[i]; nd.id >= 0 {
			t.scoreOf[nd.id] = nd.score
			for j := 0; nd.score >= 0 && j < len(pieces[nd.id]); j++ {
				t.unsigned[pieces[nd.id][j]] = true
			}
		}
	}
	for b := range utf8.RuneSelf {
		t.breaks[b] = b != ' '
	}
	for _, p := range pieces[reservedIDs:] {
		for i := 0; i < len(p); i++ {
			if p[i] < utf8.RuneSelf {
				t.breaks[p[i]] = false
			}
		}
	}
	t.plainUsual = true
	for b := range t.plain {
		t.plain[b] = b != ' ' && !t.breaks[b] && byte(b) != string(separator)[0]
		if t.plain[b] != (b > ' ' && b != 0x7f && byte(b) != string(separator)[0]) {
			t.plainUsual = false
		}
	}
	t.wordwise = ok
	if ok {
		t.sepScore = t.nodes[sep].score
		t.flatten()
	}
}

// flatNode is a trie node of the count path's copy of the trie, laid out
// breadth first with its edges in one slice, so a step reads one node and
// its edges, which sit next to those of its siblings.
type flatNode struct {
	first, n int32 // edges at flatEdges[first:first+n], sorted by rune
	id       int32
	score    float64
}

// flatten copies the trie breadth first.
func (t *Tokenizer) flatten() {
	order, index := []int32{0}, make([]int32, len(t.nodes))
	for i := 0; i < len(order); i++ {
		for _, e := range t.nodes[order[i]].edges {
			index[e.child] = int32(len(order))
			order = append(order, e.child)
		}
	}
	t.flat = make([]flatNode, len(order))
	t.flatEdges = make([]trieEdge, 0, len(order))
	for i, old := range order {
		nd := &t.nodes[old]
		t.flat[i] = flatNode{first: int32(len(t.flatEdges)), n: int32(len(nd.edges)), id: nd.id, score: nd.score}
		for _, e := range nd.edges {
			t.flatEdges = append(t.flatEdges, trieEdge{e.r, index[e.child]})
		}
	}
	t.flatRoot = make([]int32, 128)
	for r := range t.flatRoot {
		t.flatRoot[r] = -1
		if c := t.child(0, rune(r)); c >= 0 {
			t.flatRoot[r] = index[c]
		}
	}
	t.flatSep = index[t.child(0, separator)]
}

// flatChild is child on the flat trie.
func (t *Tokenizer) flatChild(node int32, r rune) int32 {
	if node == 0 {
		switch {
		case r >= 0 && r < 128:
			return t.flatRoot[r]
		case r == separator:
			return t.flatSep
		}
	}
	nd := &t.flat[node]
	edges := t.flatEdges[nd.first : nd.first+nd.n]
	if len(edges) <= 8 {
		for _, e := range edges {
			if e.r == r {
				return e.child
			}
		}
		return -1
	}
	lo, hi := 0, len(edges)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if edges[m].r < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(edges) && edges[lo].r == r {
		return edges[lo].child
	}
	return -1
}

// lockCache returns a free cache shard, locked: the first free one, so a
// single goroutine always finds its own words.
func (t *Tokenizer) lockCache() *wordCache {
	for i := range t.caches {
		if c := &t.caches[i]; c.mu.TryLock() {
			return c
		}
	}
	c := &t.caches[0]
	c.mu.Lock()
	return c
}

// count is Count for a vocabulary where the word-by-word path holds.
func (t *Tokenizer) count(text string) int {
	if text == "" {
		return 0
	}
	s := normalize(text)
	if s == "" {
		return 0
	}
	c := t.lockCache()
	defer c.mu.Unlock()
	n, _ := c.countText(t, s)
	return n
}

// normalize is text as the count path reads it: NFKC, unless ASCII.
func normalize(text string) string {
	if isASCII(text) {
		return text
	}
	return norm.NFKC.String(strings.ToValidUTF8(text, "\uFFFD"))
}

// countText counts the normalised text s from its start, exactly: through
// the short tables, and again on the exact path when they met a near tie.
// It returns the count and the best score after s (within rounding). An
// empty s is a text's empty first word: a lone separator.
func (c *wordCache) countText(t *Tokenizer, s string) (int, float64) {
	c.inexact = false
	n, base := c.countFrom(t, s, 0, 0, true, true, nil)
	if c.inexact {
		n, base = c.countFrom(t, s, 0, 0, true, false, nil)
	}
	return n, base
}

// countFrom counts the prepared text s after total tokens, from best score
// base, and returns the new total and best score; its first segment
// follows a separator, or starts the text (from score 0) when first. The
// text falls apart into runs: a word's first segment (after a separator: a
// space, or U+2581 in non-ASCII text), a later segment (after a break: a
// byte no piece holds, such as a line break), and each break, an unknown
// token of its own that merges with an unknown token before it, as a
// segment's first unknown token merges with the break before it. Each byte
// is read once. fast looks segments up in the short tables (short.go),
// whose best scores are within rounding of the exact ones; b, when not
// nil, is told the end of every run, and a run in the short tables that
// does not hold at the walk's best score is marked weak, not counted again.
func (c *wordCache) countFrom(t *Tokenizer, s string, total int, base float64, first, fast bool, b *builder) (int, float64) {
	c.walking = b != nil
	prevUnk := false
	for i, from, lead := 0, 0, true; ; {
		i = t.skipPlain(s, i)
		sep, brk, next := i == len(s), false, i+1
		switch {
		case sep:
		case s[i] == ' ':
			sep = true
		case t.breaks[s[i]]:
			brk = true
		case strings.HasPrefix(s[i:], string(separator)):
			sep, next = true, i+len(string(separator))
		default: // another byte of a character
			i++
			continue
		}
		if lead || i > from {
			var n int
			var score, tol float64
			var firstUnk, lastUnk bool
			if fast {
				n, score, firstUnk, lastUnk, tol = c.fastSegment(t, s, from, i, base, lead, first)
			} else {
				n, score, firstUnk, lastUnk, tol = c.segment(t, s[from:i], base, lead, first)
			}
			if firstUnk && !lead {
				n-- // merged into the break before it
			}
			if b != nil {
				b.unit(i, n, tol)
			}
			total, base, prevUnk, first = total+n, score, lastUnk, false
		}
		if i == len(s) {
			return total, base
		}
		if brk {
			n := 1
			if prevUnk {
				n = 0 // merged into the unknown token before it
			}
			if b != nil {
				b.unit(next, n, math.Inf(1))
			}
			total, prevUnk = total+n, true
		}
		i, from, lead = next, next, sep
	}
}

// skipPlain is the offset of the first byte at or after i that is not
// plain, or len(s).
func (t *Tokenizer) skipPlain(s string, i int) int {
	if t.plainUsual {
		for ; i+8 <= len(s); i += 8 {
			if m := usualStops(swar.Load8(s, i)); m != 0 {
				return i + bits.TrailingZeros64(m)/8
			}
		}
	}
	for i < len(s) && t.plain[s[i]] {
		i++
	}
	return i
}

// usualStops has the high bit of each byte of v that is not plain when
// plainUsual holds: up to ' ', DEL, and U+2581's first byte.
func usualStops(v uint64) uint64 {
	// A byte below 0x80 is at most ' ' when adding 0x80-0x21 to it leaves
	// its high bit clear; no sum carries into the next byte.
	control := ^(v&^swar.High + (0x80-0x21)*swar.Ones) &^ v & swar.High
	return control | swar.ZeroBytes(v^0x7f*swar.Ones) | swar.ZeroBytes(v^(swar.Ones*uint64(string(separator)[0])))
}

func isASCII(s string) bool { return nextNonASCII(s, 0) == len(s) }

// nextNonASCII is the offset of the first byte at or after i that is not
// ASCII, or len(s); it reads eight bytes at a time.
func nextNonASCII(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if v := swar.Load8(s, i) & swar.High; v != 0 {
			return i + bits.TrailingZeros64(v)/8
		}
	}
	for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
	}
	return i
}

// segment counts the tokens of w, after a separator when lead, from best
// score base. It reports whether the first and the last token are unknown,
// and up to which magnitude of base the same tokens are certain (tol; see
// tolerance). A text's first word runs from exactly 0 and gets no
// tolerance.
func (c *wordCache) segment(t *Tokenizer, w string, base float64, lead, first bool) (int, float64, bool, bool, float64) {
	if lead && w == "" {
		return 1, t.sepScore + base, false, false, math.Inf(1) // a lone separator: one piece, no choice
	}
	tab := &c.tables[segKind(lead, first)]
	if !first && base >= 0 {
		n, next, _, _ := c.lattice(t, w, base, lead)
		return n, next, c.firstUnk(), c.lastUnk(), math.Inf(-1)
	}
	e, h := tab.find(w)
	if e != nil {
		if first {
			return int(e.count), e.next, e.firstUnk, e.lastUnk, math.Inf(-1)
		}
		if e.margin > t.bound(e.ref, -base, len(w)) {
			return int(e.count), tab.replay(e, t.scoreOf, base), e.firstUnk, e.lastUnk, t.tolerance(e.margin, e.ref, len(w))
		}
		return c.fresh(t, w, base, lead)
	}
	n, next, margin, nonPositive := c.lattice(t, w, base, lead)
	fu, lu := c.firstUnk(), c.lastUnk()
	if first || nonPositive {
		tab.add(w, h, wordEntry{count: int32(n), margin: margin, ref: -base, next: next, firstUnk: fu, lastUnk: lu}, c.rev)
	}
	if first {
		return n, next, fu, lu, math.Inf(-1)
	}
	return n, next, fu, lu, t.runTolerance(margin, base, len(w), nonPositive)
}

// fresh runs the lattice over w at base without the cache.
func (c *wordCache) fresh(t *Tokenizer, w string, base float64, lead bool) (int, float64, bool, bool, float64) {
	n, next, margin, nonPositive := c.lattice(t, w, base, lead)
	return n, next, c.firstUnk(), c.lastUnk(), t.runTolerance(margin, base, len(w), nonPositive)
}

// firstUnk and lastUnk report whether the last lattice's best path starts
// and ends with an unknown token.
func (c *wordCache) firstUnk() bool { return len(c.rev) > 0 && c.rev[len(c.rev)-1] == 0 }
func (c *wordCache) lastUnk() bool  { return len(c.rev) > 0 && c.rev[0] == 0 }

// bound is how far apart two scores of a word of nb bytes must be, run at
// bases of magnitudes a and b, to be compared the same way at both: each
// score is at most nb+1 additions of values no larger than the base plus
// nb+1 piece scores, each rounding by at most roundoff of that, at both
// bases, with a factor of two to spare.
func (t *Tokenizer) bound(a, b float64, nb int) float64 {
	l := float64(nb + 1)
	return 4 * l * roundoff * (a + b + 2*l*t.maxAbs)
}

// tolerance is the largest magnitude of base at which a run of a word of
// nb bytes, made at a base of magnitude ref with the given margin, is
// certain to make the same choices: bound(ref, x, nb) < margin for every x
// below it.
func (t *Tokenizer) tolerance(margin, ref float64, nb int) float64 {
	l := float64(nb + 1)
	return margin/(4*l*roundoff) - ref - 2*l*t.maxAbs
}

// runTolerance is the tolerance of a lattice run of a word of nb bytes at
// base: none when a piece it met scored above 0.
func (t *Tokenizer) runTolerance(margin, base float64, nb int, nonPositive bool) float64 {
	if !nonPositive {
		return math.Inf(-1)
	}
	return t.tolerance(margin, -base, nb)
}

// lattice runs the reference's lattice over w, after a separator when
// lead, from score base. It returns the token count, the best score at the end, the
// margin, and whether every piece it met scored at most 0; c.rev holds the
// best path's ids, last first.
func (c *wordCache) lattice(t *Tokenizer, w string, base float64, lead bool) (int, float64, float64, bool) {
	if need := len(w) + 1; cap(c.runes) < need && need > 1<<16 {
		// A long word: one buffer of its size (a rune per byte at most),
		// not one doubling after another.
		c.runes = make([]rune, 0, need)
	}
	r := c.runes[:0]
	if lead {
		r = append(r, separator)
	}
	for _, ch := range w {
		r = append(r, ch)
	}
	c.runes = r
	n := len(r)
	if cap(c.score) < n+1 {
		c.score, c.ids = make([]float64, n+1), make([]uint16, n+1)
	}
	score, ids := c.score[:n+1], c.ids[:n+1]
	clear(score)
	score[0] = base
	margin, nonPositive := math.Inf(1), true
	relax := func(end int, s float64, id int32) {
		cur := score[end]
		if cur == 0 {
			score[end], ids[end] = s, uint16(id)
			return
		}
		gap := s - cur
		if gap >= 0 {
			score[end], ids[end] = s, uint16(id)
		}
		margin = min(margin, math.Abs(gap))
	}
	for i := range n {
		b := score[i]
		node, matched := int32(0), false
		for j := i; j < n; j++ {
			if node = t.flatChild(node, r[j]); node < 0 {
				break
			}
			if nd := &t.flat[node]; nd.id >= 0 {
				relax(j+1, nd.score+b, nd.id)
				matched = true
				nonPositive = nonPositive && nd.score <= 0
			}
		}
		if !matched {
			relax(i+1, b, 0)
		}
	}
	rev, total, prevUnk := c.rev[:0], 0, false
	for iter := n; iter > 0; {
		id := ids[iter]
		iter -= int(t.idLen[id])
		rev = append(rev, id)
		unk := id == 0
		if !(unk && prevUnk) {
			total++
		}
		prevUnk = unk
	}
	c.rev = rev
	return total, score[n], margin, nonPositive
}
