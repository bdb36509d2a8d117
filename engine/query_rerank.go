package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed/remote"
	"github.com/mdsearch/mdsearch/rerank"
	"github.com/mdsearch/mdsearch/store"
)

// rerankK is how many results of the local ranking a reranker sees: deep
// enough to lift a passage the local ranking placed low, few enough for a
// cross-encoder to answer while the user waits.
const rerankK = 30

// rerankTokens is how much of each passage a reranker is sent, by
// remote.EstimateTokens (an over-estimate): cross-encoders read 512
// tokens of query and passage together, and llama.cpp refuses more than
// its batch rather than cutting.
const rerankTokens = 448

// reranked is distinct, with the results reordered by the engine's
// reranker when it has one and the request does not opt out: the first
// max(N, rerankK) results of the local ranking are scored, and the best N
// by those scores kept. A reranker that fails leaves the local ranking
// and says so in notice; it never fails the search. A query with a
// suggestion, where the mode's local scores are probabilities, waits:
// offer reranks the query it shows (q.deferred).
func (e *Engine) reranked(ctx context.Context, rd *store.Reader, q *query, notice *string) ([]mdsearch.Result, seams, func(mdsearch.Result) bool, copiesLeft, error) {
	rr := e.opts.Reranker
	if rr == nil || q.req.NoRerank {
		return e.distinct(ctx, rd, q)
	}
	want := q.req.N
	q.req.N = max(want, rerankK)
	res, joins, stale, copies, err := e.distinct(ctx, rd, q)
	q.req.N = want
	if err != nil {
		return nil, nil, nil, copiesLeft{}, err
	}
	if msg := e.rerankDown.skip(time.Now()); msg != "" {
		addNotice(notice, msg)
		res = res[:min(len(res), want)]
		return res, joins, stale, copies.among(res), nil
	}
	if q.suggestion != nil && e.stage(q.mode) != nil && q.suggestion().query != "" {
		// The typed query or its respelling, whichever the local scores
		// show, is reranked once the suggestion is searched (offer).
		q.deferred = true
		res = res[:min(len(res), want)]
		return res, joins, stale, copies.among(res), nil
	}
	var rerr error
	left := 0
	offCPU(func() { left, rerr = rerankResults(ctx, rr, q.req.Query, res) })
	switch {
	case rerr != nil:
	case left == len(res) && left > 0: // an answer, if an empty one: no pause
		addNotice(notice, fmt.Sprintf("%s scored none of the %d passages it was sent; showing the local ranking", rr.Name(), len(res)))
	case left > 0:
		addNotice(notice, fmt.Sprintf("%s scored %d of the %d passages it was sent; the others follow in the local ranking, scored 0",
			rr.Name(), len(res)-left, len(res)))
	}
	if rerr != nil {
		if ctx.Err() != nil {
			return nil, nil, nil, copiesLeft{}, ctx.Err()
		}
		addNotice(notice, "reranker unavailable: "+rerr.Error()+"; showing the local ranking")
		// A long-running process logs the pause; a one-shot search's
		// notice says it all.
		if e.rerankDown.failed(time.Now(), rerr) && e.opts.Follow {
			e.notify("reranker unavailable: " + rerr.Error() + "; searches keep the local ranking, and try it again after " + rerankPause.String())
		}
	}
	if rerr == nil {
		e.rerankDown.ok()
	}
	q.reranked = rerr == nil && left < len(res)
	res = res[:min(len(res), want)]
	return res, joins, stale, copies.among(res), nil
}

// rerankPause is how long searches skip a reranker that failed: a server
// down or hung would cost every search its timeout (10 s by default),
// which a search page or an agent waits out each time.
const rerankPause = 30 * time.Second

// rerankState is when the reranker last failed, and why.
type rerankState struct {
	mu    sync.Mutex
	until time.Time // searches before it skip the reranker
	why   string
}

// failed records a failure at now; it reports whether it is news (the
// reranker was not paused already), for the log.
func (s *rerankState) failed(now time.Time, err error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	news := s.until.IsZero()
	s.until, s.why = now.Add(rerankPause), err.Error()
	return news
}

// skip is the notice of a search that skips the paused reranker, or ""
// when it may be asked (never paused, or its pause over: the next search
// tries it, and a success ends the pause).
func (s *rerankState) skip(now time.Time) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until.IsZero() || !now.Before(s.until) {
		return ""
	}
	return fmt.Sprintf("reranker unavailable (it failed %s ago: %s); showing the local ranking until it is tried again, in %s",
		now.Sub(s.until.Add(-rerankPause)).Round(time.Second), s.why, s.until.Sub(now).Round(time.Second))
}

// ok ends a pause: the reranker answered.
func (s *rerankState) ok() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.until, s.why = time.Time{}, ""
}

// offCPU runs f, a wait on the network, without the search's CPU slot
// (engine_limit.go), so a slow reranker does not hold up other searches. The
// slot is taken back whatever happens: Search releases it when done.
func offCPU(f func()) {
	release()
	defer func() { work <- struct{}{} }()
	f()
}

// rerankResults scores res against query with rr and sorts it by those
// scores, best first, each result's Score becoming its 0–1 score (ties
// keep the local order). The passages the reranker left out follow those
// it scored, in the local order, scored 0; left counts them. On an error,
// or when it scored none, res is left as it was.
func rerankResults(ctx context.Context, rr rerank.Reranker, query string, res []mdsearch.Result) (left int, err error) {
	if len(res) == 0 {
		return 0, nil
	}
	docs := make([]string, len(res))
	for i, r := range res {
		docs[i] = rerankText(r)
	}
	scores, err := rr.Rerank(ctx, query, docs)
	if err != nil {
		return 0, err
	}
	if len(scores) != len(res) {
		return 0, fmt.Errorf("%s returned %d scores for %d passages", rr.Name(), len(scores), len(res))
	}
	for _, s := range scores {
		if math.IsNaN(s) {
			left++
		} else if !(s >= 0 && s <= 1) { // the contract: scores are shown as they are
			return 0, fmt.Errorf("%s returned the score %g, outside 0–1", rr.Name(), s)
		}
	}
	if left == len(res) { // nothing to reorder by: the local ranking stands
		return left, nil
	}
	key := func(i int) float64 { // a passage left out: below every score
		if math.IsNaN(scores[i]) {
			return -1
		}
		return scores[i]
	}
	order := make([]int, len(res))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key(b), key(a)) })
	sorted := make([]mdsearch.Result, len(res))
	for i, j := range order {
		sorted[i] = res[j]
		sorted[i].Score = 0
		if !math.IsNaN(scores[j]) {
			sorted[i].Score = round4(scores[j])
		}
		if w := res[j].Why; w != nil {
			why, local := *w, res[j].Score
			why.Reranker, why.LocalScore = nil, &local // no reranker score: left out
			if !math.IsNaN(scores[j]) {
				rs := sorted[i].Score
				why.Reranker = &rs
			}
			sorted[i].Why = &why
		}
	}
	copy(res, sorted)
	return left, nil
}

// rerankText is a passage as a reranker reads it: under its heading path,
// as the embedding model reads it ("[Title > Section] text"), so the
// cross-encoder knows what the passage is about, cut to rerankTokens.
func rerankText(r mdsearch.Result) string {
	text := r.Text
	if parts := mdsearch.HeadingTrail(r.Title, r.SectionPath); len(parts) > 0 {
		text = "[" + strings.Join(parts, " > ") + "] " + text
	}
	return remote.Truncate(text, rerankTokens)
}
