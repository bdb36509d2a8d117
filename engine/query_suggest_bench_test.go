package engine

import (
	"testing"

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
	e := rfcEngine(b)
	for _, q := range misspelledQueries { // check the suggestions (benchPair warms)
		if resp, _ := e.Search(bg, mdsearch.SearchRequest{Query: q[0]}); resp.Suggestion != q[1] {
			b.Logf("%q suggests %q, not %q", q[0], resp.Suggestion, q[1])
		}
	}
	// Each query is asked by its right spelling, as it is then misspelled.
	respelled := map[string]string{}
	var right []string
	for _, q := range misspelledQueries {
		respelled[q[1]] = q[0]
		right = append(right, q[1])
	}
	ask := func(misspell bool) func(string) error {
		return func(q string) error {
			if misspell {
				q = respelled[q]
			}
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: q})
			return err
		}
	}
	benchPair(b, right, "right", ask(false), "misspelled", ask(true))
}
