package engine

import (
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/mdsearch/mdsearch/engine/dot"
)

// hit is a row of the snapshot with its cosine to the query.
type hit struct {
	row int32
	cos float32
}

// queryVec is a query quantised for the scan: q[i] ≈ v[i]/scale, 14 bits,
// so integer products with the stored int8 components cannot overflow;
// q8 the same at 7 bits (q8[i] ≈ v[i]/scale8) for the coarse pass, and
// mean what the low nibbles add on average, in q8's units (7.5 Σ q8, less
// the 128 Σ q8 the high nibbles' offset of 8 adds).
type queryVec struct {
	q      []int16
	scale  float32
	q8     []int8
	scale8 float32
	mean   float32
}

func quantizeQuery(v []float32) queryVec {
	var m float32
	for _, x := range v {
		m = max(m, x, -x)
	}
	qv := queryVec{q: make([]int16, len(v)), q8: make([]int8, len(v))}
	if m == 0 {
		return qv
	}
	qv.scale, qv.scale8 = m/16383, m/127
	var sum int
	for i, x := range v {
		qv.q[i] = int16(math.Round(float64(x / qv.scale)))
		qv.q8[i] = int8(math.Round(float64(x / qv.scale8)))
		sum += int(qv.q8[i])
	}
	qv.mean = (7.5 - 128) * float32(sum)
	return qv
}

// topK returns the k rows most similar to v (unit length), best first,
// among rows whose document passes allow (nil: all).
func (s *snapshot) topK(v []float32, k int, allow map[int64]bool) []hit {
	return s.topKWith(scanKernel, v, k, allow, nil)
}

// scanKernel is the kernel searches use; benchmarks swap it to compare.
var scanKernel = dot.Best

// The scan reads memory, not arithmetic: at a million windows the vectors
// are 512 MB, which two cores stream in about 60 ms on a VM with 8.7 GB/s
// of memory bandwidth. So a large snapshot is scanned in two passes. The
// coarse pass reads the high nibble plane alone (half the bytes) and
// estimates every row's cosine from it, the low nibbles taken at their
// mean; the exact pass joins the planes of the best candidates(k) rows
// by that estimate back into int8 vectors and computes their cosines
// exactly, as a scan of every row would. The estimate's error is about a
// tenth of the spread of cosines between rows, so the true best k lie far
// inside the candidates (TestTwoPassSameAsExact, TestScanRecallRealModel).
// A snapshot of at most exactAll(k) rows is scored exactly throughout.

// candidates is how many rows the coarse pass keeps for k hits.
func candidates(k int) int { return max(16*k, minCandidates) }

// exactAll is the largest snapshot scored exactly, row by row: below it
// the vectors are a few MB and the caches hold them.
func exactAll(k int) int { return exactShare * candidates(k) }

// minCandidates and exactShare set candidates and exactAll; tests lower
// them to run both passes on small snapshots.
var minCandidates, exactShare = 4096, 8

// scanMemo keeps one query's cosine with every row from its first scan,
// so the deeper rounds a search may need (copies of a passage left out,
// long notes crowding the others) select among 4 bytes a row instead of
// reading the vectors again. coarse says the cosines are the coarse pass's
// estimates; a round then scores the candidates it picks exactly, as the scan
// does; the candidates of a round that keeps as many as the last are the
// same rows, whose exact cosines the memo keeps too. Rows tie in the same
// order either way, so a round's hits are the same as a scan's.
type scanMemo struct {
	cos    []float32 // per row, once full
	full   bool
	coarse bool
	exact  []hit // the last exact pass's candidates, every one with its exact cosine
	asked  int   // how many candidates that pass was asked for (candidates(k))
}

// cosPool recycles the memos' cosine arrays (4 MB at a million windows).
var cosPool sync.Pool

func (m *scanMemo) release() {
	if m.cos != nil {
		c := m.cos // its own header: the pool's user may change it
		cosPool.Put(&c)
		m.cos, m.full, m.coarse = nil, false, false
		m.exact, m.asked = nil, 0
	}
}

// get returns the memo's array for n rows.
func (m *scanMemo) get(n int) []float32 {
	if m.cos == nil {
		if p, ok := cosPool.Get().(*[]float32); ok && cap(*p) >= n {
			m.cos = (*p)[:n]
		} else {
			m.cos = make([]float32, n)
		}
	}
	return m.cos
}

// topKWith is topK with a given kernel; every kernel gives the same
// integers, so the same ranking. With a memo, the first call scans and
// fills it, and later ones select from it.
func (s *snapshot) topKWith(kern dot.Kernel, v []float32, k int, allow map[int64]bool, memo *scanMemo) []hit {
	q := quantizeQuery(v)
	n := len(s.ids)
	var cos []float32
	if memo != nil {
		cos = memo.get(n)
	}
	var hits []hit
	c := candidates(k)
	switch {
	case memo != nil && memo.full && !memo.coarse:
		return s.parts(n, k, func(lo, hi, k int) []hit { return s.pick(cos, lo, hi, k, allow) })
	case memo != nil && memo.full && memo.asked == c:
		return best(slices.Clone(memo.exact), k) // the same candidates, scored already
	case memo != nil && memo.full:
		hits = s.parts(n, c, func(lo, hi, c int) []hit { return s.pick(cos, lo, hi, c, allow) })
	case n <= exactAll(k):
		hits = s.parts(n, k, func(lo, hi, k int) []hit { return s.scan(kern, q, lo, hi, k, allow, cos) })
		if memo != nil {
			memo.full, memo.coarse = true, false
		}
		return hits
	default:
		hits = s.parts(n, c, func(lo, hi, c int) []hit { return s.coarse(kern, q, lo, hi, c, allow, cos) })
		if memo != nil {
			memo.full, memo.coarse = true, true
		}
	}
	if memo == nil {
		return s.exactPass(kern, q, hits, k)
	}
	memo.exact, memo.asked = s.exactPass(kern, q, hits, len(hits)), c
	return best(slices.Clone(memo.exact), k)
}

// parts runs f over the rows split across cores, each part keeping its
// best k, and returns the best k of them all.
func (s *snapshot) parts(n, k int, f func(lo, hi, k int) []hit) []hit {
	parts := runtime.GOMAXPROCS(0)
	if n < 4096 {
		parts = 1
	}
	kept := make([][]hit, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kept[p] = f(p*n/parts, (p+1)*n/parts, k)
		}()
	}
	wg.Wait()
	var all []hit
	for _, h := range kept {
		all = append(all, h...)
	}
	return best(all, k)
}

// rowPool recycles the buffers rows are joined into, half a megabyte a
// block: allocating and clearing them cost more than joining at 20,000
// windows.
var rowPool sync.Pool

// rowBuf returns a buffer of n int8 components from the pool.
func rowBuf(n int) []int8 {
	if p, ok := rowPool.Get().(*[]int8); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]int8, n)
}

// best sorts hits and keeps the first k.
func best(all []hit, k int) []hit {
	sortHits(all)
	return all[:min(len(all), k)]
}

// scanBlock is how many rows one kernel call scores: enough that a cgo
// call's cost vanishes (1,024 rows of 512 are 512 KB), few enough that the
// scores stay in L1.
const scanBlock = 1024

// scan scores rows [lo, hi) exactly a block at a time and keeps the best
// k; cos, when not nil, gets every row's cosine.
func (s *snapshot) scan(kern dot.Kernel, q queryVec, lo, hi, k int, allow map[int64]bool, cos []float32) []hit {
	t := newTopRows(k, hi-lo)
	d := s.dim
	dots := make([]int64, scanBlock)
	rows := rowBuf(min(scanBlock, hi-lo) * d)
	defer rowPool.Put(&rows)
	for b := lo; b < hi; b += scanBlock {
		m := min(scanBlock, hi-b)
		s.vecs(kern, b, m, rows[:m*d])
		kern.Rows(q.q, rows[:m*d], dots[:m])
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
	return t.best()
}

// coarse estimates the cosines of rows [lo, hi) from the high nibble
// plane and keeps the best k by the estimate; cos, when not nil, gets
// every row's estimate.
func (s *snapshot) coarse(kern dot.Kernel, q queryVec, lo, hi, k int, allow map[int64]bool, cos []float32) []hit {
	t := newTopRows(k, hi-lo)
	h := s.half()
	dots := make([]int32, scanBlock)
	for b := lo; b < hi; b += scanBlock {
		m := min(scanBlock, hi-b)
		kern.Coarse(q.q8, s.hi[b*h:(b+m)*h], dots[:m])
		for j, dp := range dots[:m] {
			r := b + j
			c := (16*float32(dp) + q.mean) * q.scale8 * s.scales[r]
			if cos != nil {
				cos[r] = c
			}
			if c > t.worst {
				t.offer(s, r, c, allow)
			}
		}
	}
	return t.best()
}

// exactPass computes the exact cosines of the candidate rows, in row order
// (as a scan meets them, so ties break alike), split across cores, and
// keeps the best k.
func (s *snapshot) exactPass(kern dot.Kernel, q queryVec, cand []hit, k int) []hit {
	rows := make([]int32, len(cand))
	for i, c := range cand {
		rows[i] = c.row
	}
	slices.Sort(rows)
	return s.parts(len(rows), k, func(lo, hi, k int) []hit { return s.exact(kern, q, rows[lo:hi], k) })
}

// exact scores the listed rows exactly and keeps the best k.
func (s *snapshot) exact(kern dot.Kernel, q queryVec, rows []int32, k int) []hit {
	t := newTopRows(k, len(rows))
	const block = 256
	d := s.dim
	v := rowBuf(block * d)
	defer rowPool.Put(&v)
	dots := make([]int64, block)
	for len(rows) > 0 {
		m := min(block, len(rows))
		for j, r := range rows[:m] {
			s.vecs(kern, int(r), 1, v[j*d:(j+1)*d])
		}
		kern.Rows(q.q, v[:m*d], dots[:m])
		for j, dp := range dots[:m] {
			r := int(rows[j])
			if c := float32(dp) * q.scale * s.scales[r]; c > t.worst {
				t.offer(s, r, c, nil) // candidates passed allow already
			}
		}
		rows = rows[m:]
	}
	return t.best()
}

// pick keeps the best k of rows [lo, hi) by the cosines a scan recorded.
func (s *snapshot) pick(cos []float32, lo, hi, k int, allow map[int64]bool) []hit {
	t := newTopRows(k, hi-lo)
	for r, c := range cos[lo:hi] {
		if c > t.worst {
			t.offer(s, lo+r, c, allow)
		}
	}
	return t.best()
}

// topRows keeps the best k rows offered. A row that beats worst joins
// buf; when buf holds 2k rows it is cut to its best k (a selection, linear
// on average), whose least sets worst. Rows come in ascending order, so a
// row that ties worst comes after every row kept, and is worse.
type topRows struct {
	buf   []hit
	k     int
	worst float32
}

// newTopRows keeps the best k of at most rows rows.
func newTopRows(k, rows int) topRows {
	return topRows{buf: make([]hit, 0, max(0, min(2*k, rows))+1), k: k, worst: float32(math.Inf(-1))}
}

// offer considers row r of s with cosine c, which beats t.worst.
func (t *topRows) offer(s *snapshot, r int, c float32, allow map[int64]bool) {
	if (allow != nil && !allow[s.docs[r]]) || (s.dead > 0 && s.isDead(r)) {
		return
	}
	t.buf = append(t.buf, hit{int32(r), c})
	if len(t.buf) >= 2*t.k {
		t.cut()
	}
}

// cut keeps the best k rows of buf and raises worst to the least of them.
func (t *topRows) cut() {
	if len(t.buf) <= t.k {
		return
	}
	selectBest(t.buf, t.k)
	t.buf = t.buf[:t.k]
	if t.k == 0 {
		t.worst = float32(math.Inf(1))
		return
	}
	w := t.buf[0]
	for _, h := range t.buf[1:] {
		if worse(h, w) {
			w = h
		}
	}
	t.worst = w.cos
}

// best returns the best k rows offered, in no order.
func (t *topRows) best() []hit {
	t.cut()
	return t.buf
}

// selectBest reorders h so that its first k hits are its best k, in no
// order (Hoare's selection: linear on average).
func selectBest(h []hit, k int) {
	lo, hi := 0, len(h)-1
	for lo < hi {
		p := h[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for worse(p, h[i]) {
				i++
			}
			for worse(h[j], p) {
				j--
			}
			if i <= j {
				h[i], h[j] = h[j], h[i]
				i, j = i+1, j-1
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
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
	top := float32(math.Inf(-1))
	for r := int(first); r < len(s.ids) && s.ids[r] == chunk; r++ {
		top = max(top, float32(dotRow(q, s, r))*q.scale*s.scales[r])
	}
	return float64(top), true
}

// dotRow is the integer dot product of q with row r, read from the planes
// in place.
func dotRow(q queryVec, s *snapshot, r int) int64 {
	h := s.half()
	return dot.DotPlanes(q.q, s.hi[r*h:(r+1)*h], s.lo[r*h:(r+1)*h])
}

// worse orders hits as sortHits does, backwards.
func worse(a, b hit) bool { return a.cos < b.cos || (a.cos == b.cos && a.row > b.row) }
