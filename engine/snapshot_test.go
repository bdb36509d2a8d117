package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/engine/dot"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// TestTopKKernelsAgree: every dot-product kernel gives the scan the same
// hits, rows and cosines, as the portable Go loop: with and without a
// document filter, one part or one per core, odd row counts.
func TestTopKKernelsAgree(t *testing.T) {
	t.Run("exact", topKKernelsAgree)
	t.Run("two-pass", func(t *testing.T) { twoPass(t); topKKernelsAgree(t) })
}

func topKKernelsAgree(t *testing.T) {
	for _, n := range []int{1, 3, 5, 1023, 1025, 4097, 20_011} {
		s := randomSnapshot(n, 512)
		r := rand.New(rand.NewSource(int64(n)))
		allow := map[int64]bool{}
		for d := range int64(n/8 + 1) {
			allow[d] = r.Intn(3) == 0
		}
		for _, k := range []int{1, 10, 100} {
			for _, filter := range []map[int64]bool{nil, allow} {
				q := make([]float32, 512)
				randomUnit(r, q)
				want := s.topKWith(dot.Go, q, k, filter, nil)
				if len(want) == 0 && filter == nil {
					t.Fatalf("%d rows: no hits", n)
				}
				for _, kern := range dot.Kernels()[1:] {
					got := s.topKWith(kern, q, k, filter, nil)
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("%s, %d rows, k=%d, filtered %v:\n got %v\nwant %v", kern.Name, n, k, filter != nil, got, want)
					}
				}
			}
		}
	}
}

// TestTopKMemo checks that deeper rounds selected from a memo of the
// first scan's cosines give exactly the hits a scan gives, ties included
// (the vectors are drawn from a few, so many rows tie), with and without
// a filter and dead rows.
func TestTopKMemo(t *testing.T) {
	s := randomSnapshot(20_011, 64)
	for r := range s.ids { // few distinct vectors: ties everywhere
		s.copyVec(r, s, r%7)
		s.scales[r] = s.scales[r%7]
	}
	r := rand.New(rand.NewSource(1))
	allow := map[int64]bool{}
	for d := range int64(len(s.ids)/8 + 1) {
		allow[d] = r.Intn(3) > 0
	}
	dead := *s
	dead.gone, dead.dead = nil, 0
	for r := 0; r < len(s.ids); r += 5 {
		dead.kill(r)
	}
	for _, pass := range []string{"exact", "two-pass", "two-pass, rounds sharing candidates"} {
		switch pass {
		case "two-pass":
			twoPass(t)
		case "two-pass, rounds sharing candidates": // k = 100, 120, 128: 2,048 candidates each
			minCandidates = 2048
		}
		topKMemo(t, pass, s, &dead, allow, r)
	}
}

// twoPass makes every scan of the test take both passes.
func twoPass(t testing.TB) {
	c, e := minCandidates, exactShare
	minCandidates, exactShare = 0, 0
	t.Cleanup(func() { minCandidates, exactShare = c, e })
}

func topKMemo(t *testing.T, pass string, s, dead *snapshot, allow map[int64]bool, r *rand.Rand) {
	for _, snap := range []*snapshot{s, dead} {
		for _, filter := range []map[int64]bool{nil, allow} {
			q := make([]float32, 64)
			randomUnit(r, q)
			var memo scanMemo
			for _, k := range []int{100, 120, 128, 400, 1600, 6400} {
				want := snap.topKWith(dot.Best, q, k, filter, nil)
				got := snap.topKWith(dot.Best, q, k, filter, &memo)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s, k=%d, filtered %v, dead rows %d: the memo's hits differ from a scan's", pass, k, filter != nil, snap.dead)
				}
			}
			memo.release()
		}
	}
}

// readQueries returns the "query" field of each line of a JSONL file.
func readQueries(t *testing.T, path string, limit int) []string {
	f, err := os.Open(path)
	if err != nil {
		testenv.Absent(t, "corpus missing: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(out) < limit {
		var q struct{ Query string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q.Query)
	}
	return out
}

// TestScanRecallRealModel measures recall@10 of the engine's scan (int8
// vectors, the fastest kernel) against exact float32 cosine on real
// vectors: windows of the Rust book embedded by the local model, queried
// with the book's and the Vue docs' link sentences. Both kernels must
// also agree hit for hit.
func TestScanRecallRealModel(t *testing.T) {
	const windows, k = 2000, 10
	m := realModel(t)
	start := time.Now()
	e := openEngine(t, t.TempDir()+"/index.db", nil)
	index(t, e, testenv.NeedCorpora(t, "rust-book", "src"), "book")
	texts, err := e.st.EmbedTexts(bg)
	if err != nil {
		t.Fatal(err)
	}
	if len(texts) < 2000 {
		t.Fatalf("%d windows in the Rust book, want at least 2,000", len(texts))
	}
	exact, err := m.Embed(bg, texts[:min(len(texts), windows)])
	if err != nil {
		t.Fatal(err)
	}
	s := snapshotOf(m.Dim(), exact)
	queries := append(readQueries(t, testenv.Corpora("rust-book", "queries.jsonl"), 86),
		readQueries(t, testenv.Corpora("vue-docs", "queries.jsonl"), 64)...)
	qv, err := m.Embed(bg, queries)
	if err != nil {
		t.Fatal(err)
	}
	recall := func(t *testing.T) { scanRecall(t, s, exact, qv) }
	t.Run("exact", recall)
	t.Run("two-pass", func(t *testing.T) { twoPass(t); recall(t) })
	t.Logf("%d real windows, %d real queries, %v", len(exact), len(queries), time.Since(start).Round(time.Millisecond))
}

// scanRecall is TestScanRecallRealModel's measure on snapshot s of the
// vectors exact, for the queries qv.
func scanRecall(t *testing.T, s *snapshot, exact, qv [][]float32) {
	const k = 10
	hits := 0
	for qi, q := range qv {
		order := make([]int, len(exact))
		cos := make([]float32, len(exact))
		for i, v := range exact {
			order[i], cos[i] = i, embed.Dot(q, v)
		}
		sort.Slice(order, func(a, b int) bool { return cos[order[a]] > cos[order[b]] })
		want := map[int]bool{}
		for _, i := range order[:k] {
			want[i] = true
		}
		got := s.topK(q, k, nil)
		if len(got) != k {
			t.Fatalf("%d hits", len(got))
		}
		for _, h := range got {
			if want[int(h.row)] {
				hits++
			}
		}
		if g := s.topKWith(dot.Go, q, k, nil, nil); fmt.Sprint(g) != fmt.Sprint(got) {
			t.Errorf("query %d: %s kernel %v, Go loop %v", qi, dot.Best.Name, got, g)
		}
	}
	recall := float64(hits) / float64(k*len(qv))
	t.Logf("recall@%d of the %s scan vs float32: %.4f", k, dot.Best.Name, recall)
	if recall < 0.99 {
		t.Errorf("recall@%d %.4f, want ≥ 0.99", k, recall)
	}
}

// TestTwoPassSameAsExact: on 200,000 random vectors, the worst case for
// the coarse pass (no clusters: the best rows stand out from the rest by
// little), the two passes find the rows an exact scan of every row finds,
// for the first round's k and a deeper one.
func TestTwoPassSameAsExact(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 vectors")
	}
	s := randomSnapshot(200_000, 512)
	r := rand.New(rand.NewSource(9))
	for _, k := range []int{100, 400} {
		if len(s.ids) <= exactAll(k) {
			t.Fatalf("%d rows are scanned exactly for k=%d", len(s.ids), k)
		}
		qs := make([][]float32, 20)
		for i := range qs {
			qs[i] = make([]float32, 512)
			randomUnit(r, qs[i])
		}
		same := sameAsExact(s, qs, k)
		t.Logf("k=%d: %.4f of the hits as an exact scan's (%d candidates)", k, same, candidates(k))
		if same != 1 {
			t.Errorf("k=%d: %.4f of the hits as an exact scan's", k, same)
		}
	}
}

// sameAsExact is the share of the hits of topK(k) that an exact scan of
// every row finds too, over the queries vecs.
func sameAsExact(s *snapshot, vecs [][]float32, k int) float64 {
	same, total := 0, 0
	for _, v := range vecs {
		want := map[hit]bool{}
		for _, h := range s.parts(len(s.ids), k, func(lo, hi, k int) []hit {
			return s.scan(dot.Best, quantizeQuery(v), lo, hi, k, nil, nil)
		}) {
			want[h] = true
		}
		for _, h := range s.topK(v, k, nil) {
			if want[h] {
				same++
			}
		}
		total += k
	}
	return float64(same) / float64(total)
}

// TestTopRows: the rows topRows keeps are the first k of a sort, for any
// k, with ties on the cosine everywhere and rows offered in ascending order
// only when they beat worst, as the scans offer them.
func TestTopRows(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	s := &snapshot{}
	for _, n := range []int{0, 1, 2, 5, 100, 1000, 10_000} {
		for _, k := range []int{0, 1, 3, 64, 500, 20_000} {
			all := make([]hit, n)
			top := newTopRows(k, n)
			for i := range all {
				all[i] = hit{int32(i), float32(r.Intn(50))}
				if all[i].cos > top.worst {
					top.offer(s, i, all[i].cos, nil)
				}
			}
			got := top.best()
			sortHits(got)
			want := best(all, k)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("n=%d, k=%d: kept %v, want %v", n, k, got, want)
			}
		}
	}
}
