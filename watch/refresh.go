package watch

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/mdsearch/mdsearch"
)

// flush hands the pending changes to the engine, one Refresh per collection.
func (w *Watcher) flush(ctx context.Context) {
	w.mu.Lock()
	batch := w.pending
	w.pending = map[string]map[string]struct{}{}
	w.first, w.last = time.Time{}, time.Time{}
	w.mu.Unlock()

	for _, name := range slices.Sorted(maps.Keys(batch)) {
		paths := slices.Sorted(maps.Keys(batch[name]))
		stats, err := w.s.Refresh(ctx, name, paths)
		if ctx.Err() != nil {
			return // closing: the next start catches up
		}
		if err != nil {
			w.log.Error("refresh failed", "collection", name, "paths", paths, "err", err)
			_ = w.Sync(ctx) // the collection may have been dropped
		}
		if w.opts.OnRefresh != nil {
			w.opts.OnRefresh(name, paths, stats, err)
		}
	}
}

// catchUp incrementally indexes every watched collection.
func (w *Watcher) catchUp(ctx context.Context) {
	w.mu.Lock()
	roots := maps.Clone(w.roots)
	w.mu.Unlock()
	for _, name := range slices.Sorted(maps.Keys(roots)) {
		// By name only: a collection dropped meanwhile is not made again.
		req := mdsearch.IndexRequest{Name: name}
		stats, err := w.s.Index(ctx, req, nil)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			w.log.Error("catch-up index failed", "collection", name, "err", err)
		}
		if w.opts.OnRefresh != nil {
			w.opts.OnRefresh(name, nil, stats, err)
		}
	}
}
