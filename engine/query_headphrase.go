package engine

import (
	"slices"

	"github.com/mdsearch/mdsearch/store"
)

// headingPhrases is, for each passage, how plainly the query quotes its
// section heading: when the query holds the heading word for word and in
// order, its words (up to three) over three, else 0. A sentence that
// quotes a heading ("see the “Integer Types” section", "use shallowRef()
// instead", "the v-else-if directive") names that section; the longer the
// heading, the less it is there by chance (a question "about the
// construction of the tower" quotes the heading "Construction" of every
// building's note). Unlike headingsIn it reads the words as written,
// unstemmed and with common ones, so "Types of Integers" is not "integer
// types". A heading of common words alone ("What", "About") names
// nothing; the note's title and text before any heading get 0, as in
// headingsIn.
func headingPhrases(query string, ids []int64, ps map[int64]store.Passage) []float64 {
	words := tokens(query)
	out := make([]float64, len(ids))
	for i, id := range ids {
		p := ps[id]
		if p.Level == 0 || p.Heading == p.Title {
			continue
		}
		head := tokens(p.Heading)
		if slices.ContainsFunc(head, func(w string) bool { return !stopwords[w] }) && holdsRun(words, head) {
			out[i] = min(float64(len(head)), 3) / 3
		}
	}
	return out
}

// holdsRun reports whether run is a contiguous part of words.
func holdsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
