package eval

import "github.com/mdsearch/mdsearch"

// withExclude widens a search for a query that excludes a note, so that
// dropping that note's results (at most maxPerPage) still leaves k to judge.
func withExclude(req mdsearch.SearchRequest, q *Query, maxPerPage int) mdsearch.SearchRequest {
	if q.Exclude != "" {
		req.N = min(mdsearch.MaxN, req.N+maxPerPage)
	}
	return req
}

// withoutExcluded drops the results on the note a query excludes: its
// text is the query's source, so finding it says nothing.
func withoutExcluded(q *Query, rs []mdsearch.Result) []mdsearch.Result {
	if q.Exclude == "" {
		return rs
	}
	out := rs[:0:0]
	for _, r := range rs {
		if r.Path != q.Exclude {
			out = append(out, r)
		}
	}
	return out
}
