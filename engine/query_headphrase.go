package engine

import (
	"slices"

	"github.com/mdsearch/mdsearch/store"
)

// headings are the words the heading features read, each tokenized
// once: the query's, and each passage's section heading's (nil for the
// note's title and text before any heading: a question names the note
// it is about, which says nothing of which section answers it).
type headings struct {
	query []string
	heads [][]string
}

// sectionHeadings tokenizes the query and the passages' headings.
func sectionHeadings(query string, ids []int64, ps map[int64]store.Passage) headings {
	h := headings{query: tokens(query), heads: make([][]string, len(ids))}
	for i, id := range ids {
		if p := ps[id]; p.Level > 0 && p.Heading != p.Title {
			h.heads[i] = tokens(p.Heading)
		}
	}
	return h
}

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
// nothing.
func headingPhrases(h headings) []float64 {
	out := make([]float64, len(h.heads))
	for i, head := range h.heads {
		if slices.ContainsFunc(head, func(w string) bool { return !stopwords[w] }) && holdsRun(h.query, head) {
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
