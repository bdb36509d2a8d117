package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/internal/plural"
)

// filesAlone refuses --files beside the flags whose output it replaces:
// it prints paths, not passages, their JSON or their reasons.
func filesAlone(files, asJSON, brief bool, req mdsearch.SearchRequest) error {
	if !files {
		return nil
	}
	for _, other := range []struct {
		set  bool
		name string
	}{{asJSON, "--json"}, {brief, "--brief"}, {req.Explain, "--explain"}, {req.MaxTokens > 0, "--max-tokens"}, {req.MaxPerPage > 0, "--max-per-page"}} {
		if other.set {
			return usagef("--files prints the results' notes alone, so %s has nothing to shape: pass one of them", other.name)
		}
	}
	return nil
}

// printFiles prints the notes of resp's results, best first, each once,
// as the file's full path (its collection's folder and its path), one a
// line: what a shell hands on ($EDITOR, xargs). e is the engine that
// searched, or nil where a running serve answered: the index is then
// opened for its collections' folders alone.
func printFiles(ctx context.Context, env *Env, ef *engineFlags, e *engine.Engine, resp *mdsearch.SearchResponse) error {
	if e == nil {
		opened, closeAll, err := ef.open(ctx, env, false)
		if err != nil {
			return err
		}
		defer closeAll()
		e = opened
	}
	colls, err := e.Collections(ctx)
	if err != nil {
		return requestError("search", err)
	}
	roots := make(map[string]string, len(colls))
	for _, c := range colls {
		roots[c.Name] = c.Root
	}
	seen := map[string]bool{}
	var gone, broken []string
	out := screen(env.Stdout) // a name may hold escapes
	for _, r := range resp.Results {
		root, ok := roots[r.Collection]
		if !ok {
			continue // dropped since it was searched
		}
		p := filepath.Join(root, filepath.FromSlash(e.IndexedPath(ctx, r.Collection, r.Path)))
		if seen[p] {
			continue
		}
		seen[p] = true
		if r.Stale && deleted(p) {
			gone = append(gone, r.Path) // an editor would open a new, empty file
			continue
		}
		if strings.ContainsAny(p, "\n\r") {
			broken = append(broken, strconv.Quote(r.Path))
		}
		fmt.Fprintln(out, p)
	}
	if len(gone) > 0 {
		env.say("left out %s deleted since the index was built (%s): `mdsearch index` updates it",
			plural.Count(len(gone), "note", "notes"), plural.List(gone))
	}
	if len(broken) > 0 {
		env.say("%s a line break in its name (%s), which a reader of one path a line takes for two",
			plural.Noun(len(broken), "a path holds", "paths hold"), plural.List(broken))
	}
	return nil
}

// deleted reports whether the file at p is no longer there: asked of a
// result's file that changed since it was indexed (Result.Stale) alone.
func deleted(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}
