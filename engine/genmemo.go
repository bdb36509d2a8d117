package engine

import (
	"sync"
	"sync/atomic"
)

// genMemo keeps answers asked of the index as of one generation of it:
// the first ask after a commit starts afresh. The zero value is ready.
type genMemo[K comparable, V any] struct {
	p atomic.Pointer[genAnswers[K, V]]
}

// genAnswers are a genMemo's answers for one generation.
type genAnswers[K comparable, V any] struct {
	gen int64
	mu  sync.Mutex
	m   map[K]V
}

// get is key's answer as of generation gen: the one kept, else ask's,
// kept when ask does not fail.
func (g *genMemo[K, V]) get(gen int64, key K, ask func() (V, error)) (V, error) {
	a := g.p.Load()
	if a == nil || a.gen != gen {
		a = &genAnswers[K, V]{gen: gen, m: map[K]V{}}
		g.p.Store(a)
	}
	a.mu.Lock()
	v, ok := a.m[key]
	a.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := ask()
	if err != nil {
		return v, err
	}
	a.mu.Lock()
	a.m[key] = v
	a.mu.Unlock()
	return v, nil
}
