package use

import "math"

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
// second key. Longer words go to the count path's tables.

// shortTable is an open-addressing table of words of up to 8 bytes (or,
// wide, of 9 to 16, which its first word tells); a full table starts over.
type shortTable struct {
	slots []shortSlot
	n     int
	wide  bool
}

// shortSlot is a word packed in k0 (k0 is 0 in an empty slot, as words
// hold no NUL byte) and its value: count | firstUnk<<8 | lastUnk<<9 |
// tolerance exponent<<10 | float32 score<<32. A wide table takes two slots
// a word: k0 and no value, then k1 and the value.
type shortSlot struct{ k0, val uint64 }

// shortTables are the tables of one kind of segment.
type shortTables struct{ narrow, wide shortTable }

// Bounds of one table, in words (a narrow table takes at most 4 MB, a wide
// one 2 MB), and of the words the tables hold.
const (
	shortWords = 1 << 17
	wideWords  = 1 << 15
	shortBytes = 16
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
func (c *wordCache) fastSegment(t *Tokenizer, w string, base float64, lead, first bool) (int, float64, bool, bool, float64) {
	if len(w) == 0 || len(w) > shortBytes || !t.breaks[0] {
		n, next, fu, lu, tol := c.segment(t, w, base, lead, first)
		if !first && w != "" {
			c.vouch(tol, base)
		}
		return n, next, fu, lu, tol
	}
	tab := c.short[segKind(lead, first)].of(len(w))
	k0, k1 := packShort(w)
	i, v := tab.find(k0, k1)
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
		tab.add(i, k0, k1, v)
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
	if n > 8 {
		return &tabs.wide
	}
	return &tabs.narrow
}

// packShort packs a word of 1 to 16 bytes.
func packShort(w string) (uint64, uint64) {
	if len(w) <= 8 {
		return pack(w), 0
	}
	return pack(w[:8]), pack(w[8:])
}

// find returns the slot where the word is or would go, and its value (0
// when absent; a value is never 0, as its exponent is not).
func (tab *shortTable) find(k0, k1 uint64) (int, uint64) {
	if tab.slots == nil {
		tab.wide = k1 != 0 // words of more than 8 bytes
		tab.slots = make([]shortSlot, tab.width()<<12)
	}
	w := tab.width()
	mask := uint64(len(tab.slots) - 1)
	for i := tab.home(k0, k1); ; i = (i + w) & mask {
		switch s := &tab.slots[i]; s.k0 {
		case k0:
			if !tab.wide {
				return int(i), s.val
			}
			if x := &tab.slots[i+1]; x.k0 == k1 {
				return int(i), x.val
			}
		case 0:
			return int(i), 0
		}
	}
}

// width is how many slots a word takes.
func (tab *shortTable) width() uint64 {
	if tab.wide {
		return 2
	}
	return 1
}

// home is the slot where a word's probe starts.
func (tab *shortTable) home(k0, k1 uint64) uint64 {
	h := (k0 ^ k1*0xC2B2AE3D27D4EB4F) * 0x9E3779B97F4A7C15
	return (h ^ h>>31) & uint64(len(tab.slots)-1) &^ (tab.width() - 1)
}

// add stores a word's value at slot i, from find.
func (tab *shortTable) add(i int, k0, k1, v uint64) {
	switch n := len(tab.slots) / int(tab.width()); {
	case tab.n >= shortWords || tab.wide && tab.n >= wideWords:
		clear(tab.slots)
		tab.n = 0
		i, _ = tab.find(k0, k1)
	case 4*(tab.n+1) > 3*n:
		tab.grow()
		i, _ = tab.find(k0, k1)
	}
	tab.put(i, k0, k1, v)
	tab.n++
}

func (tab *shortTable) put(i int, k0, k1, v uint64) {
	if tab.wide {
		tab.slots[i], tab.slots[i+1] = shortSlot{k0, 0}, shortSlot{k1, v}
	} else {
		tab.slots[i] = shortSlot{k0, v}
	}
}

// grow doubles the slots and places every word again.
func (tab *shortTable) grow() {
	old, w := tab.slots, int(tab.width())
	tab.slots = make([]shortSlot, 2*len(old))
	for j := 0; j < len(old); j += w {
		if k0 := old[j].k0; k0 != 0 {
			k1, v := uint64(0), old[j].val
			if tab.wide {
				k1, v = old[j+1].k0, old[j+1].val
			}
			i, _ := tab.find(k0, k1)
			tab.put(i, k0, k1, v)
		}
	}
}
