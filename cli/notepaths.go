package cli

import (
	"context"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// notePaths lists the notes of a collection for resolving the wikilinks of
// rendered notes. A listing is reused for a few seconds, so a page that
// opens note after note walks the vault once.
type notePaths struct {
	s       mdsearch.Searcher
	maxSize int64
	mu      sync.Mutex
	cache   map[string]listing
}

type listing struct {
	paths []string
	at    time.Time
}

const notePathsTTL = 10 * time.Second

func newNotePaths(s mdsearch.Searcher, maxSize int64) *notePaths {
	return &notePaths{s: s, maxSize: maxSize, cache: map[string]listing{}}
}

// List walks the folder of the named collection as indexing does.
func (n *notePaths) List(ctx context.Context, collection string) ([]string, error) {
	n.mu.Lock()
	l, ok := n.cache[collection]
	n.mu.Unlock()
	if ok && time.Since(l.at) < notePathsTTL {
		return l.paths, nil
	}
	st, err := n.s.Status(ctx)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, c := range st.Collections {
		if c.Name != collection {
			continue
		}
		v, err := vault.Open(c.Root, vault.Options{MaxFileSize: n.maxSize})
		if err != nil {
			return nil, err
		}
		files, _, err := v.Walk(ctx)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			paths = append(paths, f.Path)
		}
	}
	n.mu.Lock()
	n.cache[collection] = listing{paths: paths, at: time.Now()}
	n.mu.Unlock()
	return paths, nil
}
