package engine

import (
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// misspelledQueries are stageQueries with one word misspelled each, and
// the suggestion each should bring.
var misspelledQueries = [][2]string{
	{"lifetime elisoin rules", "lifetime elision rules"},
	{"how are trait objects dispatchd", "how are trait objects dispatched"},
	{"async closurse", "async closures"},
	{"unsafe code guidlines", "unsafe code guidelines"},
	{"const generics defualts", "const generics defaults"},
	{"procedural macro hygeine", "procedural macro hygiene"},
	{"borrow checker non-lexical lifetiems", "borrow checker non-lexical lifetimes"},
	{"cargo workspace inheritence", "cargo workspace inheritance"},
}

// BenchmarkSuggestion times warm hybrid searches of queries with a word
// misspelled (the suggestion's path: the vocabulary read, the spellings,
// the check search) beside the same queries spelled right, in turn on
// one index: the RFCs of BenchmarkSecondStage, or MDSEARCH_BENCH_INDEX.
// Reported: each side's p50, and the p50 of what a misspelling adds.
func BenchmarkSuggestion(b *testing.B) {
	m := realModel(b)
	e, err := Open(bg, Options{IndexPath: rfcIndex(b, m), Embedder: m, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	for _, q := range misspelledQueries { // warm, and check the suggestions
		for _, text := range q {
			if _, err := e.Search(bg, mdsearch.SearchRequest{Query: text}); err != nil {
				b.Fatal(err)
			}
		}
		if resp, _ := e.Search(bg, mdsearch.SearchRequest{Query: q[0]}); resp.Suggestion != q[1] {
			b.Logf("%q suggests %q, not %q", q[0], resp.Suggestion, q[1])
		}
	}
	var right, wrong, extra []time.Duration
	i := 0
	for b.Loop() {
		q := misspelledQueries[i%len(misspelledQueries)]
		t0 := time.Now()
		if _, err := e.Search(bg, mdsearch.SearchRequest{Query: q[1]}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := e.Search(bg, mdsearch.SearchRequest{Query: q[0]}); err != nil {
			b.Fatal(err)
		}
		d1, d2 := t1.Sub(t0), time.Since(t1)
		right, wrong, extra = append(right, d1), append(wrong, d2), append(extra, d2-d1)
		i++
	}
	b.ReportMetric(percentileMS(right, 50), "right-p50-ms")
	b.ReportMetric(percentileMS(wrong, 50), "misspelled-p50-ms")
	b.ReportMetric(percentileMS(extra, 50), "added-p50-ms")
}
