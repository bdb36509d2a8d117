package use

import "hash/maphash"

// wordTable maps words to cached lattice runs. It holds no pointers (keys
// and paths live in flat slices), so the garbage collector never scans its
// entries, and a lookup hashes once and compares bytes in place.
type wordTable struct {
	seed    maphash.Seed
	slots   []int32 // open addressing: entry index + 1, 0 when empty
	entries []wordEntry
	keys    []byte
	path    []uint16 // the ids of each entry's best path, in text order
}

// wordEntry is a cached word (without its separator) at keys[key:key+klen]:
// its best path's ids at path[off:off+n], their count with unknown runs
// merged, the smallest gap between two scores its run compared, the |base|
// it ran from, and the best score at its end (used for first words, which
// always run from 0).
type wordEntry struct {
	key, klen int32
	off, n    int32
	count     int32
	hash      uint32
	margin    float64
	ref       float64
	next      float64
}

// Bounds of one table; a full table starts over.
const (
	tableWords = 1 << 17
	tableBytes = 4 << 20
)

func (w *wordTable) find(s string) (*wordEntry, uint32) {
	if w.slots == nil {
		w.seed = maphash.MakeSeed()
		w.slots = make([]int32, 1<<12)
	}
	h := uint32(maphash.String(w.seed, s))
	mask := uint32(len(w.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		k := w.slots[i]
		if k == 0 {
			return nil, h
		}
		if e := &w.entries[k-1]; e.hash == h && int(e.klen) == len(s) && string(w.keys[e.key:e.key+e.klen]) == s {
			return e, h
		}
	}
}

// add stores s with hash h (from find) and the ids of its best path, given
// last first.
func (w *wordTable) add(s string, h uint32, e wordEntry, rev []uint16) {
	if len(w.entries) >= tableWords || len(w.keys)+len(s) > tableBytes {
		clear(w.slots)
		w.entries, w.keys, w.path = w.entries[:0], w.keys[:0], w.path[:0]
	}
	if 2*(len(w.entries)+1) > len(w.slots) {
		w.grow()
	}
	e.key, e.klen, e.hash = int32(len(w.keys)), int32(len(s)), h
	e.off, e.n = int32(len(w.path)), int32(len(rev))
	w.keys = append(w.keys, s...)
	for i := len(rev) - 1; i >= 0; i-- {
		w.path = append(w.path, rev[i])
	}
	w.entries = append(w.entries, e)
	w.place(h, int32(len(w.entries)))
}

func (w *wordTable) place(h uint32, k int32) {
	mask := uint32(len(w.slots) - 1)
	i := h & mask
	for w.slots[i] != 0 {
		i = (i + 1) & mask
	}
	w.slots[i] = k
}

// grow doubles the slots and places every entry again.
func (w *wordTable) grow() {
	w.slots = make([]int32, 2*len(w.slots))
	for k := range w.entries {
		w.place(w.entries[k].hash, int32(k+1))
	}
}

// ids returns e's best path in text order.
func (w *wordTable) ids(e *wordEntry) []uint16 { return w.path[e.off : e.off+e.n] }
