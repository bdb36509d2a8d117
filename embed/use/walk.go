package use

import (
	"math"
	"strings"
)

// The short-word tables. Ranges walks every word of a note once and then
// counts the first word of every range it is asked for; a lookup in the
// count path's tables (slot, entry, key, path) misses the CPU's caches for
// most of the vocabulary of a large vault. These need less: counts are
// exact, but the best score after a word need not be, as a run's
// tolerance is rounded down well below what rounding the score can move
// (see ranges.go), and the walk's running totals only count runs whose
// tokens hold at any base the note can reach. A word of up to 8 bytes is
// one key and one value, 16 bytes in all; a word of 9 to 16 bytes has a
// second key. Longer words go to the count path's tables.

// shortTable is an open-addressing table of words of up to 8 bytes (or,
// wide, of 9 to 16); a full table starts over.
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
// best score within rounding of the exact one. A segment after the first
// whose tokens it cannot vouch for at the exact best score (a near tie it
// ran the lattice for at the rounded one) sets c.inexact.
func (c *wordCache) fastSegment(t *Tokenizer, w string, base float64, lead, first bool) (int, float64, bool, bool, float64) {
	if len(w) == 0 || len(w) > shortBytes || !t.breaks[0] {
		n, next, fu, lu, tol := c.segment(t, w, base, lead, first)
		if !first && w != "" && !(tol > -base*(1+0x1p-20)) {
			c.inexact = true
		}
		return n, next, fu, lu, tol
	}
	k0, k1 := packShort(w)
	return c.shortSegment(t, w, k0, k1, base, lead, first)
}

// shortTab is the table a segment of n bytes goes to.
func (c *wordCache) shortTab(n int, lead, first bool) *shortTable {
	tabs := &c.shortBare
	switch {
	case first:
		tabs = &c.shortFirst
	case lead:
		tabs = &c.shortLead
	}
	if n > 8 {
		return &tabs.wide
	}
	return &tabs.narrow
}

// shortSegment is fastSegment for a segment w of 1 to 16 bytes, packed.
func (c *wordCache) shortSegment(t *Tokenizer, w string, k0, k1 uint64, base float64, lead, first bool) (int, float64, bool, bool, float64) {
	tab := c.shortTab(len(w), lead, first)
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
		if !(tol > -base*(1+0x1p-20)) {
			c.inexact = true
		}
		return n, next, fu, lu, tol
	}
	n, next, fu, lu, tol := c.segment(t, w, base, lead, first)
	exp := noTolerance
	if !first {
		if !(tol > -base*(1+0x1p-20)) {
			c.inexact = true
		}
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

// walk counts the prepared text s as countFrom does, from its start, and
// tells b the end of every run of tokens. It reads each byte once: a run
// ends at a separator (a space, or U+2581 in non-ASCII text) or a break,
// and the runs between are looked up as countFrom's words and segments.
func (c *wordCache) walk(t *Tokenizer, s string, b *builder) {
	c.walking = true
	defer func() { c.walking = false }()
	base, first, prevUnk := 0.0, true, false
	for i, from, lead := 0, 0, true; ; {
		for i < len(s) && t.plain[s[i]] {
			i++
		}
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
			n, score, firstUnk, lastUnk, tol := c.fastSegment(t, s[from:i], base, lead, first)
			if firstUnk && !lead {
				n-- // merged into the break before it
			}
			b.unit(i, n, tol)
			base, prevUnk, first = score, lastUnk, false
		}
		if i == len(s) {
			return
		}
		if brk {
			n := 1
			if prevUnk {
				n = 0 // merged into the unknown token before it
			}
			b.unit(next, n, math.Inf(1))
			prevUnk = true
		}
		i, from, lead = next, next, sep
	}
}
