package engine

import (
	"testing"

	"github.com/mdsearch/mdsearch/store"
)

func TestHeadingPhrases(t *testing.T) {
	const title = "data types"
	for _, tc := range []struct {
		query, heading string
		level          int
		want           float64
	}{
		{"as discussed in the “Integer Types” section in Chapter 3", "integer types", 3, 2. / 3},
		{"use shallowRef() instead", "shallowref()", 2, 1. / 3},
		{"See also Conditional Rendering - v-else-if", "`v-else-if`", 2, 1},
		{"Storing UTF-8 Encoded Text with Strings, in Chapter 8", "storing utf-8 encoded text with strings", 2, 1},
		{"the types of integers", "integer types", 3, 0}, // not in order
		{"integer type sizes", "integer types", 3, 0},    // not word for word
		{"what is an integer?", "what", 2, 0},            // common words alone
		{"the data types chapter", "data types", 1, 0},   // the note's title
		{"the data types chapter", "data types", 0, 0},   // text before any heading
		{"Integer Types", "integer types", 2, 2. / 3},    // the query is the heading
		{"integer", "integer types", 2, 0},               // the heading is longer
	} {
		ps := map[int64]store.Passage{1: {Level: tc.level, Heading: tc.heading, Title: title}}
		if got := headingPhrases(tc.query, []int64{1}, ps)[0]; got != tc.want {
			t.Errorf("query %q, heading %q (level %d): %v, want %v", tc.query, tc.heading, tc.level, got, tc.want)
		}
	}
}

// BenchmarkHeadingPhrases is the word-for-word heading feature of a
// query's 50 candidates, beside headingsIn's stemmed reading of the same
// headings (BenchmarkHeadingsIn) in the same run.
func BenchmarkHeadingPhrases(b *testing.B) {
	query, ids, ps := benchHeadings()
	b.Run("phrases", func(b *testing.B) {
		for b.Loop() {
			headingPhrases(query, ids, ps)
		}
	})
	b.Run("stemmed", func(b *testing.B) {
		for b.Loop() {
			if _, err := headingsIn(bg, query, ids, ps); err != nil {
				b.Fatal(err)
			}
		}
	})
}
