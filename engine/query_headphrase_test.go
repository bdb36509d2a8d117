package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch/store"
)

// TestQuotedOverTitle: a note's opening stops reading as the answer to a
// query that names its title alone when the query quotes a heading of
// the same note that holds more of its words: common words that phrase
// the heading.
func TestQuotedOverTitle(t *testing.T) {
	ps := map[int64]store.Passage{
		1: {Doc: 1, Level: 1, Heading: "composables", Title: "composables"},
		2: {Doc: 1, Level: 2, Heading: `what is a "composable"?`, Title: "composables"},
		3: {Doc: 2, Level: 0, Title: "composable"},
		4: {Doc: 1, Level: 2, Heading: "composable", Title: "composables"},
		5: {Doc: 3, Level: 0, Title: "reactivity in depth"},
		6: {Doc: 3, Level: 2, Heading: "what is reactivity?", Title: "reactivity in depth"},
	}
	ids := []int64{1, 2, 3, 4, 5, 6}
	for _, tc := range []struct {
		query string
		want  []bool // whether each passage keeps a titled reading
	}{
		{"what is a composable", []bool{false, false, true, false, false, false}}, // note 1's heading holds more; note 2 has none
		{"what is a composable?", []bool{false, false, true, false, false, false}},
		{"composables", []bool{true, false, true, false, false, false}},                   // the heading is no part of the query
		{"composable", []bool{true, false, true, false, false, false}},                    // the heading "composable" holds no common word
		{"the composables", []bool{true, false, true, false, false, false}},               // the heading is no part of the query
		{"what is reactivity in depth?", []bool{false, false, false, false, true, false}}, // the heading lacks "depth"
		{"what is reactivity?", []bool{false, false, false, false, false, false}},         // the query is the heading
	} {
		h := sectionHeadings(tc.query, ids, ps)
		_, titled, err := headingWords(bg, h)
		if err != nil {
			t.Fatal(err)
		}
		quotedOverTitle(h, headingPhrases(h), titled)
		got := make([]bool, len(titled))
		for i, v := range titled {
			got[i] = v > 0
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: titled %v, want %v", tc.query, titled, tc.want)
		}
	}
}

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
