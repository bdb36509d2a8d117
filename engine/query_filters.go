package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// moreFilters adds a request's tag list, excluded notes and frontmatter
// conditions to f; the request has passed its Check.
func moreFilters(f *store.Filter, req mdsearch.SearchRequest) {
	for _, t := range req.Tags {
		f.Tags = append(f.Tags, strings.TrimSpace(t))
	}
	for _, p := range req.Exclude {
		x := excluded(p)
		f.Exclude = append(f.Exclude, x.Exclude...)
		f.ExcludeIn = append(f.ExcludeIn, x.ExcludeIn...)
		f.ExcludeFiles = append(f.ExcludeFiles, x.ExcludeFiles...)
	}
	for k, v := range req.Where {
		if f.Fields == nil {
			f.Fields = map[string]string{}
		}
		f.Fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
}

// excluded is the filter that leaves out the note p names, in each form
// read takes a path in (openNote): vault-relative, in every collection
// ("notes/plan", as a wikilink writes it, is notes/plan.md);
// COLLECTION:PATH, that collection's note alone, as a result's read_path
// names it; and a full path, the note at it in whichever indexed folder
// holds it, through symlinks too. Which form p is needs no index: a form
// that names no note leaves none out ("Re: budget.md" is the note of that
// name unless a collection is named "Re").
func excluded(p string) store.Filter {
	p = unquote(strings.TrimSpace(p))
	var x store.Filter
	for _, rel := range []string{mdsearch.VaultRelative(p), notePath(mdsearch.VaultRelative(p))} {
		if rel != "" && rel != "." && !slices.Contains(x.Exclude, rel) {
			x.Exclude = append(x.Exclude, rel)
		}
	}
	switch coll, rel, ok := strings.Cut(p, ":"); {
	case filepath.IsAbs(p):
		x.ExcludeFiles = []string{filepath.Clean(p)}
		if real, err := filepath.EvalSymlinks(p); err == nil && real != x.ExcludeFiles[0] {
			x.ExcludeFiles = append(x.ExcludeFiles, real)
		}
	case ok && coll != "" && mdsearch.VaultRelative(rel) != "":
		x.ExcludeIn = []store.NotePath{{Collection: coll, Path: notePath(mdsearch.VaultRelative(rel))}}
	}
	return x
}

// resolveExcludes is excludes with each one that names no indexed note
// in the forms excluded reads replaced by the note read opens for it (a
// wikilink, a note's name alone, its file name in another case:
// openLinked), as COLLECTION:PATH, and the notice for the rest: one that
// several notes answer to is left out, and the notice names them; one read
// cannot open, or opens from disk but not from the index, is kept as
// written, and the notice names it (unknownNotice).
func (e *Engine) resolveExcludes(ctx context.Context, excludes []string) ([]string, string) {
	named, err := e.st.Excludes(ctx, excludeFilters(excludes))
	if err != nil || !slices.Contains(named, false) {
		return excludes, ""
	}
	out := slices.Clone(excludes)
	var at []int
	var notice string
	for i, p := range excludes {
		if named[i] {
			continue
		}
		n, _, err := e.openLinked(ctx, p)
		var me *mdsearch.Error
		switch {
		case err == nil:
			out[i] = n.collection + ":" + n.path
			at = append(at, i)
		case errors.Is(err, errSeveralNotes) && errors.As(err, &me):
			addNotice(&notice, fmt.Sprintf("exclude: %q left out nothing: %s; name one by its path", strings.TrimSpace(p), me.Err))
			out[i], named[i] = "", true // said here, not as unknown
		}
	}
	resolved := make([]string, len(at))
	for k, i := range at {
		resolved[k] = out[i]
	}
	if ok, err := e.st.Excludes(ctx, excludeFilters(resolved)); err == nil {
		for k, i := range at {
			if named[i] = ok[k]; !ok[k] {
				out[i] = excludes[i]
			}
		}
	}
	addNotice(&notice, unknownNotice(excludes, named))
	return slices.DeleteFunc(out, func(p string) bool { return p == "" }), notice
}

// excludeFilters is the filter of each excluded note.
func excludeFilters(excludes []string) []store.Filter {
	fs := make([]store.Filter, len(excludes))
	for i, p := range excludes {
		fs[i] = excluded(p)
	}
	return fs
}

// unknownNotice names the excludes that named says name no indexed note,
// as the request wrote them, or is "": a path mistyped, or copied in a
// form the index does not name notes by, leaves nothing out, and a search
// that said nothing would look as if it had.
func unknownNotice(excludes []string, named []bool) string {
	var unknown []string
	for i, p := range excludes {
		if !named[i] {
			unknown = append(unknown, strconv.Quote(strings.TrimSpace(p)))
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	return "exclude: no indexed note at " + strings.Join(unknown, " or ")
}

// absPrefix is a path prefix written as a full path inside a collection's
// folder (as a shell completes it) as that collection and the prefix
// within it, its trailing slash kept: "/home/me/notes/projects/" is
// "projects/" of notes. Only the collection named want is tried when want
// is set. A prefix that names no such folder is vault relative
// ("/projects" is "projects"), and ok is false.
func absPrefix(colls []store.Collection, want, p string) (coll, rel string, ok bool) {
	if want != "" {
		colls = slices.DeleteFunc(slices.Clone(colls), func(c store.Collection) bool { return c.Name != want })
	}
	slash := strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator))
	for _, abs := range resolvedForms(p) {
		for _, c := range colls {
			if abs == filepath.Clean(c.Root) {
				return c.Name, "", true
			}
		}
		if c, rel, ok := underRoot(colls, abs); ok {
			if slash {
				rel += "/"
			}
			return c.Name, rel, true
		}
	}
	return "", "", false
}

// resolvedForms is p cleaned and, where a folder on its way is a symlink
// (a collection's root is kept resolved), as it resolves: its longest
// part that exists resolved, the rest (a file name's start) kept.
func resolvedForms(p string) []string {
	clean := filepath.Clean(p)
	out := []string{clean}
	for dir, rest := clean, ""; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			if r := filepath.Join(real, rest); r != clean {
				out = append(out, r)
			}
			return out
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir, rest = parent, filepath.Join(filepath.Base(dir), rest)
	}
}

// filter resolves the request's filters to store terms.
func (e *Engine) filter(ctx context.Context, req mdsearch.SearchRequest) (store.Filter, error) {
	f := store.Filter{Tag: req.Tag}
	moreFilters(&f, req)
	p := strings.TrimSpace(req.PathPrefix)
	if req.Collection == "" {
		req.Collection, p = e.inCollection(ctx, p) // "notes:projects/"
	}
	var coll *store.Collection // req.Collection's, once looked up
	if req.Collection != "" {  // by the name the index holds, which may differ in case
		c, err := e.searchedCollection(ctx, req.Collection)
		if err != nil {
			return f, err
		}
		req.Collection, coll = c.Name, c
	}
	if filepath.IsAbs(p) {
		colls, err := e.st.Collections(ctx)
		if err != nil {
			return f, err
		}
		c, rel, ok := absPrefix(colls, req.Collection, p)
		if other, _, in := absPrefix(colls, "", p); !ok && in && coll != nil {
			return f, mdsearch.Errorf(mdsearch.KindInvalid, "", "", "leave out the collection, or name "+other,
				"path prefix %q is inside collection %s's folder, not %s's", req.PathPrefix, other, req.Collection)
		}
		if i := slices.IndexFunc(colls, func(x store.Collection) bool { return x.Name == c }); ok && i >= 0 {
			coll, p = &colls[i], rel
		}
	}
	f.PathPrefix = mdsearch.VaultRelative(p)
	if coll != nil {
		f.CollectionID = coll.ID
	}
	return f, nil
}
