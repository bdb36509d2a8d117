package remote

import (
	"context"
	"fmt"
	"math"
)

// Confirm implements embed.Confirmer: a dimension not known yet, or one
// declared (Options.Dim, from MDSEARCH_EMBED_DIM) that no answer has met
// yet, is checked by a probe, on indexing's patience. The index's
// (TakeDim) is taken as it is: every answer is checked against it.
func (e *Embedder) Confirm(ctx context.Context) error {
	if e.confirmed.Load() {
		return nil
	}
	return e.Probe(ctx)
}

// checkDim verifies every vector has the expected length, learning it
// from the first vector ever seen when none was configured. An answer
// that matches confirms a declared dimension.
func (e *Embedder) checkDim(vecs [][]float32) error {
	learned := e.dim.CompareAndSwap(0, int64(len(vecs[0])))
	want := e.Dim()
	for i, v := range vecs {
		if len(v) != want {
			return e.wrongDim(len(v), i, want, learned)
		}
		zero := true
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return e.fail(NotEmbeddings, "", "the server returned a vector with NaN or Inf (text %d of the batch)", i+1)
			}
			zero = zero && x == 0
		}
		if zero && want > 0 {
			// No text mdsearch sends is blank: a vector of zeros points
			// nowhere, and every cosine with it is 0.
			return e.fail(NotEmbeddings, "the server's model gave no vector for a text it was sent: check its logs, or try MDSEARCH_EMBED_BATCH=1 to find the text",
				"the server returned a vector of zeros (text %d of the batch)", i+1)
		}
	}
	e.confirmed.Store(true)
	return nil
}

// wrongDim is the error of a vector of n dimensions, text i of its batch,
// where want was expected; learned says want came from this same answer.
// The hint names where want came from, and so the fix.
func (e *Embedder) wrongDim(n, i, want int, learned bool) error {
	var hint string
	switch {
	case e.indexed != "":
		hint = "the index was embedded with " + e.indexed + ", and the server's model is another now: " +
			"run `mdsearch index` to embed the notes again with it"
	case learned:
		hint = "the server's answer holds vectors of several lengths: is --embed-url an embeddings API serving one model?"
	case !e.confirmed.Load(): // declared, and no answer has met it
		return e.fail(WrongDimension, fmt.Sprintf("unset MDSEARCH_EMBED_DIM to take the server's dimension, or set it to %d", n),
			"the server's model returns vectors of %d dimensions, but MDSEARCH_EMBED_DIM declares %d", n, want)
	case e.opts.Dim != 0:
		hint = fmt.Sprintf("the server answered %d dimensions before: if its model changed, unset MDSEARCH_EMBED_DIM "+
			"or set it to %d, and run `mdsearch index` again", want, n)
	default:
		hint = fmt.Sprintf("the server answered %d dimensions before: if its model changed, run `mdsearch index` again "+
			"to embed the notes with it", want)
	}
	return e.fail(WrongDimension, hint,
		"the server returned a vector of %d dimensions (text %d of the batch), want %d", n, i+1, want)
}
