package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// BenchmarkSnapshot measures bringing BenchmarkScale's vectors into
// memory (build the index with BenchmarkScale first, same
// MDSEARCH_BENCH_DIR and COPIES): a first load from the index, a load from
// the vector cache file, and a plain read of that file's bytes (the
// baseline); then what a one-note commit costs the next search, with the
// snapshot caught up from the change log and, in turn, loaded again.
func BenchmarkSnapshot(b *testing.B) {
	dir := os.Getenv("MDSEARCH_BENCH_DIR")
	copies := 0
	fmt.Sscan(os.Getenv("COPIES"), &copies)
	path := filepath.Join(dir, fmt.Sprintf("scale-%d.db", copies))
	if _, err := os.Stat(path); dir == "" || err != nil {
		b.Skip("set MDSEARCH_BENCH_DIR and COPIES to an index BenchmarkScale built")
	}
	emb := scaleEmbedder{realModel(b)}
	e := openEngine(b, path, emb)
	cache := b.TempDir()
	ec, err := Open(bg, Options{IndexPath: path, Embedder: emb, VectorCache: cache, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ec.Close()
	vault := b.TempDir()
	edit := func(i int) {
		write(b, vault, "note.md", fmt.Sprintf("# Edited note\n\n## Lifetimes\n\nEdit number %d of a note about lifetime elision.\n", i))
	}
	edit(0)
	index(b, e, vault, "edits")
	gen, err := e.st.Generation(bg)
	if err != nil {
		b.Fatal(err)
	}
	load := func(b *testing.B, e *Engine) *snapshot {
		s, err := e.loadVectors(bg, gen)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	s := load(b, e)
	bytes := float64(len(s.hi) + len(s.lo))
	b.Logf("%d rows, %.0f MB of vectors", s.live(), bytes/(1<<20))
	gbps := func(b *testing.B, d time.Duration) { b.ReportMetric(bytes/d.Seconds()/1e9, "GB/s") }
	b.Run("first-load/index", func(b *testing.B) {
		var lat []time.Duration
		for b.Loop() {
			start := time.Now()
			load(b, e)
			lat = append(lat, time.Since(start))
		}
		reportLatency(b, lat)
		gbps(b, lat[len(lat)/2])
	})
	load(b, ec) // writes the cache file
	files, _ := filepath.Glob(filepath.Join(cache, "*.vec"))
	if len(files) != 1 {
		b.Fatalf("%d cache files, want 1", len(files))
	}
	// The file and the raw read of its bytes, alternated.
	b.Run("first-load/cache-file", func(b *testing.B) {
		var cached, raw []time.Duration
		for b.Loop() {
			start := time.Now()
			load(b, ec)
			mid := time.Now()
			if _, err := os.ReadFile(files[0]); err != nil {
				b.Fatal(err)
			}
			cached, raw = append(cached, mid.Sub(start)), append(raw, time.Since(mid))
		}
		reportLatency(b, cached)
		gbps(b, cached[len(cached)/2])
		b.ReportMetric(percentileMS(raw, 50), "read-file-p50-ms")
	})
	// A warm search, then an edit and the first search after it, under
	// each policy in turn: extra is the p50 of after minus warm.
	req := mdsearch.SearchRequest{Query: "lifetime elision rules"}
	e.snap.Store(nil)
	search(b, e, req)
	i := 0
	b.Run("commit-to-search", func(b *testing.B) {
		var warm, caught, reloaded []time.Duration
		for b.Loop() {
			for _, reload := range []bool{false, true} {
				start := time.Now()
				search(b, e, req)
				w := time.Since(start)
				i++
				edit(i)
				if _, err := e.Refresh(bg, "edits", []string{"note.md"}); err != nil {
					b.Fatal(err)
				}
				noCatchUp = reload
				start = time.Now()
				search(b, e, req)
				d := time.Since(start) - w
				noCatchUp = false
				if reload {
					reloaded = append(reloaded, d)
				} else {
					warm, caught = append(warm, w), append(caught, d)
				}
			}
		}
		b.ReportMetric(percentileMS(warm, 50), "warm-p50-ms")
		b.ReportMetric(percentileMS(caught, 50), "caught-up-extra-p50-ms")
		b.ReportMetric(percentileMS(reloaded, 50), "reload-extra-p50-ms")
	})
}
