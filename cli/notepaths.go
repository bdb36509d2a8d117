package cli

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch/render"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// notePaths lists the notes of a collection for resolving the wikilinks of
// rendered notes. A listing is reused for a few seconds, so a page that
// opens note after note walks the vault once, and requests that miss the
// cache together wait for one walk.
type notePaths struct {
	st      collectionFinder
	maxSize int64
	mu      sync.Mutex
	cache   map[string]*listing
}

// collectionFinder finds a collection by name; *store.Store is one.
type collectionFinder interface {
	Collection(ctx context.Context, name string) (*store.Collection, error)
}

// listing is one walk of a collection's vault and the link index built
// from it; done closes when it ends.
type listing struct {
	done  chan struct{}
	links *render.LinkIndex
	err   error
	at    time.Time
}

const notePathsTTL = 10 * time.Second

func newNotePaths(st collectionFinder, maxSize int64) *notePaths {
	return &notePaths{st: st, maxSize: maxSize, cache: map[string]*listing{}}
}

// Links walks the folder of the named collection as indexing does and
// indexes its notes for link resolution. An unknown collection has no
// notes.
func (n *notePaths) Links(ctx context.Context, collection string) (*render.LinkIndex, error) {
	for {
		n.mu.Lock()
		l := n.cache[collection]
		if l == nil || (finished(l) && time.Since(l.at) >= notePathsTTL) {
			l = &listing{done: make(chan struct{})}
			n.cache[collection] = l
			n.mu.Unlock()
			n.fill(ctx, collection, l)
			return l.links, l.err
		}
		n.mu.Unlock()
		select {
		case <-l.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if l.err == nil {
			return l.links, nil
		}
		// The walk failed; fill dropped it from the cache. Its request may
		// have been cancelled while this one was not: walk again.
		cancelled := errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded)
		if !cancelled || ctx.Err() != nil {
			return nil, l.err
		}
	}
}

// fill walks the collection's vault into l and closes l.done. A failed walk
// is not kept.
func (n *notePaths) fill(ctx context.Context, collection string, l *listing) {
	var paths []string
	paths, l.err = n.walk(ctx, collection)
	l.links, l.at = render.NewLinkIndex(paths), time.Now()
	if l.err != nil {
		n.mu.Lock()
		if n.cache[collection] == l {
			delete(n.cache, collection)
		}
		n.mu.Unlock()
	}
	close(l.done)
}

func (n *notePaths) walk(ctx context.Context, collection string) ([]string, error) {
	c, err := n.st.Collection(ctx, collection)
	if err != nil || c == nil {
		return nil, err
	}
	v, err := vault.Open(c.Root, vault.Options{MaxFileSize: n.maxSize})
	if err != nil {
		return nil, err
	}
	files, _, err := v.Walk(ctx)
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(files))
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	return paths, nil
}

// finished reports whether l's walk has ended.
func finished(l *listing) bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}
