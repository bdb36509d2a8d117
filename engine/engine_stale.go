package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// noteKey names a note: its collection and vault-relative path.
type noteKey struct{ collection, path string }

// markStale flags results whose file changed on disk (or vanished) since it
// was indexed, so a note edited while nothing watched is not passed off as
// current, by stale (staleIn's, which remembers what it found).
func markStale(res []mdsearch.Result, stale func(mdsearch.Result) bool) {
	for i := range res {
		res[i].Stale = stale(res[i])
	}
}

// staleIn reports whether a result's note changed on disk or is gone
// since the index read it, by its stamp (behind), loaded with the
// results: one stat a note, remembered, however often it is asked.
func staleIn(stamps map[noteKey]store.Stamp) func(mdsearch.Result) bool {
	memo := map[noteKey]bool{}
	return func(r mdsearch.Result) bool {
		k := noteKey{r.Collection, r.Path}
		s, ok := memo[k]
		if !ok {
			st, found := stamps[k]
			s = found && behind(st)
			memo[k] = s
		}
		return s
	}
}

// behind reports whether the file on disk no longer matches the stamp the
// index recorded: another size, or another mtime and other bytes (a file
// touched but not edited is current), or no file at all. One whose folder
// cannot be entered (no permission) is not said to have changed: nothing
// tells, and status names the folder it cannot read.
func behind(st store.Stamp) bool {
	name := filepath.Join(st.Root, filepath.FromSlash(st.Path))
	fi, err := fsfault.Stat(name)
	switch {
	case errors.Is(err, fs.ErrPermission):
		return false
	case err != nil || fi.Size() != st.Size:
		return true
	case fi.ModTime().UnixNano() == st.MTime:
		return false
	}
	data, err := os.ReadFile(name)
	return err != nil || !bytes.Equal(contentHash(data), st.Hash)
}

// contentHash is what the index keeps of a note's bytes, to tell an edit
// from a touch: their SHA-256.
func contentHash(data []byte) []byte {
	h := sha256.Sum256(data)
	return h[:]
}

// neverIndexed says why indexing will not add a note that was read but is
// not in the index, when another run would not help: a symlink to a note
// indexed under its own path, or a note over the collection's size limit.
func (e *Engine) neverIndexed(ctx context.Context, collection, path string) string {
	c, err := e.st.Collection(ctx, collection)
	if err != nil || c == nil {
		return ""
	}
	root, err := filepath.EvalSymlinks(c.Root)
	if err != nil {
		return ""
	}
	real, err := vault.Resolve(root, path)
	if err != nil {
		return ""
	}
	if rel, err := filepath.Rel(root, real); err == nil && filepath.ToSlash(rel) != path {
		if _, ok, err := e.st.StampOf(ctx, collection, filepath.ToSlash(rel)); err == nil && ok {
			return fmt.Sprintf("this note is a symlink to %s, which is indexed under that path: search finds it as %s", filepath.ToSlash(rel), filepath.ToSlash(rel))
		}
	}
	// The limit the collection is indexed with, not one given to this read.
	limit, err := e.indexedMaxSize(ctx, collection)
	if err != nil {
		return ""
	}
	if limit == 0 {
		limit = vault.DefaultMaxFileSize
	}
	if fi, err := os.Stat(real); err == nil && limit > 0 && fi.Size() > limit {
		return fmt.Sprintf("this note is not indexed (%s of the collection); "+
			"`mdsearch index %s --max-file-size %s` indexes it", vault.OverLimit(fi.Size(), limit), c.Root, vault.LimitFor(fi.Size()))
	}
	return ""
}

// readNotice says when the index is behind a note being read: the text
// returned is current, but search still ranks what was indexed.
func (e *Engine) readNotice(ctx context.Context, collection, path string) string {
	st, ok, err := e.st.StampOf(ctx, collection, path)
	switch {
	case err != nil:
		return ""
	case !ok:
		if why := e.neverIndexed(ctx, collection, path); why != "" {
			return why
		}
		return "this note is not indexed yet, so search does not find it; run `mdsearch index` (or keep `mdsearch watch` running)"
	case behind(st):
		return "the index is behind this note: it changed on disk since it was indexed, so search may show its old text; run `mdsearch index` to update (a running watch does so within seconds, and so do serve and mcp unless started with --no-watch)"
	}
	return ""
}
