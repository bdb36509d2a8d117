package engine

import (
	"context"
	"math"
	"time"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/store"
)

// The model's time for a text is about its tokens plus a fixed part (the
// sequence's own layers, the call, the vector's write), and that part's
// worth in tokens depends on the machine: about 80 on a CPU with VNNI,
// under 10 on AVX2 alone. Texts go longest first, so the last ones are
// short and their fixed part is most of what they cost: a progress
// estimate that prices it wrong is off by half near the end. The run
// times it on its own first batches instead (probe).

// probePairs is how many long and short batches the probe times, and
// minProbeBatches the fewest batches a run needs for a probe: shorter runs
// end before an estimate matters.
const (
	probePairs      = 2
	minProbeBatches = 16
)

// timedBatch is a batch the probe embedded, with its vectors and the time
// its Embed call took.
type timedBatch struct {
	batch []store.Pending
	vecs  [][]float32
	took  time.Duration
	err   error
}

// probe embeds and commits the run's first batches: one a concurrent
// call to warm each session (a session's first call pays its start),
// then long and short batches in turn, one call at a time. Calls side by
// side share the embedder's sessions (the local model runs each call's
// batches on all of them), so each one's time held waits for the other's:
// a short batch queued behind a long one took six times its own, and the
// fit swung from below zero to 290 tokens between runs. From their times
// it sets the progress's TextTokens. It returns the texts left to embed,
// longest first.
func (r *run) probe(pend []store.Pending, start time.Time) ([]store.Pending, error) {
	size := r.e.opts.EmbedBatch
	batches := (len(pend) + size - 1) / size
	conc := embed.ConcurrencyOf(r.e.emb)
	if batches < max(minProbeBatches, 2*(conc+2*probePairs)) {
		return pend, nil
	}
	at := func(i int) []store.Pending { return pend[i*size : min((i+1)*size, len(pend))] }
	var order [][]store.Pending
	for i := range conc {
		order = append(order, at(i))
	}
	for i := range probePairs {
		order = append(order, at(conc+i), at(batches-1-i))
	}
	var timed []timedBatch
	for from, n := 0, conc; from < len(order); from, n = from+n, 1 {
		group := r.embedTimed(order[from:min(from+n, len(order))])
		for _, b := range group {
			if b.err != nil {
				return nil, embedError(r.e.emb.ModelID(), b.err)
			}
			if err := r.commit(b.batch, b.vecs, start); err != nil {
				return nil, err
			}
		}
		if from >= conc { // past the warm-up
			timed = append(timed, group...)
		}
	}
	if k, ok := fitTextTokens(timed); ok {
		r.prog.TextTokens = &k
		r.publish()
	}
	return pend[(conc+probePairs)*size : (batches-probePairs)*size], nil
}

// embedTimed runs one Embed call a batch, all at once, and times each.
func (r *run) embedTimed(batches [][]store.Pending) []timedBatch {
	out := make([]timedBatch, len(batches))
	done := make(chan struct{}, len(batches))
	for i, b := range batches {
		go func() {
			defer func() { done <- struct{}{} }()
			out[i] = r.embedOne(r.ctx, b)
		}()
	}
	for range batches {
		<-done
	}
	return out
}

func (r *run) embedOne(ctx context.Context, batch []store.Pending) timedBatch {
	t0 := time.Now()
	vecs, err := r.e.emb.Embed(ctx, embedTexts(batch))
	return timedBatch{batch: batch, vecs: vecs, took: time.Since(t0), err: err}
}

// fitTextTokens fits took = a·tokens + c·texts over the timed batches by
// least squares and returns c/a: a text's fixed part in tokens. ok is
// false when the times cannot tell the two apart (batches alike, or
// times that fall as texts grow longer). The answer is kept between none
// and four of the longest texts, so one odd timing cannot price the rest
// absurdly: a text costs the model at least its tokens, and a fit below
// zero is a part too small to time (a few tokens, on AVX2) met by noise.
func fitTextTokens(timed []timedBatch) (k float64, ok bool) {
	var tt, tn, nn, ty, ny float64
	shortest, longest := math.Inf(1), 0.0
	for _, b := range timed {
		tokens, texts := float64(pendingTokens(b.batch)), float64(len(b.batch))
		y := b.took.Seconds()
		tt, tn, nn = tt+tokens*tokens, tn+tokens*texts, nn+texts*texts
		ty, ny = ty+tokens*y, ny+texts*y
		if texts > 0 {
			shortest, longest = min(shortest, tokens/texts), max(longest, tokens/texts)
		}
	}
	det := tt*nn - tn*tn
	if len(timed) < 2 || det <= 1e-9*tt*nn || longest < 2*shortest {
		return 0, false
	}
	a := (ty*nn - tn*ny) / det
	c := (tt*ny - tn*ty) / det
	if a <= 0 {
		return 0, false
	}
	return math.Min(math.Max(c/a, 0), 4*longest), true
}
