package engine

import (
	"context"

	"github.com/mdsearch/mdsearch"
)

// offer tries f's suggestion: the respelled query searched in the
// request's mode must find a strong answer (suggestMinScore) to be
// offered, and its search is then shown in place of f where its best is
// likelier to answer; else f offers it in its notice, saying when it was
// searched and did no better. Where the mode's scores are no
// probabilities (a reranker asks, or another embedder than the second
// stage's), a keyword search confirms it (confirm) and the two best
// scores compare on the reranker's or the fused scale. The bests are
// those before min_score left results out (found.best). A failed search
// costs the suggestion only: the answer stands.
func (e *Engine) offer(ctx context.Context, req mdsearch.SearchRequest, f *found) *found {
	var g *found
	gated := false // g's own best tells whether the suggestion is strong
	if e.modeGates(req, f.resp.Mode) {
		if g = e.searchRespelled(ctx, req, f); g != nil && e.modeGates(req, g.resp.Mode) {
			if gated = true; g.best < suggestMinScore {
				return f
			}
		}
	}
	if !gated {
		if ok, _ := e.confirm(ctx, req, f.sug.query); !ok {
			return f
		}
	}
	f.resp.Suggestion, f.spell = f.sug.query, respellOffered
	notice := f.sug.notice
	if !req.AsTyped {
		if g == nil {
			g = e.searchRespelled(ctx, req, f)
		}
		switch {
		case g == nil:
		case g.best > f.best:
			g.resp.Query, g.resp.Suggestion, g.resp.Respelled = req.Query, f.sug.query, true
			g.resp.Notice = joinNotices(f.sug.shown, g.resp.Notice)
			return g // its weak-result notice is of the query it shows
		default: // searched, and no likelier: following it would lose
			f.spell = respellLost
			notice += " (its best result scores no higher)"
		}
	}
	f.resp.Notice = joinNotices(notice, f.resp.Notice)
	return f
}

// searchRespelled searches for f's suggestion as req asks; nil if that
// fails. A misspelling then costs a person or an agent no second search:
// the misspelled dev queries' hit@5 rises to what their suggestions find
// (docs/evaluation.md, "Misspelled queries").
func (e *Engine) searchRespelled(ctx context.Context, req mdsearch.SearchRequest, f *found) *found {
	alt := req
	alt.Query = f.sug.query
	g, err := e.search(ctx, alt, false)
	if err != nil {
		return nil
	}
	return g
}

// modeGates reports whether a search in mode scores as the second stage
// does, a probability that means the same on every vault, so that its
// best can tell a strong answer: no reranker asks, and the mode has a
// second stage (Scores).
func (e *Engine) modeGates(req mdsearch.SearchRequest, mode mdsearch.Mode) bool {
	return (e.opts.Reranker == nil || req.NoRerank) && e.stage(mode) != nil
}

// bestScore is the best score of results, -1 for none: a search that
// found nothing is below one whose best scores 0.
func bestScore(results []mdsearch.Result) float64 {
	best := -1.0
	for _, r := range results {
		best = max(best, r.Score)
	}
	return best
}
