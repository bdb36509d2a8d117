package engine

import (
	"slices"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
)

// wordlessCover is the share of the query's idf that the notes searched
// must hold for a semantic search whose first result holds none of it to
// say so: the words are there to be found, by keywords.
const wordlessCover = 0.5

// wordlessTop reports whether the first result of a semantic search,
// every passage it joins, holds none of the query's words while the notes
// searched hold most of their weight, as the second stage read its
// candidates (q.seen). Found by meaning, such a result can score well and
// still not be what a name or a term asked for ("turbofish" landing on
// "Hello, Cargo!"): docs/evaluation.md, "Semantic mode's score". A
// passage the second stage did not read counts as holding them.
func wordlessTop(q *query, kept []*group) bool {
	xs := q.seen.xs
	if q.mode != mdsearch.ModeSemantic || q.nothing || len(q.terms) == 0 || len(kept) == 0 || len(xs) == 0 ||
		xs[0][rescore.QueryCover] < wordlessCover {
		return false
	}
	for _, m := range kept[0].members {
		i := slices.IndexFunc(q.seen.keys, func(k candKey) bool { return k.id == m.id })
		if i < 0 || xs[i][rescore.CoverAll] > 0 {
			return false
		}
	}
	return true
}

// wordlessNotice says so, and where the words are found.
const wordlessNotice = "the first result, found by meaning alone, holds none of the query's words, though the notes searched hold most of them: a hybrid or keyword search finds the passages that do"
