package sentenceencoder

import (
	"math"

	"github.com/mdsearch/mdsearch/internal/swar"
)

// The short-word tables. Count, and Ranges, which walks every word of a
// note once and then counts the first word of every range, look words up
// here first: a lookup in the
// count path's tables (slot, entry, key, path) misses the CPU's caches for
// most of the vocabulary of a large vault. These need less: counts are
// exact, but the best score after a word need not be, as a run's
// tolerance is rounded down well below what rounding the score can move
// (see ranges.go), and the walk's running totals only count runs whose
// tokens hold at any base the note can reach. A word of up to 8 bytes is
// one key and one value, 16 bytes in all; a word of 9 to 16 bytes has a
// second key, and one of 17 to 32 four keys, one cache line. Longer words
// go to the count path's tables.

// shortTable is an open-addressing table of words of up to 8, 16 or 32
// bytes (its width, 1, 2 or 4 keys, which its first word tells); a full
// table starts over.
type shortTable struct {
	slots []shortSlot
	n     int
	width uint64
}

// shortSlot is a word packed in k0 (k0 is 0 in an empty slot, as words
// hold no NUL byte) and its value: count | firstUnk<<8 | lastUnk<<9 |
// tolerance exponent<<10 | float32 score<<32. A wider table takes a slot
// for each key of a word, the value in the last.
type shortSlot struct{ k0, val uint64 }

// shortKey is a word of up to 32 bytes, 8 to a key, zero padded; a word of
// more than 8k bytes has a key k that is not 0, as words hold no NUL byte.
type shortKey [4]uint64

// shortTables are the tables of one kind of segment, by width.
type shortTables struct{ narrow, wide, long shortTable }

// Bounds of one table, in keys (each takes at most 4 MB: the words of 9
// to 16 bytes of the Rust RFCs alone are over 40,000, and a table that
// keeps starting over counts its words again on every pass), and of the
// words the tables hold.
const (
	shortKeys  = 1 << 17
	shortBytes = 32
	// noTolerance marks a first word's value: it runs from 0 only.
	noTolerance = 0xff
)

// pow2 are the tolerances a value's exponent stands for.
var pow2 = func() (p [256]float64) {
	for e := range p {
		p[e] = math.Ldexp(1, e-128)
	}
	return p
}()

// fastSegment is segment through the short tables: exact counts, and a
// best score within rounding of the exact one.
func (c *wordCache) fastSegment(t *Tokenizer, s string, from, to int, base float64, lead, first bool) (int, float64, bool, bool, float64) {
	w := s[from:to]
	if len(w) == 0 || len(w) > shortBytes || !t.breaks[0] {
		n, next, fu, lu, tol := c.segment(t, w, base, lead, first)
		if !first && w != "" {
			c.vouch(tol, base)
		}
		return n, next, fu, lu, tol
	}
	tab := c.short[segKind(lead, first)].of(len(w))
	var k shortKey
	packShortIn(&k, s, from, to)
	i, v := tab.find(&k)
	if v != 0 {
		n, fu, lu := int(v&0xff), v&(1<<8) != 0, v&(1<<9) != 0
		score := float64(math.Float32frombits(uint32(v >> 32)))
		if first {
			return n, score, fu, lu, math.Inf(-1)
		}
		if tol := pow2[v>>10&0xff]; base < 0 && -base < tol {
			return n, base + score, fu, lu, tol
		}
		if c.walking {
			// A run the walk cannot vouch for is weak whatever its
			// tokens: no range counts it from the running totals.
			return n, base + score, fu, lu, math.Inf(-1)
		}
		n, next, fu, lu, tol := c.segment(t, w, base, lead, false)
		c.vouch(tol, base)
		return n, next, fu, lu, tol
	}
	n, next, fu, lu, tol := c.segment(t, w, base, lead, first)
	exp := noTolerance
	if !first {
		c.vouch(tol, base)
		exp = 0 // a near tie: never trusted, and the walk's run is weak
		if tol >= 1 {
			// Below tol by more than rounding the score can move a base.
			_, e := math.Frexp(min(tol, 0x1p100) * (1 - 0x1p-20)) // in [2^(e-1), 2^e)
			exp = e - 1 + 128
		}
	}
	if n <= 0xff {
		v := uint64(n) | uint64(exp)<<10 | uint64(math.Float32bits(float32(next-base)))<<32
		if fu {
			v |= 1 << 8
		}
		if lu {
			v |= 1 << 9
		}
		tab.add(i, &k, v)
	}
	return n, next, fu, lu, tol
}

// vouch sets c.inexact unless a run after a text's first word, made at a
// best score within rounding of the exact one, holds at the exact one too:
// its tolerance clears the score by more than that rounding.
func (c *wordCache) vouch(tol, base float64) {
	if !(tol > -base*(1+0x1p-20)) {
		c.inexact = true
	}
}

// of is the table of words of n bytes.
func (tabs *shortTables) of(n int) *shortTable {
	switch {
	case n > 16:
		return &tabs.long
	case n > 8:
		return &tabs.wide
	}
	return &tabs.narrow
}

// packShortIn packs the word s[from:to] of 1 to 32 bytes into k, which is
// zero.
func packShortIn(k *shortKey, s string, from, to int) {
	if to-from <= 8 {
		k[0] = packIn(s, from, to)
		return
	}
	k[0] = swar.Load8(s, from)
	for j := 1; ; j++ {
		if from += 8; to-from <= 8 {
			k[j] = packIn(s, from, to)
			return
		}
		k[j] = swar.Load8(s, from)
	}
}

// packIn is pack(s[from:to]) for a word of 1 to 8 bytes: eight bytes read
// at once and masked, where s holds eight from from.
func packIn(s string, from, to int) uint64 {
	if from+8 > len(s) {
		return pack(s[from:to])
	}
	return swar.Load8(s, from) & (^uint64(0) >> (64 - 8*uint(to-from)))
}

// find returns the slot where the word is or would go, and its value (0
// when absent; a value is never 0, as its exponent is not).
func (tab *shortTable) find(k *shortKey) (int, uint64) {
	if tab.slots == nil {
		tab.width = 1
		for tab.width < 4 && k[tab.width] != 0 {
			tab.width *= 2
		}
		tab.slots = make([]shortSlot, tab.width<<12)
	}
	w := tab.width
	mask := uint64(len(tab.slots) - 1)
	for i := tab.home(k); ; i = (i + w) & mask {
		switch s := &tab.slots[i]; s.k0 {
		case k[0]:
			if w == 1 {
				return int(i), s.val
			}
			if tab.rest(i, k) {
				return int(i), tab.slots[i+w-1].val
			}
		case 0:
			return int(i), 0
		}
	}
}

// rest reports whether the word at slot i has k's keys after the first.
func (tab *shortTable) rest(i uint64, k *shortKey) bool {
	for j := uint64(1); j < tab.width; j++ {
		if tab.slots[i+j].k0 != k[j] {
			return false
		}
	}
	return true
}

// home is the slot where a word's probe starts.
func (tab *shortTable) home(k *shortKey) uint64 {
	h := k[0]
	if tab.width > 1 {
		h ^= k[1]*0xC2B2AE3D27D4EB4F ^ k[2]*0x165667B19E3779F9 ^ k[3]*0xD6E8FEB86659FD93
	}
	h *= 0x9E3779B97F4A7C15
	return (h ^ h>>31) & uint64(len(tab.slots)-1) &^ (tab.width - 1)
}

// add stores a word's value at slot i, from find.
func (tab *shortTable) add(i int, k *shortKey, v uint64) {
	switch words := uint64(tab.n) * tab.width; {
	case words >= shortKeys:
		clear(tab.slots)
		tab.n = 0
		i, _ = tab.find(k)
	case 4*(words+tab.width) > 3*uint64(len(tab.slots)):
		tab.grow()
		i, _ = tab.find(k)
	}
	tab.put(uint64(i), k, v)
	tab.n++
}

// put writes a word's keys and value from slot i on.
func (tab *shortTable) put(i uint64, k *shortKey, v uint64) {
	for j := range tab.width {
		tab.slots[i+j] = shortSlot{k[j], 0}
	}
	tab.slots[i+tab.width-1].val = v
}

// grow doubles the slots and places every word again.
func (tab *shortTable) grow() {
	old, w := tab.slots, tab.width
	tab.slots = make([]shortSlot, 2*len(old))
	for j := uint64(0); j < uint64(len(old)); j += w {
		if old[j].k0 != 0 {
			var k shortKey
			for x := range w {
				k[x] = old[j+x].k0
			}
			i, _ := tab.find(&k)
			tab.put(uint64(i), &k, old[j+w-1].val)
		}
	}
}
