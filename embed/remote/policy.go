package remote

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/mdsearch/mdsearch/embed"
)

// policy is how patiently a call waits for the server. Indexing can wait
// minutes for a busy server; a search's query, which a person waits on,
// gets a few seconds in all and then shows keyword results.
type policy struct {
	timeout  time.Duration // per request
	retries  int           // extra attempts after a retryable failure
	backoff  time.Duration // the first retry's wait; it doubles each time
	maxWait  time.Duration // the longest wait before a retry, Retry-After included
	deadline time.Time     // zero, or the end of the whole call
	query    bool          // a search's query: its hints name its budget
}

// queryBackoff is the longest wait before a query's one retry, and
// minAttempt the least time a retry must have left to be worth sending.
const (
	queryBackoff = 200 * time.Millisecond
	minAttempt   = 100 * time.Millisecond
)

// indexPolicy is Embed's: Options' timeout, retries and backoff.
func (e *Embedder) indexPolicy() policy {
	return policy{timeout: e.opts.Timeout, retries: e.opts.Retries, backoff: e.opts.Backoff, maxWait: e.opts.MaxBackoff}
}

// queryPolicy is EmbedQuery's: QueryTimeout for the whole call, and at
// most one quick retry (a 429 or 5xx answer, a dropped connection) that
// fits in it.
func (e *Embedder) queryPolicy() policy {
	return policy{timeout: e.opts.QueryTimeout, retries: min(max(e.opts.Retries, 0), 1),
		backoff: min(e.opts.Backoff, queryBackoff), maxWait: e.opts.QueryTimeout,
		deadline: time.Now().Add(e.opts.QueryTimeout), query: true}
}

// left is the time to p's deadline, or all the time there is.
func (p policy) left() time.Duration {
	if p.deadline.IsZero() {
		return math.MaxInt64
	}
	return time.Until(p.deadline)
}

// wait is the wait before attempt try (1-based among retries): the
// server's Retry-After if it sent one, else backoff doubled per retry,
// capped at maxWait, with the upper half jittered so clients spread out.
func (p policy) wait(try int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	d := p.backoff << (try - 1)
	if d > p.maxWait || d <= 0 {
		d = p.maxWait
	}
	return d/2 + rand.N(d/2+1)
}

// EmbedQuery implements embed.Querier: text's vector on a search's
// budget. The whole call, a probe for an unknown dimension included,
// takes at most QueryTimeout, and a Retry-After longer than what is left
// fails at once. On indexing's policy (a minute a request, four retries)
// a search of a hung server took five minutes to show keyword results.
func (e *Embedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	p := e.queryPolicy()
	if embed.IsBlank(text) {
		if e.Dim() == 0 {
			if _, err := e.embedBatch(ctx, p, []string{probeText}); err != nil {
				return nil, err
			}
		}
		return make([]float32, e.Dim()), nil
	}
	vecs, err := e.embedBatch(ctx, p, []string{e.fit(text)})
	if err != nil {
		return nil, err
	}
	return vecs[0], nil
}

// QuickProbe is Probe on a search's budget (EmbedQuery's), for a process
// that opens the model to search.
func (e *Embedder) QuickProbe(ctx context.Context) error {
	_, err := e.EmbedQuery(ctx, probeText)
	return err
}
