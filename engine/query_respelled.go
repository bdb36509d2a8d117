package engine

import (
	"context"

	"github.com/mdsearch/mdsearch"
)

// offer gives f's confirmed suggestion: the respelled query's search in
// place of f where it answers better (respelled), else f with the
// suggestion offered in its notice, which says when the respelled query
// was searched and did no better. A failed search costs the respelling
// only, as a failed check costs the suggestion.
func (e *Engine) offer(ctx context.Context, req mdsearch.SearchRequest, f *found) *found {
	notice := f.sug.notice
	if !req.AsTyped {
		switch g, err := e.respelled(ctx, req, f); {
		case err != nil:
		case g != nil:
			return g
		default: // searched, and no likelier: following it would lose
			f.spell = respellLost
			notice += " (its best result scores no higher)"
		}
	}
	f.resp.Notice = joinNotices(notice, f.resp.Notice)
	return f
}

// respelled searches for f's confirmed suggestion in the request's own
// mode and returns that search, to be shown in place of the typed
// query's, where its best result is likelier to answer; nil where the
// typed query's stands. The two best scores are on one scale: the second
// stage's probabilities, or a reranker's relevance (each search asks it).
// A misspelling then costs a person or an agent no second search: the
// misspelled dev queries' hit@5 rises to what their suggestions find
// (docs/evaluation.md, "Misspelled queries"), and an off-topic question
// gets none, as a suggestion must find a strong answer first.
func (e *Engine) respelled(ctx context.Context, req mdsearch.SearchRequest, f *found) (*found, error) {
	alt := req
	alt.Query = f.sug.query
	g, err := e.search(ctx, alt, false)
	if err != nil {
		return nil, err
	}
	if topScore(g.resp.Results) <= topScore(f.resp.Results) {
		return nil, nil
	}
	g.resp.Query, g.resp.Suggestion, g.resp.Respelled = req.Query, f.sug.query, true
	g.resp.Notice = joinNotices(f.sug.shown, g.resp.Notice)
	return g, nil // its weak-result notice is of the query it shows
}

// topScore is the score of the first of results, 0 for none.
func topScore(results []mdsearch.Result) float64 {
	if len(results) == 0 {
		return 0
	}
	return results[0].Score
}
