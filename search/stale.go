package search

import (
	"context"
	"os"
	"path/filepath"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// noteKey names a note: its collection and vault-relative path.
type noteKey struct{ collection, path string }

// markStale flags results whose file changed on disk (or vanished) since it
// was indexed, so a note edited while nothing watched is not passed off as
// current. stamps, loaded with the results, say what the index recorded;
// it costs one stat per distinct note among the results.
func markStale(res []mdsearch.Result, stamps map[noteKey]store.Stamp) {
	stale := make(map[noteKey]bool, len(stamps))
	for i := range res {
		k := noteKey{res[i].Collection, res[i].Path}
		s, done := stale[k]
		if !done {
			st, ok := stamps[k]
			s = ok && behind(st)
			stale[k] = s
		}
		res[i].Stale = s
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
