package watch

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"time"

	"github.com/mdsearch/mdsearch"
)

// flush hands the pending changes to the engine, one Refresh per
// collection. It reports whether watching must stop: the index file is
// gone (mdsearch.ErrIndexReplaced), so every refresh would fail alike.
func (w *Watcher) flush(ctx context.Context) (stop bool) {
	w.mu.Lock()
	batch, rules := w.pending, w.rules
	w.pending, w.rules = map[string]map[string]struct{}{}, false
	w.first, w.last = time.Time{}, time.Time{}
	w.mu.Unlock()
	if rules {
		return w.catchUp(ctx) // covers the named notes too
	}

	for _, name := range slices.Sorted(maps.Keys(batch)) {
		paths := slices.Sorted(maps.Keys(batch[name]))
		stats, err := w.s.Refresh(ctx, name, paths)
		if ctx.Err() != nil {
			w.cut(err)
			return false // closing: the next start catches up
		}
		if w.indexGone(err) {
			return true
		}
		switch {
		case err != nil && w.isGone(name):
			w.log.Warn("collection folder is gone; its index is kept, and the folder is watched for again",
				"collection", name)
		case err != nil && mdsearch.KindOf(err) == mdsearch.KindUnavailable:
			// What is missing may come back (a model server, room on the
			// disk): what the run wrote stays, and a retry finishes it.
			w.log.Warn("refresh waits for what it needs; retried later", "collection", name, "paths", paths, "err", err)
		case err != nil:
			w.log.Error("refresh failed", "collection", name, "paths", paths, "err", err)
		}
		if err != nil {
			_ = w.Sync(ctx) // the collection may have been dropped
		}
		w.noteUnavailable(stats, err)
		if w.opts.OnRefresh != nil {
			w.opts.OnRefresh(name, paths, stats, err)
		}
	}
	return false
}

// noteUnavailable records that a run could not reach the embedding model
// (a server down: its windows wait for vectors), for a catch-up later:
// a run that failed so, or one that indexed a new index for keyword
// search only (stats.NoVectors), which fails nothing.
func (w *Watcher) noteUnavailable(stats *mdsearch.IndexStats, err error) {
	switch {
	case err != nil && mdsearch.KindOf(err) == mdsearch.KindUnavailable && !errors.Is(err, mdsearch.ErrIndexReplaced):
		w.unavailable, w.retryAfter = true, err
	case err == nil && stats != nil && stats.NoVectors != "":
		w.unavailable, w.retryAfter = true, errors.New("indexed for keyword search only: "+stats.NoVectors)
	}
}

// cut records that Close stopped a refresh or catch-up, which err
// (non-nil) says it did not finish.
func (w *Watcher) cut(err error) {
	if err != nil {
		w.stopped = true // read after done closes
	}
}

// indexGone logs, once, that the index file was deleted or replaced, and
// reports it.
func (w *Watcher) indexGone(err error) bool {
	if !errors.Is(err, mdsearch.ErrIndexReplaced) {
		return false
	}
	w.log.Error("watching stopped: no note is indexed until this process is restarted", "err", err)
	w.err = err // read after done closes
	return true
}

// catchUp incrementally indexes every watched collection. It reports
// whether watching must stop, as flush does.
func (w *Watcher) catchUp(ctx context.Context) (stop bool) {
	w.mu.Lock()
	roots := maps.Clone(w.roots)
	// Watch the folders made while events were lost (a queue that
	// overflowed) or that could not be watched then: the index run finds
	// their notes, and their watches catch what changes next.
	for _, root := range slices.Sorted(maps.Values(roots)) {
		if w.gone[root] {
			continue // looked for again by rewatchRoots, which takes it back whole
		}
		if err := w.addTree(root, false); err != nil && !errors.Is(err, fs.ErrNotExist) {
			w.log.Warn("cannot watch collection", "root", root, "err", err)
		}
	}
	w.mu.Unlock()
	for _, name := range slices.Sorted(maps.Keys(roots)) {
		// By name only: a collection dropped meanwhile is not made again.
		req := mdsearch.IndexRequest{Name: name}
		stats, err := w.s.Index(ctx, req, nil)
		if ctx.Err() != nil {
			w.cut(err)
			return false
		}
		if w.indexGone(err) {
			return true
		}
		switch {
		case err != nil && mdsearch.KindOf(err) == mdsearch.KindUnavailable:
			w.log.Warn("catch-up waits for what it needs; retried later", "collection", name, "err", err)
		case err != nil:
			w.log.Error("catch-up index failed", "collection", name, "err", err)
		}
		w.noteUnavailable(stats, err)
		if w.opts.OnRefresh != nil {
			w.opts.OnRefresh(name, nil, stats, err)
		}
	}
	return false
}

// isGone reports whether the collection's folder vanished and is being
// looked for again.
func (w *Watcher) isGone(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	root, ok := w.roots[name]
	return ok && w.gone[root] && !w.dirs[root]
}
