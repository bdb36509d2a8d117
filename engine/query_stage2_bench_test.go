package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

// BenchmarkSecondStage times warm searches of each mode with the
// second stage and without it (the first stage alone), query by query in
// turn on one index, so both see the same load. The index is the first
// 352 Rust RFCs (about 18,000 windows) with the local model; with
// MDSEARCH_BENCH_INDEX it is that index file instead (BenchmarkScale's
// at 1M windows, say). Reported: each side's p50 and p95, and the p50 of
// what the second stage adds to a query.
func BenchmarkSecondStage(b *testing.B) {
	m := realModel(b)
	path := rfcIndex(b, m)
	with, err := Open(bg, Options{IndexPath: path, Embedder: m, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer with.Close()
	without, err := Open(bg, Options{IndexPath: path, Embedder: m, ReadOnly: true, FirstStageOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer without.Close()
	s, _ := with.Status(bg)
	b.Logf("%d passages, %d windows", s.Chunks, s.Vectors)
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword, mdsearch.ModeSemantic} {
		b.Run(fmt.Sprintf("%s/%d", mode, s.Vectors), func(b *testing.B) {
			benchStages(b, with, without, mode)
		})
	}
}

// rfcIndex is the index a search benchmark asks: MDSEARCH_BENCH_INDEX,
// else the first 352 Rust RFCs (about 18,000 windows) indexed with m.
func rfcIndex(b *testing.B, m embed.Embedder) string {
	if path := os.Getenv("MDSEARCH_BENCH_INDEX"); path != "" {
		return path
	}
	dir := someRFCs(b, 352)
	path := filepath.Join(b.TempDir(), "index.db")
	index(b, openEngine(b, path, m), dir, "rfcs")
	return path
}

// rfcEngine opens rfcIndex's index, read-only, with the local model,
// for the benchmark to use; it is closed when the benchmark ends.
func rfcEngine(b *testing.B) *Engine {
	m := realModel(b)
	e, err := Open(bg, Options{IndexPath: rfcIndex(b, m), Embedder: m, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	return e
}

// stageQueries are the second stage benchmark's queries: phrases and
// questions about the RFCs.
var stageQueries = []string{"lifetime elision rules", "how are trait objects dispatched", "async closures",
	"unsafe code guidelines", "const generics defaults", "error handling with the question mark operator",
	"procedural macro hygiene", "borrow checker non-lexical lifetimes", "cargo workspace inheritance",
	"What happens to the never type fallback?", "pattern matching on slices", "deprecation of try macro"}

// benchStages runs each query on without, then on with, and reports both
// sides' latency and the difference.
func benchStages(b *testing.B, with, without *Engine, mode mdsearch.Mode) {
	ask := func(e *Engine) func(string) error {
		return func(q string) error {
			resp, err := e.Search(bg, mdsearch.SearchRequest{Query: q, Mode: mode})
			if err == nil && resp.Mode != mode {
				// An index whose vectors are not the local model's (BenchmarkScale's
				// synthetic ones) is searched by keywords: that is not this mode's time.
				err = fmt.Errorf("a %s search of %q ran in %s mode (%s)", mode, q, resp.Mode, resp.Notice)
			}
			return err
		}
	}
	benchPair(b, stageQueries, "first", ask(without), "second", ask(with))
}

// BenchmarkExplain times warm hybrid and keyword searches asked plainly
// and with Explain, query by query in turn on one engine (rfcIndex's
// index), and reports both sides' p50 and p95 and what the side asked
// second adds.
func BenchmarkExplain(b *testing.B) {
	e := rfcEngine(b)
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword} {
		ask := func(explain bool) func(string) error {
			return func(q string) error {
				_, err := e.Search(bg, mdsearch.SearchRequest{Query: q, Mode: mode, Explain: explain})
				return err
			}
		}
		// Asked second, a query finds the pages the first asking read
		// warm: each order is run, so that neither side gains from it.
		b.Run(string(mode)+"/plain-first", func(b *testing.B) { benchPair(b, stageQueries, "plain", ask(false), "explained", ask(true)) })
		b.Run(string(mode)+"/explained-first", func(b *testing.B) { benchPair(b, stageQueries, "explained", ask(true), "plain", ask(false)) })
	}
}

// benchPair asks each of queries of a, then of z, and reports both sides'
// p50 and p95 (named by their labels) and the p50 of what z adds.
func benchPair(b *testing.B, queries []string, aName string, a func(string) error, zName string, z func(string) error) {
	for _, q := range queries { // warm both: snapshots, heading counts
		if err := errors.Join(a(q), z(q)); err != nil {
			b.Fatal(err)
		}
	}
	var one, two, extra []time.Duration
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		t0 := time.Now()
		if err := a(q); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := z(q); err != nil {
			b.Fatal(err)
		}
		d1, d2 := t1.Sub(t0), time.Since(t1)
		one, two, extra = append(one, d1), append(two, d2), append(extra, d2-d1)
		i++
	}
	ms := percentileMS
	b.ReportMetric(ms(one, 50), aName+"-p50-ms")
	b.ReportMetric(ms(one, 95), aName+"-p95-ms")
	b.ReportMetric(ms(two, 50), zName+"-p50-ms")
	b.ReportMetric(ms(two, 95), zName+"-p95-ms")
	b.ReportMetric(ms(extra, 50), "added-p50-ms")
}

// percentileMS is the q-th percentile of lat (nearest rank) in ms; it
// sorts lat.
func percentileMS(lat []time.Duration, q int) float64 {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return float64(lat[len(lat)*q/100].Microseconds()) / 1000
}

// BenchmarkFiltered times warm searches of rfcIndex's index asked whole
// and under a filter (a path prefix that keeps about a quarter of the
// RFCs, and one RFC excluded), query by query in turn on one engine: what
// a filter costs besides the search, with the second stage reading the
// query's words in the filter's scope (found).
func BenchmarkFiltered(b *testing.B) {
	e := rfcEngine(b)
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword} {
		ask := func(filtered bool) func(string) error {
			return func(q string) error {
				req := mdsearch.SearchRequest{Query: q, Mode: mode}
				if filtered {
					req.PathPrefix, req.Exclude = "1", []string{"1522-conservative-impl-trait.md"}
				}
				_, err := e.Search(bg, req)
				return err
			}
		}
		b.Run(string(mode), func(b *testing.B) { benchPair(b, stageQueries, "whole", ask(false), "filtered", ask(true)) })
	}
}

// BenchmarkDefaultCap times warm hybrid searches of rfcIndex's index
// with a per-note cap of two asked for (held) and with the default cap,
// which gives way to likely passages (dedup), query by query in turn on
// one engine: what giving way costs a search.
func BenchmarkDefaultCap(b *testing.B) {
	e := rfcEngine(b)
	ask := func(perNote int) func(string) error {
		return func(q string) error {
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: q, MaxPerPage: perNote})
			return err
		}
	}
	benchPair(b, stageQueries, "held", ask(mdsearch.DefaultMaxPerPage), "default", ask(0))
}
