package engine

import (
	"fmt"
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
		{"what's “Integer Types”?", "integer types", 2, 2. / 3},
		{"Rust's Integer Types", "integer types", 2, 2. / 3}, // the possessive read as the keyword query reads it
		{"about what’s new", "What's New", 2, 2. / 3},        // both read alike
		{`"What's New"`, "What's New", 2, 2. / 3},            // quoted
		{"don't-panic", "Don't Panic", 2, 1},                 // "do not panic" both
		{`see "the owner’s manual"`, "The Owner's Manual", 2, 1},
	} {
		ps := map[int64]store.Passage{1: {Level: tc.level, Heading: tc.heading, Title: title}}
		if got := headingPhrases(sectionHeadings(tc.query, []int64{1}, ps))[0]; got != tc.want {
			t.Errorf("query %q, heading %q (level %d): %v, want %v", tc.query, tc.heading, tc.level, got, tc.want)
		}
	}
}

// BenchmarkHeadingPhrases is the heading features of a query's 50
// candidates as passageFeatures reads them, the headings tokenized once:
// the stemmed readings alone (headingWords), and with the word-for-word one
// (headingPhrases) beside it, in the same run. Their difference is what
// head_phrase adds to a search.
func BenchmarkHeadingPhrases(b *testing.B) {
	query, ids, ps := benchHeadings()
	for _, both := range []bool{false, true} {
		b.Run(map[bool]string{false: "stemmed", true: "stemmed+phrases"}[both], func(b *testing.B) {
			for b.Loop() {
				h := sectionHeadings(query, ids, ps)
				if _, _, err := headingWords(bg, h); err != nil {
					b.Fatal(err)
				}
				if both {
					headingPhrases(h)
				}
			}
		})
	}
}

// BenchmarkTitleOnly is the stemmed heading features of 50 candidates,
// one in five opening its note, with and without the opening passages'
// titles read (title_only), in the same run: their difference is what
// title_only adds to a search.
func BenchmarkTitleOnly(b *testing.B) {
	query, ids, ps := benchHeadings()
	for i, id := range ids {
		if i%5 == 0 {
			title := fmt.Sprintf("error handling %d", i)
			ps[id] = store.Passage{Level: 1, Heading: title, Title: title}
		}
	}
	for _, titles := range []bool{false, true} {
		b.Run(map[bool]string{false: "headings", true: "headings+titles"}[titles], func(b *testing.B) {
			for b.Loop() {
				h := sectionHeadings(query, ids, ps)
				if !titles {
					h.titles = make([][]string, len(ids))
				}
				if _, _, err := headingWords(bg, h); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
