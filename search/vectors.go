package search

import (
	"container/heap"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch/search/dot"
	"github.com/mdsearch/mdsearch/store"
)

// snapshot holds every window vector of one model in memory, as stored
// (int8 with a per-vector scale), for exact parallel scans. The windows of
// one chunk are adjacent rows.
type snapshot struct {
	gen    int64 // store generation it was loaded at
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
	row    map[int64]int32 // first row of each chunk
}

func (s *snapshot) vec(i int) []int8 { return s.vecs[i*s.dim : (i+1)*s.dim] }

// reloadEvery bounds how often searches reload vectors while this process
// is indexing (each batch commit changes the generation).
const reloadEvery = 2 * time.Second

// vectors returns the in-memory vectors for the embedder's model, loading
// or reloading them when the index changed. While this process is indexing
// it may return a snapshot up to reloadEvery old; stale says so, and the
// caller must then check that the chunks it ranks still exist.
func (e *Engine) vectors(ctx context.Context) (s *snapshot, stale bool, err error) {
	gen, err := e.st.Generation(ctx)
	if err != nil {
		return nil, false, err
	}
	cur := e.snap.Load()
	if cur != nil && cur.gen == gen {
		return cur, false, nil
	}
	if cur != nil && e.progress.Load() != nil && time.Since(cur.loaded) < reloadEvery {
		return cur, true, nil
	}
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	if cur = e.snap.Load(); cur != nil && cur.gen == gen {
		return cur, false, nil
	}
	if s, err = e.loadVectors(ctx, gen); err != nil {
		return nil, false, err
	}
	e.snap.Store(s)
	// Commits between reading the generation and scanning make the
	// snapshot newer than gen, never older: the next search reloads.
	return s, false, nil
}

func (e *Engine) loadVectors(ctx context.Context, gen int64) (*snapshot, error) {
	model, err := e.st.ModelID(ctx, e.emb.ModelID())
	if err != nil {
		return nil, err
	}
	s := &snapshot{gen: gen, loaded: time.Now(), model: model, dim: e.emb.Dim(), row: map[int64]int32{}}
	if model == 0 {
		return s, nil
	}
	key, cache, cacheable := e.vectorCacheKey(ctx, gen, model)
	if !cacheable || !readVectorCache(cache, key, s) {
		if key.Gen, err = e.scanVectors(ctx, s); err != nil {
			return nil, err
		}
		if cacheable {
			writeVectorCache(cache, key, s)
		}
	}
	s.weighHeadings(e.opts.Fusion.HeadingCos)
	s.indexChunks()
	return s, nil
}

// scanVectors fills s from the index, scales before the heading weight,
// and returns the generation it read.
func (e *Engine) scanVectors(ctx context.Context, s *snapshot) (gen int64, err error) {
	var bad []int // rows whose vector has another size
	gen, err = e.st.ScanVectorRows(ctx, s.model, s.setWindows, func(i int, vec []byte) error {
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
		return 0, err
	}
	s.drop(bad)
	return gen, nil
}

// weighHeadings folds the heading weight into the scales of heading rows:
// a heading alone is weaker evidence than text, so its cosine counts for
// less (in the scale, so scans are unchanged).
func (s *snapshot) weighHeadings(cos float64) {
	for i, h := range s.heads {
		if h {
			s.scales[i] *= float32(cos)
		}
	}
}

// setWindows sizes the snapshot for refs, one row per window, and fills
// in everything but the vectors and scales. Sized once: appending a
// million rows would regrow the vectors (512 MB at a million windows)
// several times, and the copies left behind set the process's peak memory.
func (s *snapshot) setWindows(refs []store.WindowRef) error {
	n := len(refs)
	s.ids, s.docs, s.scales = make([]int64, n), make([]int64, n), make([]float32, n)
	s.index, s.secs, s.heads = make([]int32, n), make([]int64, n), make([]bool, n)
	s.vecs = make([]int8, n*s.dim)
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

// indexChunks records the first row of each chunk.
func (s *snapshot) indexChunks() {
	for i, id := range s.ids {
		if _, ok := s.row[id]; !ok {
			s.row[id] = int32(i)
		}
	}
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
	return s.topKWith(scanKernel, v, k, allow)
}

// scanKernel is the kernel searches use; benchmarks swap it to compare.
var scanKernel = dot.Best

// topKWith is topK with a given dot-product kernel; every kernel gives the
// same integers, so the same ranking.
func (s *snapshot) topKWith(kern dot.Kernel, v []float32, k int, allow map[int64]bool) []hit {
	q := quantizeQuery(v)
	n := len(s.ids)
	parts := runtime.GOMAXPROCS(0)
	if n < 4096 {
		parts = 1
	}
	heaps := make([]minHeap, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			heaps[p] = s.scan(kern, q, lo, hi, k, allow)
		}()
	}
	wg.Wait()
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

// scan scores rows [lo, hi) a block at a time and keeps the best k.
func (s *snapshot) scan(kern dot.Kernel, q queryVec, lo, hi, k int, allow map[int64]bool) minHeap {
	h := make(minHeap, 0, k+1)
	worst := float32(math.Inf(-1)) // h[0].cos once h is full
	d := s.dim
	dots := make([]int64, scanBlock)
	for b := lo; b < hi; b += scanBlock {
		m := min(scanBlock, hi-b)
		kern.Rows(q.q, s.vecs[b*d:(b+m)*d], dots[:m])
		for j, dp := range dots[:m] {
			r := b + j
			c := float32(dp) * q.scale * s.scales[r]
			if c <= worst || (allow != nil && !allow[s.docs[r]]) {
				continue
			}
			if len(h) < k {
				heap.Push(&h, hit{int32(r), c})
			} else {
				h[0] = hit{int32(r), c}
				heap.Fix(&h, 0)
			}
			if len(h) == k {
				worst = h[0].cos
			}
		}
	}
	return h
}

// chunkCosine is the best cosine of the quantised query q with the
// windows of one chunk, computed as the scan does; ok is false when the
// chunk has no vectors.
func (s *snapshot) chunkCosine(q queryVec, chunk int64) (float64, bool) {
	first, ok := s.row[chunk]
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

type minHeap []hit

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].cos < h[j].cos }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(hit)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
