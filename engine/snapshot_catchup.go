package engine

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/mdsearch/mdsearch/store"
)

// A snapshot catches up with a commit instead of loading every vector
// again: the rows of the notes the commit changed are marked dead (a
// bitmap the scan skips) and their current windows are appended. The
// arrays are shared with the snapshot caught up from, which never reads
// past its own length, so searches running on it are undisturbed; only the
// bitmap and the map of appended chunks are new. When dead rows pile up
// the snapshot is compacted.

// catchUpShare bounds a catch-up: past this share of the snapshot's notes
// changed, reading everything again costs less than reading the changed
// notes one by one.
const catchUpShare = 8

// compactShare: when more than 1/compactShare of the rows are dead, the
// snapshot is copied without them.
const compactShare = 8

// rowSlack is the share of rows left free at the end of the arrays at
// load, so catch-ups append without copying.
const rowSlack = 32

// errTooMuch says a catch-up would cost more than a load.
var errTooMuch = errors.New("too many notes changed to catch up")

// catchUp returns s brought up to date with the index, or an error
// (store.ErrNoCatchUp, errTooMuch) when it must be loaded again. It
// returns s itself when nothing changed.
func (e *Engine) catchUp(ctx context.Context, s *snapshot) (*snapshot, error) {
	n := &snapshot{loaded: time.Now(), model: s.model, dim: s.dim}
	ver, err := e.st.CatchUp(ctx, s.model, s.ver, func(docs []int64) error {
		if len(docs) > 64 && len(docs) > s.notes/catchUpShare {
			return errTooMuch
		}
		n.inherit(s, docs)
		return nil
	}, n.appendWindow)
	if err != nil {
		return nil, err
	}
	if ver == s.ver {
		return s, nil
	}
	n.ver = ver
	n.weighAppended(s.len(), e.opts.Fusion.HeadingCos)
	if n.dead > n.len()/compactShare {
		n = n.compact()
	}
	return n, nil
}

// inherit makes n s with the rows of docs dead.
func (n *snapshot) inherit(s *snapshot, docs []int64) {
	n.ids, n.docs, n.index, n.secs = s.ids, s.docs, s.index, s.secs
	n.scales, n.heads, n.hi, n.lo, n.row = s.scales, s.heads, s.hi, s.lo, s.row
	n.dead, n.notes = s.dead, s.notes
	n.from = len(n.ids)
	n.gone = slices.Clone(s.gone)
	n.added = make(map[int64]int32, len(s.added))
	for c, r := range s.added {
		n.added[c] = r
	}
	if len(docs) == 0 {
		return
	}
	slices.Sort(docs)
	changed := func(d int64) bool { _, ok := slices.BinarySearch(docs, d); return ok }
	for r := 0; r < len(n.ids); {
		d, end := n.docs[r], r+1
		for end < len(n.ids) && n.docs[end] == d {
			end++
		}
		if changed(d) {
			for i := r; i < end; i++ {
				n.kill(i)
			}
		}
		r = end
	}
}

// kill marks row r dead.
func (s *snapshot) kill(r int) {
	w := r / 64
	if w >= len(s.gone) {
		s.gone = append(s.gone, make([]uint64, w+1-len(s.gone))...)
	}
	if s.gone[w]&(1<<(r%64)) == 0 {
		s.gone[w] |= 1 << (r % 64)
		s.dead++
	}
}

// isDead reports whether row r belongs to a note changed since the load.
func (s *snapshot) isDead(r int) bool {
	w := r / 64
	return w < len(s.gone) && s.gone[w]&(1<<(r%64)) != 0
}

// appendWindow adds one window with its stored vector; a vector of another
// size is skipped, as at load.
func (s *snapshot) appendWindow(w store.WindowRef, vec []byte) error {
	scale, q := store.Int8(vec)
	if len(q) != s.dim {
		return nil
	}
	r := len(s.ids)
	// A chunk's windows come together. The row before the first appended
	// may be a dead one of the same chunk, appended by an earlier
	// catch-up (a note renamed and back): its run is another.
	if r == s.from || s.ids[r-1] != w.ChunkID {
		s.added[w.ChunkID] = int32(r)
		if r == s.from || s.docs[r-1] != w.DocID {
			s.notes++
		}
	}
	s.ids, s.docs = grow(s.ids, w.ChunkID), grow(s.docs, w.DocID)
	s.index, s.secs = grow(s.index, int32(w.Index)), grow(s.secs, w.SectionID)
	s.scales, s.heads = grow(s.scales, scale), grow(s.heads, w.Heading)
	s.appendVec(q)
	return nil
}

// grow appends v, leaving room for more at the end when it must copy.
func grow[T any](a []T, v T) []T {
	a = growBy(a, 1)
	a[len(a)-1] = v
	return a
}

// growBy lengthens a by n zero elements, leaving room for more at the end
// when it must copy.
func growBy[T any](a []T, n int) []T {
	if len(a)+n > cap(a) {
		b := make([]T, len(a), len(a)+len(a)/rowSlack+1024*n)
		copy(b, a)
		a = b
	}
	return a[:len(a)+n]
}

// weighAppended folds the heading weight into the scales of the rows from
// first on, as load does for every row.
func (s *snapshot) weighAppended(first int, cos float64) {
	for i := first; i < len(s.heads); i++ {
		if s.heads[i] {
			s.scales[i] *= float32(cos)
		}
	}
}

// compact copies s without its dead rows, as a load would have read it
// but for row order (changed notes come last).
func (s *snapshot) compact() *snapshot {
	live := s.len() - s.dead
	c := &snapshot{ver: s.ver, loaded: s.loaded, model: s.model, dim: s.dim}
	c.alloc(live)
	k := 0
	for r := range s.ids {
		if s.isDead(r) {
			continue
		}
		c.ids[k], c.docs[k], c.index[k], c.secs[k] = s.ids[r], s.docs[r], s.index[r], s.secs[r]
		c.scales[k], c.heads[k] = s.scales[r], s.heads[r]
		c.copyVec(k, s, r)
		k++
	}
	c.indexRows()
	return c
}

// firstRow is the first row of chunk's windows; ok is false when the
// chunk has no vectors.
func (s *snapshot) firstRow(chunk int64) (int32, bool) {
	if r, ok := s.added[chunk]; ok && !s.isDead(int(r)) { // a later catch-up may have killed them
		return r, true
	}
	r, ok := s.row[chunk]
	if !ok || s.isDead(int(r)) {
		return 0, false
	}
	return r, true
}

// len is the number of rows, dead ones included.
func (s *snapshot) len() int { return len(s.ids) }

// live is the number of rows a search can find.
func (s *snapshot) live() int { return len(s.ids) - s.dead }
