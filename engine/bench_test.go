package engine

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/engine/dot"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// randomSnapshot holds n random unit vectors, quantised as the store does.
func randomSnapshot(n, dim int) *snapshot {
	r := rand.New(rand.NewSource(1))
	s := &snapshot{dim: dim, ids: make([]int64, n), docs: make([]int64, n), scales: make([]float32, n)}
	v := make([]float32, dim)
	for i := range n {
		randomUnit(r, v)
		scale, q := store.Int8(store.Quantize(v))
		s.ids[i], s.docs[i], s.scales[i] = int64(i+1), int64(i/8), scale
		s.appendVec(q)
	}
	return s
}

func randomUnit(r *rand.Rand, v []float32) {
	var sum float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		sum += float64(v[i] * v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(sum))
	}
}

// BenchmarkTopK compares the engine's scan (int8, every core, a heap per
// core) using the portable Go kernel and the best SIMD kernel for this CPU,
// the same scans on one core, and a raw single-goroutine float32 loop over
// the same vectors (as they were embedded).
func BenchmarkTopK(b *testing.B) {
	for _, n := range []int{20_000, 100_000, 1_000_000} {
		s := randomSnapshot(n, 512)
		q := make([]float32, 512)
		randomUnit(rand.New(rand.NewSource(2)), q)
		qv := quantizeQuery(q)
		for _, kern := range []dot.Kernel{dot.Go, dot.Best} {
			b.Run(fmt.Sprintf("engine/%s/%d", kern.Name, n), func(b *testing.B) {
				for b.Loop() {
					s.topKWith(kern, q, 100, nil, nil)
				}
			})
			b.Run(fmt.Sprintf("one-core/%s/%d", kern.Name, n), func(b *testing.B) {
				for b.Loop() {
					s.scan(kern, qv, 0, n, 100, nil, nil)
				}
			})
		}
		if n > 100_000 {
			continue // 2 GB of float32
		}
		f32 := make([]float32, n*512)
		rows := make([]int8, n*512)
		s.vecs(dot.Best, 0, n, rows)
		for i, x := range rows {
			f32[i] = float32(x) * s.scales[i/512]
		}
		b.Run(fmt.Sprintf("raw-float32-serial/%d", n), func(b *testing.B) {
			for b.Loop() {
				best := float32(-2)
				for i := range n {
					v := f32[i*512 : (i+1)*512]
					var c float32
					for j := range q {
						c += q[j] * v[j]
					}
					if c > best {
						best = c
					}
				}
			}
		})
	}
}

// TestInt8Recall measures how often the int8 scan returns the same top 10
// as exact float32 cosine over the same random vectors.
func TestInt8Recall(t *testing.T) {
	const n, dim, k = 20_000, 512, 10
	r := rand.New(rand.NewSource(3))
	exact := make([][]float32, n)
	s := &snapshot{dim: dim, ids: make([]int64, n), docs: make([]int64, n), scales: make([]float32, n)}
	for i := range n {
		v := make([]float32, dim)
		randomUnit(r, v)
		// Mix in a shared direction so neighbours are close, as real
		// embeddings of one corpus are.
		for j := range 16 {
			v[j] += 0.3
		}
		embed.Normalize(v)
		exact[i] = v
		scale, q := store.Int8(store.Quantize(v))
		s.ids[i], s.scales[i] = int64(i), scale
		s.appendVec(q)
	}
	var hits, total int
	for range 50 {
		q := exact[r.Intn(n)]
		noisy := append([]float32(nil), q...)
		for j := range noisy {
			noisy[j] += float32(r.NormFloat64()) * 0.02
		}
		embed.Normalize(noisy)
		type sc struct {
			i int
			c float64
		}
		all := make([]sc, n)
		for i, v := range exact {
			var c float64
			for j := range v {
				c += float64(noisy[j]) * float64(v[j])
			}
			all[i] = sc{i, c}
		}
		sort.Slice(all, func(a, b int) bool { return all[a].c > all[b].c })
		want := map[int]bool{}
		for _, x := range all[:k] {
			want[x.i] = true
		}
		for _, h := range s.topK(noisy, k, nil) {
			if want[int(h.row)] {
				hits++
			}
		}
		total += k
	}
	recall := float64(hits) / float64(total)
	t.Logf("int8 top-%d recall vs float32: %.3f", k, recall)
	if recall < 0.95 {
		t.Errorf("int8 recall %.3f", recall)
	}
}

// BenchmarkSearch runs warm searches through the engine over the Obsidian
// help vault (test embedder, so it measures the engine, not a model), and
// a list of a folder's notes (a request without words) beside them.
func BenchmarkSearch(b *testing.B) {
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), newBow("bow"))
	index(b, e, copyDir(b, helpVault(b)), "help")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic, mdsearch.ModeHybrid} {
		b.Run(string(mode), func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Search(bg, mdsearch.SearchRequest{Query: "link to a heading in another note", Mode: mode}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// A budget that leaves results out, which the notice names: beside
	// the same search without one.
	for _, budget := range []int{0, 600} {
		b.Run(fmt.Sprintf("hybrid_n10_budget%d", budget), func(b *testing.B) {
			for b.Loop() {
				resp, err := e.Search(bg, mdsearch.SearchRequest{Query: "link to a heading in another note", Mode: mdsearch.ModeHybrid, N: 10, MaxTokens: budget})
				if err != nil || budget > 0 && !strings.Contains(resp.Notice, "did not fit") {
					b.Fatalf("%v, %q", err, resp.Notice)
				}
			}
		})
	}
	// A question the notes cannot answer, whose results show their
	// openings (cutUnlikely): beside the keyword search above.
	b.Run("keyword_unlikely", func(b *testing.B) {
		for b.Loop() {
			resp, err := e.Search(bg, mdsearch.SearchRequest{Query: "how do I reset my tv remote", Mode: mdsearch.ModeKeyword})
			if err != nil || !strings.Contains(resp.Notice, "cut to") {
				b.Fatalf("%v, %q", err, resp.Notice)
			}
		}
	})
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			resp, err := e.Search(bg, mdsearch.SearchRequest{Query: "path:plugins", N: 10})
			if err != nil || !resp.Listing || len(resp.Results) == 0 {
				b.Fatalf("%v, %+v", err, resp)
			}
		}
	})
}

// ageNotes sets every file under dir to a modification time an hour ago:
// a vault at rest, no note of which a run reads for being racy.
func ageNotes(tb testing.TB, dir string) {
	at := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.Chtimes(p, at, at)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkReindex measures incremental runs over the Obsidian help vault
// against the raw cost of walking it.
func BenchmarkReindex(b *testing.B) {
	dir := copyDir(b, helpVault(b))
	ageNotes(b, dir)
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), newBow("bow"))
	index(b, e, dir, "help")
	b.Run("raw-walk", func(b *testing.B) {
		v, _ := vault.Open(dir, vault.Options{})
		for b.Loop() {
			v.Walk(bg)
		}
	})
	b.Run("no-op", func(b *testing.B) {
		for b.Loop() {
			index(b, e, dir, "help")
		}
	})
	// Every note as if saved since the last run began (a sync that has
	// just written the vault): each is read and hashed, nothing written.
	b.Run("no-op-racy", func(b *testing.B) {
		for b.Loop() {
			e.st.DeleteMeta(bg, scannedKey("help"))
			if st := index(b, e, dir, "help"); st.Unchanged != st.Files {
				b.Fatalf("%+v", st)
			}
		}
	})
	p := filepath.Join(dir, "Plugins", "Graph view.md")
	src, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("edit-one-paragraph", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			edited := strings.Replace(string(src), "graph", fmt.Sprintf("graph (edit %d)", i), 1)
			os.WriteFile(p, []byte(edited), 0o644)
			if st := index(b, e, dir, "help"); st.Changed != 1 {
				b.Fatalf("%+v", st)
			}
		}
	})
	// What a watch does for a save: a refresh of the one note an event
	// names, edited or not, beside reading that file alone.
	const rel = "Plugins/Graph view.md"
	b.Run("raw-read-one", func(b *testing.B) {
		for b.Loop() {
			os.ReadFile(p)
		}
	})
	b.Run("refresh-one-edited", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			os.WriteFile(p, []byte(strings.Replace(string(src), "graph", fmt.Sprintf("graph (save %d)", i), 1)), 0o644)
			if st, err := e.Refresh(bg, "help", []string{rel}); err != nil || st.Changed != 1 {
				b.Fatalf("%+v, %v", st, err)
			}
		}
	})
	b.Run("refresh-one-unchanged", func(b *testing.B) {
		for b.Loop() {
			if st, err := e.Refresh(bg, "help", []string{rel}); err != nil || st.Changed != 0 {
				b.Fatalf("%+v, %v", st, err)
			}
		}
	})
}

// BenchmarkRealIndex measures warm queries with the local model against an
// index built beforehand (MDSEARCH_BENCH_INDEX), query embedding included,
// and reports p50/p95 over a fixed query set.
func BenchmarkRealIndex(b *testing.B) {
	e, m := benchIndex(b)
	queries := []string{"lifetime elision rules", "how are trait objects dispatched", "async closures",
		"unsafe code guidelines", "const generics defaults", "error handling with the question mark operator",
		"procedural macro hygiene", "borrow checker non-lexical lifetimes", "cargo workspace inheritance",
		"deprecation of try macro", "never type fallback", "pattern matching on slices"}
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeSemantic, mdsearch.ModeKeyword} {
		b.Run(string(mode), func(b *testing.B) {
			benchQueries(b, e, mode, queries)
		})
	}
	b.Run("raw-embed-query", func(b *testing.B) {
		i := 0
		for b.Loop() {
			m.Embed(bg, []string{queries[i%len(queries)]})
			i++
		}
	})
}

// someRFCs copies the first files of the Rust RFCs (RFCS_FILES of them
// when set) into a new vault.
func someRFCs(b *testing.B, files int) string {
	fmt.Sscan(os.Getenv("RFCS_FILES"), &files)
	src := testenv.Corpora("rust-rfcs", "text")
	entries, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, ent := range entries[:min(files, len(entries))] {
		data, _ := os.ReadFile(filepath.Join(src, ent.Name()))
		os.WriteFile(filepath.Join(dir, ent.Name()), data, 0o644)
	}
	return dir
}

// BenchmarkColdIndex compares a cold index of part of the Rust RFCs with
// the local model against the model alone embedding the same chunk texts
// (the raw baseline), in the same run. Run with -benchtime=1x; RFCS_FILES
// sets how many RFCs (default 60).
func BenchmarkColdIndex(b *testing.B) {
	m := realModel(b)
	dir := someRFCs(b, 60)
	var texts []string
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), m)
			start := time.Now()
			st := index(b, e, dir, "rfcs")
			b.ReportMetric(float64(st.Embedded)/time.Since(start).Seconds(), "embeds/s")
			b.ReportMetric(float64(st.Embedded), "chunks")
			texts, _ = e.st.EmbedTexts(bg)
		}
	})
	b.Run("raw-embed", func(b *testing.B) {
		for b.Loop() {
			b.ReportMetric(float64(len(texts))/rawEmbed(b, m, texts).Seconds(), "embeds/s")
		}
	})
}

// scaleEmbedder stands in for the local model when building large
// synthetic indexes: chunks are cut with the model's tokenizer, bulk
// vectors are pseudo-random (seeded by the text), and single texts, i.e.
// queries, go through the real model so query latency includes it.
type scaleEmbedder struct{ real *sentenceencoder.Model }

func (s scaleEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 1 {
		return s.real.Embed(ctx, texts)
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		h := fnv.New64a()
		h.Write([]byte(t))
		v := make([]float32, 512)
		randomUnit(rand.New(rand.NewSource(int64(h.Sum64()))), v)
		out[i] = v
	}
	return out, nil
}
func (s scaleEmbedder) Dim() int                 { return 512 }
func (s scaleEmbedder) MaxTokens() int           { return s.real.MaxTokens() }
func (s scaleEmbedder) CountTokens(t string) int { return s.real.CountTokens(t) }
func (s scaleEmbedder) ModelID() string          { return "synthetic-512" }

// BenchmarkScale measures warm queries over COPIES copies of the Rust RFCs
// (about 8,800 passages in 47,000 windows each), built once into
// MDSEARCH_BENCH_DIR. Each copy
// is its own collection; vectors are synthetic, queries are embedded by
// the real model.
func BenchmarkScale(b *testing.B) {
	dir := os.Getenv("MDSEARCH_BENCH_DIR")
	copies := 0
	fmt.Sscan(os.Getenv("COPIES"), &copies)
	if dir == "" || copies == 0 {
		b.Skip("set MDSEARCH_BENCH_DIR and COPIES")
	}
	emb := scaleEmbedder{realModel(b)}
	e := openEngine(b, filepath.Join(dir, fmt.Sprintf("scale-%d.db", copies)), emb)
	for i := range copies {
		start := time.Now()
		st := index(b, e, testenv.Corpora("rust-rfcs", "text"), fmt.Sprintf("copy%02d", i))
		if st.Added > 0 {
			b.Logf("copy %d: %d chunks in %v", i, st.Chunks, time.Since(start))
		}
	}
	s, _ := e.Status(bg)
	b.Logf("%d passages, %d window vectors, %.0f MB", s.Chunks, s.Vectors, float64(s.SizeBytes)/(1<<20))
	queries := []string{"lifetime elision rules", "how are trait objects dispatched", "async closures",
		"unsafe code guidelines", "const generics defaults", "error handling with the question mark operator",
		"procedural macro hygiene", "borrow checker non-lexical lifetimes", "cargo workspace inheritance"}
	// Semantic and hybrid with the Go loop and with the best kernel, one
	// after the other, so the two are measured under the same load.
	benchScanAgainstRead(b, e, queries)
	defer func(k dot.Kernel) { scanKernel = k }(scanKernel)
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeSemantic, mdsearch.ModeKeyword} {
		for _, kern := range []dot.Kernel{dot.Go, dot.Best} {
			if mode == mdsearch.ModeKeyword && kern.Name != dot.Best.Name {
				continue
			}
			scanKernel = kern
			b.Run(fmt.Sprintf("%s/%s/%d", mode, kern.Name, s.Chunks), func(b *testing.B) {
				benchQueries(b, e, mode, queries)
			})
		}
	}
	benchKeywordList(b, e, queries, s.Chunks)
	b.Logf("memory after the searches: %s", procMemory())
}

// benchScanAgainstRead times the vector scan alone (top 100 of every row,
// split across cores as searches do) and, alternated with it, a plain read
// of the same bytes on as many cores (dot.Stream): the most the memory
// allows. It reports both in GB/s and the scan's share of the read's.
func benchScanAgainstRead(b *testing.B, e *Engine, queries []string) {
	s, _, err := e.vectors(bg)
	if err != nil {
		b.Fatal(err)
	}
	vecs := make([][]float32, len(queries))
	for i, q := range queries {
		if vecs[i], err = e.embedQuery(bg, q); err != nil {
			b.Fatal(err)
		}
	}
	bytes := float64(len(s.hi))
	b.Run(fmt.Sprintf("scan-vs-read/%d", s.live()), func(b *testing.B) {
		var scan, read, all []time.Duration
		i := 0
		for b.Loop() {
			start := time.Now()
			s.topK(vecs[i%len(vecs)], 100, nil)
			mid := time.Now()
			streamParts(s.hi)
			end := time.Now()
			streamParts(s.hi)
			streamParts(s.lo)
			scan, read, all = append(scan, mid.Sub(start)), append(read, end.Sub(mid)), append(all, time.Since(end))
			i++
		}
		sp, rp := percentileMS(scan, 50), percentileMS(read, 50)
		b.ReportMetric(sp, "scan-p50-ms")
		b.ReportMetric(rp, "read-p50-ms")
		b.ReportMetric(percentileMS(all, 50), "read-int8-p50-ms")
		b.ReportMetric(bytes/sp/1e6, "scan-GB/s")
		b.ReportMetric(bytes/rp/1e6, "read-GB/s")
		b.ReportMetric(rp/sp, "scan/read")
		b.ReportMetric(sameAsExact(s, vecs, 100), "same-as-exact")
	})
}

// streamParts reads v on every core, one part each, as topK splits rows.
func streamParts(b []byte) {
	v := unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
	parts := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dot.Stream(v[p*len(v)/parts : (p+1)*len(v)/parts])
		}()
	}
	wg.Wait()
}

// procMemory reads this process's peak and current resident set (Linux)
// and the Go heap, so a benchmark can say what serving its index costs.
func procMemory() string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	out := fmt.Sprintf("Go heap in use %.0f MB, from the OS %.0f MB", float64(ms.HeapInuse)/(1<<20), float64(ms.Sys)/(1<<20))
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") || strings.HasPrefix(line, "VmRSS:") {
			out += "; " + strings.Join(strings.Fields(line), " ")
		}
	}
	return out
}

// benchKeywordList times the keyword candidate list alone (the 100 rows a
// search's first round reads, its tier chosen at 160), as the engine builds
// it and as one OR query (the raw baseline), and reports how many of the OR query's top 10 and top
// 100 the engine's list holds.
func benchKeywordList(b *testing.B, e *Engine, queries []string, chunks int) {
	const k = 100
	var same10, same100, n10, n100 int
	for _, q := range queries {
		terms := matchTerms(q)
		or, err := e.st.Keyword(bg, strings.Join(terms, " OR "), store.Filter{}, e.opts.Weights, k)
		if err != nil {
			b.Fatal(err)
		}
		got, err := e.st.KeywordAny(bg, terms, store.Filter{}, e.opts.Weights, k)
		if err != nil {
			b.Fatal(err)
		}
		s10, s100 := sameHits(or, got, 10), sameHits(or, got, k)
		same10, same100, n10, n100 = same10+s10, same100+s100, n10+min(10, len(or)), n100+len(or)
		b.Logf("%-48q top-10 %d/%d, top-100 %d/%d", q, s10, min(10, len(or)), s100, len(or))
	}
	// Interleaved, so load from other processes hits both alike.
	b.Run(fmt.Sprintf("keyword-list/%d", chunks), func(b *testing.B) {
		var engine, raw []time.Duration
		i := 0
		for b.Loop() {
			terms := matchTerms(queries[i%len(queries)])
			start := time.Now()
			if _, err := e.st.KeywordAny(bg, terms, store.Filter{}, e.opts.Weights, k); err != nil {
				b.Fatal(err)
			}
			mid := time.Now()
			if _, err := e.st.Keyword(bg, strings.Join(terms, " OR "), store.Filter{}, e.opts.Weights, k); err != nil {
				b.Fatal(err)
			}
			engine, raw = append(engine, mid.Sub(start)), append(raw, time.Since(mid))
			i++
		}
		p := percentileMS
		b.ReportMetric(p(engine, 50), "p50-ms")
		b.ReportMetric(p(engine, 95), "p95-ms")
		b.ReportMetric(p(raw, 50), "raw-or-p50-ms")
		b.ReportMetric(p(raw, 95), "raw-or-p95-ms")
		b.ReportMetric(float64(same10)/float64(max(n10, 1)), "same-top10")
		b.ReportMetric(float64(same100)/float64(max(n100, 1)), "same-top100")
	})
}

// sameHits counts the chunks of want's first n that got's first n hold.
func sameHits(want, got []store.KeywordHit, n int) int {
	in := map[int64]bool{}
	for _, h := range got[:min(n, len(got))] {
		in[h.ChunkID] = true
	}
	same := 0
	for _, h := range want[:min(n, len(want))] {
		if in[h.ChunkID] {
			same++
		}
	}
	return same
}

// benchQueries runs the queries in turn in one mode, reporting the p50 and
// p95 latency of a whole Search call.
func benchQueries(b *testing.B, e *Engine, mode mdsearch.Mode, queries []string) {
	e.Search(bg, mdsearch.SearchRequest{Query: "warm up", Mode: mode})
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := e.Search(bg, mdsearch.SearchRequest{Query: queries[i%len(queries)], Mode: mode}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	reportLatency(b, lat)
}

// reportLatency reports the p50 and p95 of lat.
func reportLatency(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}
