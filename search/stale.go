package search

import (
	"context"
	"os"
	"path/filepath"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// markStale flags results whose file changed on disk (or vanished) since it
// was indexed, so a note edited while nothing watched is not passed off as
// current. It costs one stat per distinct note among the results. A failure
// to read the recorded stamps leaves the results unflagged: the hits are
// still the index's best answer.
func markStale(ctx context.Context, rd *store.Reader, kept []*group, res []mdsearch.Result) {
	docs := make([]int64, 0, len(kept))
	for _, g := range kept {
		docs = append(docs, g.best.doc)
	}
	stamps, err := rd.Stamps(ctx, docs)
	if err != nil {
		return
	}
	stale := make(map[[2]string]bool, len(stamps)) // by collection and path
	for _, st := range stamps {
		stale[[2]string{st.Collection, st.Path}] = behind(st)
	}
	for i := range res {
		res[i].Stale = stale[[2]string{res[i].Collection, res[i].Path}]
	}
}

// behind reports whether the file on disk no longer matches the stamp the
// index recorded: another mtime or size, or no file at all.
func behind(st store.Stamp) bool {
	fi, err := os.Stat(filepath.Join(st.Root, filepath.FromSlash(st.Path)))
	if err != nil {
		return true
	}
	return fi.ModTime().UnixNano() != st.MTime || fi.Size() != st.Size
}

// readNotice says when the index is behind a note being read: the text
// returned is current, but search still ranks what was indexed.
func (e *Engine) readNotice(ctx context.Context, collection, path string) string {
	st, ok, err := e.st.StampOf(ctx, collection, path)
	switch {
	case err != nil:
		return ""
	case !ok:
		return "this note is not indexed yet, so search does not find it; run `mdsearch index` (or keep `mdsearch watch` running)"
	case behind(st):
		return "the index is behind this note: it changed on disk since it was indexed, so search may show its old text; run `mdsearch index` to update"
	}
	return ""
}
