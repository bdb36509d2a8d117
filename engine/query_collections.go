package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// spansCollections reports whether q searches several collections, which
// may hold copies of a passage.
func (e *Engine) spansCollections(ctx context.Context, q *query) bool {
	if q.filter.CollectionID != 0 {
		return false
	}
	colls, err := e.st.Collections(ctx)
	return err == nil && len(colls) > 1
}

// nameResults counts the index's collections for resp and names each
// result as read takes it where several hold its path (nameShared,
// nameColons): a search's answer and a list's alike. It returns the
// collections, for the notices that read them.
func (e *Engine) nameResults(ctx context.Context, rd *store.Reader, resp *mdsearch.SearchResponse) ([]store.Collection, error) {
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return nil, err
	}
	resp.CollectionCount = len(colls)
	if len(colls) > 1 { // counted whether or not one was asked for: such a path must be read as COLLECTION:PATH either way
		if err := nameShared(ctx, rd, resp.Results); err != nil {
			return nil, err
		}
	}
	nameColons(resp.Results, colls)
	return colls, nil
}

// emptyIndexNotice answers a search of an index with no collection.
const emptyIndexNotice = "the index is empty: run `mdsearch index DIR` first"

// nameShared sets ReadPath on each result whose path another collection
// holds too, so that what a result shows reads the note in one call.
func nameShared(ctx context.Context, rd *store.Reader, res []mdsearch.Result) error {
	paths := make([]string, len(res))
	for i, r := range res {
		paths[i] = r.Path
	}
	shared, err := rd.SharedPaths(ctx, paths)
	if err != nil {
		return err
	}
	for i, r := range res {
		if shared[r.Path] {
			res[i].ReadPath = r.Collection + ":" + r.Path
		}
	}
	return nil
}

// nameColons gives a result whose path starts with a collection's name and
// a colon ("sample:x.md" in collection sample) its COLLECTION:PATH to read
// it by: the path alone would be read as that collection's "x.md".
func nameColons(res []mdsearch.Result, colls []store.Collection) {
	for i, r := range res {
		head, _, ok := strings.Cut(r.Path, ":")
		if !ok || r.ReadPath != "" || r.Collection == "" {
			continue
		}
		if slices.ContainsFunc(colls, func(c store.Collection) bool { return c.Name == head }) {
			res[i].ReadPath = r.Collection + ":" + r.Path
		}
	}
}
