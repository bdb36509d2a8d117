package engine

import (
	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
)

// wordlessCover is the share of the query's idf that the notes searched
// must hold for a semantic search whose first result holds none of it to
// say so: the words are there to be found, by keywords.
const wordlessCover = 0.5

// wordlessTop reports whether the first of a semantic search's
// candidates (best, by the ranker) holds none of the query's words while
// the notes searched hold most of their weight. Found by meaning, such a
// result can score well and still not be what a name or a term asked for
// ("turbofish" landing on "Hello, Cargo!"): docs/evaluation.md, "Semantic
// mode's score".
func wordlessTop(q *query, xs []rescore.Vector, best int) bool {
	if q.mode != mdsearch.ModeSemantic || q.nothing || len(q.terms) == 0 || best < 0 {
		return false
	}
	x := xs[best]
	return x[rescore.QueryCover] >= wordlessCover && x[rescore.CoverAll] == 0
}

// wordlessNotice says so, and where the words are found.
const wordlessNotice = "the first result, found by meaning alone, holds none of the query's words, which the notes searched hold: a hybrid or keyword search finds the passages that do"
