package search

import (
	"container/heap"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mdsearch/mdsearch/search/dot"
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
	vecs   []int8          // rows × dim
	row    map[int64]int32 // first row of each chunk loaded
	notes  int             // documents with rows, about
	base   int             // rows when loaded or compacted

	// After a catch-up: rows of changed notes (bits of gone, dead of them)
	// and the first row of each chunk appended, which row may still name.
	gone  []uint64
	dead  int
	added map[int64]int32
}

func (s *snapshot) vec(i int) []int8 { return s.vecs[i*s.dim : (i+1)*s.dim] }

// reloadEvery bounds how often searches reload vectors while this process
// is indexing (each batch commit changes the generation) and the
// snapshot cannot catch up.
const reloadEvery = 2 * time.Second

// vectors returns the in-memory vectors for the embedder's model, catching
// up with the index or loading them again when it changed. While this
// process is indexing it may return a snapshot up to reloadEvery old;
// stale says so, and the caller must then check that the chunks it ranks
// still exist.
func (e *Engine) vectors(ctx context.Context) (s *snapshot, stale bool, err error) {
	gen, err := e.st.Generation(ctx)
	if err != nil {
		return nil, false, err
	}
	cur := e.snap.Load()
	if cur != nil && cur.ver.Gen == gen {
		return cur, false, nil
	}
	e.snapMu.Lock()
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
		if e.progress.Load() != nil && time.Since(cur.loaded) < reloadEvery {
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
		copy(s.vec(i), q)
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
	s.vecs = make([]int8, n*s.dim, cap(s.ids)*s.dim)
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
		copy(s.vec(keep), s.vec(i))
		keep++
	}
	s.ids, s.docs, s.index = s.ids[:keep], s.docs[:keep], s.index[:keep]
	s.secs, s.heads, s.scales = s.secs[:keep], s.heads[:keep], s.scales[:keep]
	s.vecs = s.vecs[:keep*s.dim]
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

// hit is a row of the snapshot with its cosine to the query.
type hit struct {
	row int32
	cos float32
}

// queryVec is a query quantised for the scan: q[i] ≈ v[i]/scale, 14 bits,
// so integer products with the stored int8 components cannot overflow.
type queryVec struct {
	q     []int16
	scale float32
}

func quantizeQuery(v []float32) queryVec {
	var m float32
	for _, x := range v {
		m = max(m, x, -x)
	}
	qv := queryVec{q: make([]int16, len(v))}
	if m == 0 {
		return qv
	}
	qv.scale = m / 16383
	for i, x := range v {
		qv.q[i] = int16(math.Round(float64(x / qv.scale)))
	}
	return qv
}

// topK returns the k rows most similar to v (unit length), best first,
// among rows whose document passes allow (nil: all). The scan is split
// across cores; each part keeps its own heap.
func (s *snapshot) topK(v []float32, k int, allow map[int64]bool) []hit {
	return s.topKWith(scanKernel, v, k, allow, nil)
}

// scanKernel is the kernel searches use; benchmarks swap it to compare.
var scanKernel = dot.Best

// scanMemo keeps one query's cosine with every row from its first scan,
// so the deeper rounds a search may need (copies of a passage left out,
// long notes crowding the others) select among 4 bytes a row instead of
// reading the vectors (dim bytes a row) again. Rows tie in the same order
// either way, so a round's hits are the same as a scan's.
type scanMemo struct {
	cos  []float32 // per row, once full
	full bool
}

// cosPool recycles the memos' cosine arrays (4 MB at a million windows).
var cosPool sync.Pool

func (m *scanMemo) release() {
	if m.cos != nil {
		cosPool.Put(&m.cos)
		m.cos, m.full = nil, false
	}
}

// topKWith is topK with a given dot-product kernel; every kernel gives the
// same integers, so the same ranking. With a memo, the first call scans
// and fills it, and later ones select from it.
func (s *snapshot) topKWith(kern dot.Kernel, v []float32, k int, allow map[int64]bool, memo *scanMemo) []hit {
	q := quantizeQuery(v)
	n := len(s.ids)
	var cos []float32
	if memo != nil {
		if memo.cos == nil {
			if p, ok := cosPool.Get().(*[]float32); ok && cap(*p) >= n {
				memo.cos = (*p)[:n]
			} else {
				memo.cos = make([]float32, n)
			}
		}
		cos = memo.cos
	}
	parts := runtime.GOMAXPROCS(0)
	if n < 4096 || (memo != nil && memo.full) {
		parts = 1 // a selection among cosines is too quick to split
	}
	heaps := make([]minHeap, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			if memo != nil && memo.full {
				heaps[p] = s.pick(cos, lo, hi, k, allow)
			} else {
				heaps[p] = s.scan(kern, q, lo, hi, k, allow, cos)
			}
		}()
	}
	wg.Wait()
	if memo != nil {
		memo.full = true
	}
	var all []hit
	for _, h := range heaps {
		all = append(all, h...)
	}
	sortHits(all)
	if len(all) > k {
		all = all[:k]
	}
	return all
}

// scanBlock is how many rows one kernel call scores: enough that a cgo
// call's cost vanishes (1,024 rows of 512 are 512 KB), few enough that the
// scores stay in L1.
const scanBlock = 1024

// scan scores rows [lo, hi) a block at a time and keeps the best k; cos,
// when not nil, gets every row's cosine.
func (s *snapshot) scan(kern dot.Kernel, q queryVec, lo, hi, k int, allow map[int64]bool, cos []float32) minHeap {
	t := topRows{h: make(minHeap, 0, k+1), k: k, worst: float32(math.Inf(-1))}
	d := s.dim
	dots := make([]int64, scanBlock)
	for b := lo; b < hi; b += scanBlock {
		m := min(scanBlock, hi-b)
		kern.Rows(q.q, s.vecs[b*d:(b+m)*d], dots[:m])
		for j, dp := range dots[:m] {
			r := b + j
			c := float32(dp) * q.scale * s.scales[r]
			if cos != nil {
				cos[r] = c
			}
			if c > t.worst {
				t.offer(s, r, c, allow)
			}
		}
	}
	return t.h
}

// pick keeps the best k of rows [lo, hi) by the cosines a scan recorded.
func (s *snapshot) pick(cos []float32, lo, hi, k int, allow map[int64]bool) minHeap {
	t := topRows{h: make(minHeap, 0, k+1), k: k, worst: float32(math.Inf(-1))}
	for r, c := range cos[lo:hi] {
		if c > t.worst {
			t.offer(s, lo+r, c, allow)
		}
	}
	return t.h
}

// topRows keeps the best k rows offered, in a min-heap: worst is the
// least cosine of them once there are k, and a row must beat it (rows
// come in ascending order, so one that ties comes after every row kept).
type topRows struct {
	h     minHeap
	k     int
	worst float32
}

// offer considers row r of s with cosine c, which beats t.worst.
func (t *topRows) offer(s *snapshot, r int, c float32, allow map[int64]bool) {
	if (allow != nil && !allow[s.docs[r]]) || (s.dead > 0 && s.isDead(r)) {
		return
	}
	if len(t.h) < t.k {
		heap.Push(&t.h, hit{int32(r), c})
	} else {
		t.h[0] = hit{int32(r), c}
		heap.Fix(&t.h, 0)
	}
	if len(t.h) == t.k {
		t.worst = t.h[0].cos
	}
}

// chunkCosine is the best cosine of the quantised query q with the
// windows of one chunk, computed as the scan does; ok is false when the
// chunk has no vectors.
func (s *snapshot) chunkCosine(q queryVec, chunk int64) (float64, bool) {
	first, ok := s.firstRow(chunk)
	if !ok {
		return 0, false
	}
	best := float32(math.Inf(-1))
	for r := int(first); r < len(s.ids) && s.ids[r] == chunk; r++ {
		best = max(best, float32(dotRow(q, s, r))*q.scale*s.scales[r])
	}
	return float64(best), true
}

// dotRow is the integer dot product of q with row r.
func dotRow(q queryVec, s *snapshot, r int) int64 { return dot.Dot(q.q, s.vec(r)) }

// minHeap holds the best hits found so far, the worst on top: the least
// cosine, and of those that tie the last row, so the hits kept are the
// best k in the order sortHits gives, whatever the order rows come in.
type minHeap []hit

// worse orders hits as sortHits does, backwards.
func worse(a, b hit) bool { return a.cos < b.cos || (a.cos == b.cos && a.row > b.row) }

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(hit)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
