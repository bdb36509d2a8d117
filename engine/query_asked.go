package engine

import (
	"context"
	"sync"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

// askedKey keys a Search's askedVectors in its context.
type askedKey struct{}

// askedVectors are the query vectors one Search asked for, failures too:
// its searches of the same text again (the respelled query, searched to
// check it and then reranked) embed it once, and a model server down is
// not asked again within the call.
type askedVectors struct {
	mu sync.Mutex
	m  map[string]queryVector
}

// askedVector is embedQuery, once a Search for each text.
func (e *Engine) askedVector(ctx context.Context, q string) ([]float32, error) {
	a, _ := ctx.Value(askedKey{}).(*askedVectors)
	if a == nil {
		return e.embedQuery(ctx, q)
	}
	a.mu.Lock()
	v, ok := a.m[q]
	a.mu.Unlock()
	if !ok {
		v.vec, v.err = e.embedQuery(ctx, q)
		if ctx.Err() != nil { // a cancelled ask says nothing of the model
			return v.vec, v.err
		}
		a.mu.Lock()
		a.m[q] = v
		a.mu.Unlock()
	}
	return v.vec, v.err
}

// embedQuery embeds the query on a search's budget (embed.Query).
func (e *Engine) embedQuery(ctx context.Context, q string) ([]float32, error) {
	vec, err := embed.Query(ctx, e.emb, q)
	if err != nil {
		return nil, embedError(e.emb.ModelID(), err)
	}
	if vec == nil || len(vec) != e.emb.Dim() {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "embed", e.emb.ModelID(), "", "model returned no usable query vector")
	}
	return vec, nil
}
