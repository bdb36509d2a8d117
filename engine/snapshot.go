package engine

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/mdsearch/mdsearch/store"
)

// snapshot holds every window vector of one model in memory, as stored
// (int8 with a per-vector scale), for exact parallel scans. The windows of
// one chunk are adjacent rows. A snapshot is never changed once searches
// can see it; catching up with a commit makes a new one (see catchUp).
type snapshot struct {
	ver    store.Version // the index version it holds
	loaded time.Time
	model  int64
	dim    int
	ids    []int64         // chunk id per row
	docs   []int64         // document id per row
	index  []int32         // chunk index within its note, per row
	secs   []int64         // the chunk's section, per row
	scales []float32       // per row
	heads  []bool          // per row: the passage's heading window
	hi, lo []byte          // the int8 vectors as nibble planes (snapshot_planes.go)
	row    map[int64]int32 // first row of each chunk loaded
	notes  int             // documents with rows, about
	base   int             // rows when loaded or compacted

	// After a catch-up: rows of changed notes (bits of gone, dead of them)
	// and the first row of each chunk appended, which row may still name.
	gone  []uint64
	dead  int
	added map[int64]int32
	from  int // rows before the latest catch-up's: the first it appends starts a chunk's run
}

// reloadEvery bounds how often searches reload vectors while this process
// is indexing (each batch commit changes the generation) and the
// snapshot cannot catch up.
const reloadEvery = 2 * time.Second

// vectors returns the in-memory vectors for the embedder's model, catching
// up with the index or loading them again when it changed. While an index
// run (this process's or another's) commits batch after batch faster than
// a snapshot catches up, it may return a snapshot up to reloadEvery old,
// and while another search brings the snapshot up to date, the one it
// has: stale says so, and the caller must then check that the chunks it
// ranks still exist. Searches then queued one behind another's load for
// each of the run's commits, and an agent's first searches took as long
// as the whole run.
func (e *Engine) vectors(ctx context.Context) (s *snapshot, stale bool, err error) {
	gen, err := e.st.Generation(ctx)
	if err != nil {
		return nil, false, err
	}
	cur := e.snap.Load()
	if cur != nil && cur.ver.Gen == gen {
		return cur, false, nil
	}
	indexing := cur != nil && cur.model != 0 && e.indexing()
	if !indexing {
		e.snapMu.Lock()
	} else if !e.snapMu.TryLock() {
		return cur, true, nil // another search is bringing it up to date
	}
	defer e.snapMu.Unlock()
	if cur = e.snap.Load(); cur != nil && cur.ver.Gen == gen {
		return cur, false, nil
	}
	if cur != nil && cur.model != 0 && !noCatchUp {
		if s, err = e.catchUp(ctx, cur); err == nil {
			e.snap.Store(s)
			return s, false, nil
		}
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		if indexing && time.Since(cur.loaded) < reloadEvery {
			return cur, true, nil
		}
	}
	if s, err = e.loadVectors(ctx, gen); err != nil {
		return nil, false, err
	}
	e.snap.Store(s)
	// Commits between reading the generation and scanning make the
	// snapshot newer than gen, never older: the next search catches up.
	return s, false, nil
}

// indexing reports whether an index run writes the index now: this
// process's, or another's (it holds the index's lock).
func (e *Engine) indexing() bool {
	return e.progress.Load() != nil || indexHeld(e.st.Path())
}

// noCatchUp makes every change load the snapshot again: benchmarks set it
// to compare.
var noCatchUp bool

// vectorLoads counts snapshots read whole (from the index or a cache
// file), for tests to tell a load from a catch-up.
var vectorLoads atomic.Int64

func (e *Engine) loadVectors(ctx context.Context, gen int64) (*snapshot, error) {
	vectorLoads.Add(1)
	model, err := e.st.ModelID(ctx, e.emb.ModelID())
	if err != nil {
		return nil, err
	}
	s := &snapshot{ver: store.Version{Gen: gen, Logged: -1}, loaded: time.Now(), model: model, dim: e.emb.Dim()}
	if model == 0 {
		return s, nil
	}
	key, cache, cacheable := e.vectorCacheKey(ctx, model)
	if cacheable {
		if c := readVectorCache(cache, key); c != nil {
			if n, err := e.catchUp(ctx, c); err == nil {
				if n.changedShare() > 1.0/rowSlack {
					writeVectorCache(cache, key, n)
				}
				return n, nil
			}
		}
	}
	if err := e.scanVectors(ctx, s); err != nil {
		return nil, err
	}
	s.weighHeadings(e.opts.Fusion.HeadingCos)
	s.indexRows()
	if cacheable {
		writeVectorCache(cache, key, s)
	}
	return s, nil
}

// scanVectors fills s from the index, with the version it read.
func (e *Engine) scanVectors(ctx context.Context, s *snapshot) (err error) {
	var bad []int // rows whose vector has another size
	s.ver, err = e.st.ScanVectorRows(ctx, s.model, s.setWindows, func(i int, vec []byte) error {
		scale, q := store.Int8(vec)
		if len(q) != s.dim {
			bad = append(bad, i) // written by a model of the same name and another size; never matches
			return nil
		}
		s.scales[i] = scale
		s.setVec(i, q)
		return nil
	})
	if err != nil {
		return err
	}
	s.drop(bad)
	return nil
}

// weighHeadings folds the heading weight into the scales of heading rows:
// a heading alone is weaker evidence than text, so its cosine counts for
// less (in the scale, so scans are unchanged).
func (s *snapshot) weighHeadings(cos float64) { s.weighAppended(0, cos) }

// alloc sizes the snapshot for n rows, with room to catch up without
// copying. Sized once: appending a million rows would regrow the vectors
// (512 MB at a million windows) several times, and the copies left behind
// set the process's peak memory.
func (s *snapshot) alloc(n int) {
	s.allocRows(n)
	s.allocVecs(n)
}

// allocRows is alloc but for the vectors.
func (s *snapshot) allocRows(n int) {
	c := n + n/rowSlack + 64
	s.ids, s.docs, s.secs = make([]int64, n, c), make([]int64, n, c), make([]int64, n, c)
	s.index, s.scales, s.heads = make([]int32, n, c), make([]float32, n, c), make([]bool, n, c)
}

// setWindows sizes the snapshot for refs, one row per window, and fills
// in everything but the vectors and scales.
func (s *snapshot) setWindows(refs []store.WindowRef) error {
	s.alloc(len(refs))
	for i, w := range refs {
		s.ids[i], s.docs[i], s.index[i] = w.ChunkID, w.DocID, int32(w.Index)
		s.secs[i], s.heads[i] = w.SectionID, w.Heading
	}
	return nil
}

// drop removes the rows listed in bad.
func (s *snapshot) drop(bad []int) {
	if len(bad) == 0 {
		return
	}
	slices.Sort(bad)
	keep := 0
	for i := range s.ids {
		if len(bad) > 0 && bad[0] == i {
			bad = bad[1:]
			continue
		}
		s.ids[keep], s.docs[keep], s.index[keep] = s.ids[i], s.docs[i], s.index[i]
		s.secs[keep], s.heads[keep], s.scales[keep] = s.secs[i], s.heads[i], s.scales[i]
		s.copyVec(keep, s, i)
		keep++
	}
	s.ids, s.docs, s.index = s.ids[:keep], s.docs[:keep], s.index[:keep]
	s.secs, s.heads, s.scales = s.secs[:keep], s.heads[:keep], s.scales[:keep]
	s.truncVecs(keep)
}

// indexRows records the first row of each chunk and counts the notes.
func (s *snapshot) indexRows() {
	s.row = make(map[int64]int32, len(s.ids)/4)
	s.added = map[int64]int32{}
	s.notes, s.base = 0, len(s.ids)
	for i, id := range s.ids {
		if _, ok := s.row[id]; !ok {
			s.row[id] = int32(i)
		}
		if i == 0 || s.docs[i-1] != s.docs[i] {
			s.notes++
		}
	}
}

// changedShare is the share of rows a catch-up touched since the load.
func (s *snapshot) changedShare() float64 {
	if s.len() == 0 {
		return 0
	}
	return float64(s.dead+s.len()-s.base) / float64(s.len())
}
