package sentenceencoder

import "hash/maphash"

// wordTable maps words to cached lattice runs. It holds no pointers (keys
// and paths live in flat slices), so the garbage collector never scans it.
// Most words are at most 8 bytes with at most 4 tokens: those are held in
// the entry itself, so a hit reads one slot and one entry.
type wordTable struct {
	seed    maphash.Seed
	slots   []uint64 // open addressing: hash<<32 | entry index + 1; 0 when empty
	entries []wordEntry
	keys    []byte   // words over 8 bytes
	path    []uint16 // paths over 4 ids, in text order
}

// wordEntry is a cached word (without its separator): its best path's ids,
// their count with unknown runs merged, the smallest gap between two
// scores its run compared, the |base| it ran from, and the best score at
// its end (used for first words, which always run from 0).
type wordEntry struct {
	short    uint64 // the word when klen <= 8, little-endian, zero padded
	inline   uint64 // the path when n <= 4, first id in the low bits
	key      int32  // the word at keys[key:key+klen] when klen > 8
	klen     int32
	off, n   int32 // the path at path[off:off+n] when n > 4
	count    int32
	firstUnk bool // the path starts with an unknown token
	lastUnk  bool // and ends with one
	margin   float64
	ref      float64
	next     float64
}

// Bounds of one table; a full table starts over.
const (
	tableWords = 1 << 17
	tableBytes = 2 << 20
	// maxTableWord is the longest word kept: a longer one (a 9 MB run of
	// punctuation) is rarely met twice, and copying it and its path in
	// took hundreds of megabytes.
	maxTableWord = 4 << 10
)

// pack is s in a uint64 when len(s) <= 8.
func pack(s string) uint64 {
	var v uint64
	for i := len(s) - 1; i >= 0; i-- {
		v = v<<8 | uint64(s[i])
	}
	return v
}

func (w *wordTable) hash(s string) uint32 {
	if len(s) <= 8 {
		v := (pack(s) ^ uint64(len(s))<<59) * 0x9E3779B97F4A7C15
		return uint32(v>>32) ^ uint32(v)
	}
	return uint32(maphash.String(w.seed, s))
}

// find returns s's entry, or nil, and s's hash for add.
func (w *wordTable) find(s string) (*wordEntry, uint32) {
	if w.slots == nil {
		w.seed = maphash.MakeSeed()
		w.slots = make([]uint64, 1<<12)
	}
	h := w.hash(s)
	mask := uint32(len(w.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		k := w.slots[i]
		if k == 0 {
			return nil, h
		}
		if uint32(k>>32) != h {
			continue
		}
		e := &w.entries[uint32(k)-1]
		if int(e.klen) != len(s) {
			continue
		}
		if len(s) <= 8 && e.short == pack(s) || len(s) > 8 && string(w.keys[e.key:e.key+e.klen]) == s {
			return e, h
		}
	}
}

// add stores s with hash h (from find) and the ids of its best path, given
// last first.
func (w *wordTable) add(s string, h uint32, e wordEntry, rev []uint16) {
	if len(s) > maxTableWord {
		return
	}
	if len(w.entries) >= tableWords || len(w.keys)+len(s) > tableBytes || len(w.path)+len(rev) > tableBytes {
		clear(w.slots)
		w.entries, w.keys, w.path = w.entries[:0], w.keys[:0], w.path[:0]
	}
	if 2*(len(w.entries)+1) > len(w.slots) {
		w.grow()
	}
	e.klen, e.n = int32(len(s)), int32(len(rev))
	if len(s) <= 8 {
		e.short = pack(s)
	} else {
		e.key = int32(len(w.keys))
		w.keys = append(w.keys, s...)
	}
	if len(rev) <= 4 {
		for _, id := range rev { // last first: the first id ends up lowest
			e.inline = e.inline<<16 | uint64(id)
		}
	} else {
		e.off = int32(len(w.path))
		for i := len(rev) - 1; i >= 0; i-- {
			w.path = append(w.path, rev[i])
		}
	}
	w.entries = append(w.entries, e)
	w.place(uint64(h)<<32 | uint64(len(w.entries)))
}

func (w *wordTable) place(slot uint64) {
	mask := uint32(len(w.slots) - 1)
	i := uint32(slot>>32) & mask
	for w.slots[i] != 0 {
		i = (i + 1) & mask
	}
	w.slots[i] = slot
}

// grow doubles the slots and places every entry again.
func (w *wordTable) grow() {
	old := w.slots
	w.slots = make([]uint64, 2*len(old))
	for _, k := range old {
		if k != 0 {
			w.place(k)
		}
	}
}

// replay adds the scores of e's best path to base in text order, as the
// lattice did, and returns the best score at the word's end.
func (w *wordTable) replay(e *wordEntry, scoreOf []float64, base float64) float64 {
	if e.n <= 4 {
		for v, i := e.inline, int32(0); i < e.n; v, i = v>>16, i+1 {
			if id := uint16(v); id != 0 {
				base = scoreOf[id] + base
			}
		}
		return base
	}
	for _, id := range w.path[e.off : e.off+e.n] {
		if id != 0 {
			base = scoreOf[id] + base
		}
	}
	return base
}
