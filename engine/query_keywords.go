package engine

import (
	"context"

	"github.com/mdsearch/mdsearch/store"
)

// keywordList returns the best k rows of the keyword list, and the rows
// of the passages holding the query's phrases, or its tasks, below them
// (withHolders). It is read once for each depth, so distinct's later
// rounds slice it instead of asking SQLite again: at a million windows
// each ask costs 5–20 ms, however few rows it keeps.
func (q *query) keywordList(ctx context.Context, rd *store.Reader, w store.Weights, k int) ([]store.KeywordHit, error) {
	if q.kw == nil || (k > q.kwLimit && (len(q.kw) == q.kwLimit || len(q.kwHeld) == q.kwLimit)) {
		hits, err := rd.KeywordAny(ctx, q.terms, q.filter, w, k)
		if err != nil {
			return nil, err
		}
		switch {
		case len(q.must) > 0:
			if q.kwHeld, err = rd.KeywordHolding(ctx, q.terms, q.must, q.filter, w, k); err != nil {
				return nil, err
			}
		case len(q.taskTerms()) > 0:
			if q.kwHeld, err = rd.KeywordAll(ctx, q.terms, q.taskTerms(), q.filter, w, k); err != nil {
				return nil, err
			}
		}
		q.kw, q.kwLimit = append([]store.KeywordHit{}, hits...), k
	}
	return q.withHolders(q.kw[:min(k, len(q.kw))]), nil
}

// keywordRows reads the index's keyword rows once for both: bm25's N.
// Unreadable, it costs hybrid only the small-vault scale; keyword mode
// needs it for coverage.
func (q *query) keywordRows(ctx context.Context, rd *store.Reader) {
	if len(q.terms) == 0 {
		return
	}
	q.rows, q.rowsErr = rd.KeywordRows(ctx)
	if q.rowsErr == nil {
		q.rowScale = rowScale(q.rows)
	}
}

// termRows returns each query term's rows in the keyword index, up to
// maxTermRows, read once for coverage and the second stage.
func (q *query) termRows(ctx context.Context, rd *store.Reader) ([]int, error) {
	if q.counts == nil {
		counts, err := rd.TermRows(ctx, q.terms, maxTermRows)
		if err != nil {
			return nil, err
		}
		q.counts = counts
	}
	return q.counts, nil
}
