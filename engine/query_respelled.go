package engine

import (
	"context"

	"github.com/mdsearch/mdsearch"
)

// offer tries f's suggestion (choose) and, where f's rerank waited for
// it (reranked), has the reranker reorder the results shown: a misspelled
// query costs one rerank, and the local scores, probabilities, choose
// between the typed query and its respelling.
// It fails only where the search was cancelled.
func (e *Engine) offer(ctx context.Context, req mdsearch.SearchRequest, f *found) (*found, error) {
	local := req
	local.NoRerank = req.NoRerank || f.deferred
	w := e.choose(ctx, local, f)
	if err := ctx.Err(); err != nil { // choose's searches cost the suggestion only, but for this
		return nil, err
	}
	if f.deferred {
		var err error
		if w, err = e.rerankShown(ctx, req, w); err != nil {
			return nil, err
		}
	}
	w.resp.Notice = joinNotices(w.spellNotice, w.resp.Notice)
	return w, nil
}

// choose tries f's suggestion: the respelled query searched in the
// request's mode must find a strong answer (suggestMinScore), or rescue a
// search that found nothing likely with a slip of one letter (rescued), to be
// offered, and its search is then shown in place of f where its best is
// likelier to answer; else f offers it in its notice, saying when it was
// searched and did no better. Where the mode's scores are no
// probabilities (a reranker asks, or another embedder than the second
// stage's), a keyword search confirms it (confirm) and the two best
// scores compare on the reranker's or the fused scale. The bests are
// those before min_score left results out (found.best). A failed search
// costs the suggestion only: the answer stands.
func (e *Engine) choose(ctx context.Context, req mdsearch.SearchRequest, f *found) *found {
	var g *found
	gated := false // g's own best tells whether the suggestion is strong
	if e.modeGates(req, f.resp.Mode) {
		if g = e.searchRespelled(ctx, req, f); g != nil && e.modeGates(req, g.resp.Mode) {
			if gated = true; g.best < suggestMinScore && !(f.sug.slips && rescued(f.best, g.best)) {
				if g.best < Unlikely {
					f.spell = respellWeak
				}
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
	f.spellNotice = f.sug.notice
	if !req.AsTyped {
		if g == nil {
			g = e.searchRespelled(ctx, req, f)
		}
		switch {
		case g == nil:
		case g.best > f.best:
			g.resp.Query, g.resp.Suggestion, g.resp.Respelled = req.Query, f.sug.query, true
			// The suggestion was made of the query without its frame.
			g.spellNotice = joinNotices(f.sug.shown, f.frame)
			return g // its weak-result notice is of the query it shows
		default: // searched, and no likelier: following it would lose
			f.spell = respellLost
			f.spellNotice += " (its best result scores no higher)"
		}
	}
	return f
}

// rescued reports whether a respelled query whose best scores respelled,
// under a strong answer, still finds what the typed query, whose best
// scores typed, does not: no result of the typed query is likely to
// answer, and the respelled query's best is. "how does borowing work"
// finds nothing likely in the Rust book; "how does borrowing work" finds
// its chapter at 30 %. Only a slip of one letter a word is so offered
// (suggestion.slips): a word two edits from the respelling is as often
// one the notes do not use ("Columbus" is not "Columns").
func rescued(typed, respelled float64) bool {
	return typed < Unlikely && respelled >= Unlikely
}

// rerankShown searches again, reranked as req asks, for the query w
// shows, w's suggestion kept (its vector is the one w's search asked
// for: askedVector). Where that search fails, w stands, its notice
// saying why, unless the search was cancelled.
func (e *Engine) rerankShown(ctx context.Context, req mdsearch.SearchRequest, w *found) (*found, error) {
	alt := req
	if w.resp.Respelled {
		alt.Query = w.resp.Suggestion
	}
	r, err := e.search(ctx, alt, false)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		addNotice(&w.resp.Notice, "the reranked search failed ("+err.Error()+"); showing the local ranking")
		return w, nil
	}
	r.resp.Query, r.resp.Suggestion, r.resp.Respelled = w.resp.Query, w.resp.Suggestion, w.resp.Respelled
	r.sug, r.spell, r.spellNotice = w.sug, w.spell, w.spellNotice
	return r, nil
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
