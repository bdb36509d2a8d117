package use

import (
	"math"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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
// Count looks words up in the short tables first (walk.go), which keep a
// best score only to float32 and a run's tolerance rounded down; a near
// tie met there is counted again on the exact path.

// cacheShards bounds how many goroutines count with a cache at once; more
// wait for one.
const cacheShards = 4

// unit roundoff of float64.
const roundoff = 0x1p-53

// wordCache holds cached words and the scratch of one counting goroutine.
type wordCache struct {
	mu    sync.Mutex
	words wordTable // words after the first of a text, up to a break
	first wordTable // first words, run from 0
	bare  wordTable // segments of words after a break
	// The short-word tables of ranges (walk.go).
	shortFirst, shortLead, shortBare shortTables
	inexact                          bool // a fast count met a near tie (walk.go)
	walking                          bool // the walk counts: near ties need not be exact
	runes                            []rune
	score                            []float64
	ids                              []uint16
	rev                              []uint16
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
	for b := range t.plain {
		t.plain[b] = b != ' ' && !t.breaks[b] && byte(b) != string(separator)[0]
	}
	t.wordwise = ok
	for i := range t.caches {
		for _, tabs := range []*shortTables{&t.caches[i].shortFirst, &t.caches[i].shortLead, &t.caches[i].shortBare} {
			tabs.wide.wide = true
		}
	}
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
	s, ascii := text, isASCII(text)
	if !ascii {
		s = norm.NFKC.String(strings.ToValidUTF8(text, "\uFFFD"))
		if s == "" {
			return 0
		}
	}
	c := t.lockCache()
	defer c.mu.Unlock()
	c.inexact = false
	total, _ := c.countFrom(t, s, ascii, 0, 0, true, true)
	if c.inexact {
		total, _ = c.countFrom(t, s, ascii, 0, 0, true, false)
	}
	return total
}

// countFrom counts the words of the prepared text s, after total tokens and
// from best score base, and returns the new total and best score. The first
// word follows a separator, or starts the text (from score 0) when first.
// fast looks words up in the short tables (walk.go), whose best scores
// are within rounding of the exact ones.
func (c *wordCache) countFrom(t *Tokenizer, s string, ascii bool, total int, base float64, first, fast bool) (int, float64) {
	for start := 0; ; first = false {
		end, next := nextSeparator(s, start, ascii)
		n, b := c.word(t, s[start:end], base, first, fast)
		total, base = total+n, b
		if end == len(s) {
			return total, base
		}
		start = next
	}
}

// nextSeparator finds the first space or U+2581 at or after start: its
// offset and the offset after it, or len(s) twice.
func nextSeparator(s string, start int, ascii bool) (int, int) {
	if ascii {
		if i := strings.IndexByte(s[start:], ' '); i >= 0 {
			return start + i, start + i + 1
		}
		return len(s), len(s)
	}
	for i := start; i < len(s); i++ {
		switch {
		case s[i] == ' ':
			return i, i + 1
		case s[i] == 0xE2 && strings.HasPrefix(s[i:], string(separator)):
			return i, i + len(string(separator))
		}
	}
	return len(s), len(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// word counts the tokens of a separator followed by w, starting from the
// best score base (exactly 0 for a text's first word), and returns the best
// score after it. A byte no piece holds (a line break) is an unknown token
// of its own that no piece crosses, so w is cut there too: its segments are
// counted alone, and an unknown token that ends one merges with the break
// after it, as a break does with an unknown token that starts the next.
// fast is as for countFrom.
func (c *wordCache) word(t *Tokenizer, w string, base float64, first, fast bool) (int, float64) {
	segment := c.segment
	if fast {
		segment = c.fastSegment
	}
	i := t.nextBreak(w, 0)
	total, base, _, prevUnk, _ := segment(t, w[:i], base, true, first)
	for i < len(w) {
		if !prevUnk {
			total++
		}
		prevUnk = true // the break: an unknown token, base unchanged
		j := t.nextBreak(w, i+1)
		if j > i+1 {
			n, b, firstUnk, lastUnk, _ := segment(t, w[i+1:j], base, false, false)
			if firstUnk {
				n--
			}
			total, base, prevUnk = total+n, b, lastUnk
		}
		i = j
	}
	return total, base
}

// nextBreak is the offset of the first byte at or after i that no piece
// holds, or len(w).
func (t *Tokenizer) nextBreak(w string, i int) int {
	for ; i < len(w); i++ {
		if t.breaks[w[i]] {
			return i
		}
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
	tab := &c.bare
	switch {
	case first:
		tab = &c.first
	case lead:
		tab = &c.words
	}
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
	tol := math.Inf(-1)
	if nonPositive && !first {
		tol = t.tolerance(margin, -base, len(w))
	}
	return n, next, fu, lu, tol
}

// fresh runs the lattice over w at base without the cache.
func (c *wordCache) fresh(t *Tokenizer, w string, base float64, lead bool) (int, float64, bool, bool, float64) {
	n, next, margin, nonPositive := c.lattice(t, w, base, lead)
	tol := math.Inf(-1)
	if nonPositive {
		tol = t.tolerance(margin, -base, len(w))
	}
	return n, next, c.firstUnk(), c.lastUnk(), tol
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

// lattice runs the reference's lattice over w, after a separator when
// lead, from score base. It returns the token count, the best score at the end, the
// margin, and whether every piece it met scored at most 0; c.rev holds the
// best path's ids, last first.
func (c *wordCache) lattice(t *Tokenizer, w string, base float64, lead bool) (int, float64, float64, bool) {
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
