package engine

// A collection's name and folder: what a folder is indexed as, which
// collection a name or a search's scope means, and the notices for
// folders two collections share.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// CollectionName is the collection a folder at root is indexed as: name,
// or the folder's own name; an error when "collection:path" could not
// express it, or when it starts with '-', which a command line would read
// as a flag.
func CollectionName(root, name string) (string, error) {
	if name == "" {
		name = filepath.Base(root)
	}
	if strings.HasPrefix(name, "-") {
		return name, mdsearch.Errorf(mdsearch.KindInvalid, "index", name, "pass --name NAME, one that does not start with '-'",
			"unusable collection name %q: it starts with '-', which commands would take for a flag (`mdsearch drop %s`)", name, name)
	}
	return name, checkName(name)
}

// checkName refuses collection names that "collection:path" could not express.
func checkName(name string) error {
	bad := name == "" || name == "." || len(name) > 100 || strings.ContainsAny(name, ":/\\") ||
		strings.IndexFunc(name, unicode.IsControl) >= 0
	if bad {
		return mdsearch.Errorf(mdsearch.KindInvalid, "index", name, "pass --name NAME (no ':', '/' or '\\')", "unusable collection name %q", name)
	}
	return nil
}

func (e *Engine) collectionByName(ctx context.Context, name string) (*store.Collection, error) {
	c, err := e.st.Collection(ctx, name)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, e.noCollection(ctx, name)
	}
	return c, nil
}

// searchedCollection is collectionByName for a search's scope and a
// note's COLLECTION:PATH, which also takes the name in another case where
// one collection alone has it so ("Vue" for vue), as a path prefix
// ignores case: an agent guesses the case before it has seen the names.
func (e *Engine) searchedCollection(ctx context.Context, name string) (*store.Collection, error) {
	if c, err := e.st.Collection(ctx, name); err != nil || c != nil {
		return c, err
	}
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return nil, err
	}
	var found []string
	var c *store.Collection
	for i := range colls {
		if strings.EqualFold(colls[i].Name, name) {
			found, c = append(found, colls[i].Name), &colls[i]
		}
	}
	switch len(found) {
	case 0:
		return nil, e.noCollection(ctx, name)
	case 1:
		return c, nil
	}
	return nil, mdsearch.Errorf(mdsearch.KindNotFound, "collection", name, "name one as the index writes it: "+strings.Join(found, " or "),
		"no collection is named so, and %d are in another case", len(found))
}

// Collections lists the collections by name and folder only: what a
// watcher asks every few seconds, without Status's counting.
func (e *Engine) Collections(ctx context.Context) (_ []mdsearch.CollectionStatus, err error) {
	defer e.explain(&err)
	leave, err := e.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]mdsearch.CollectionStatus, len(colls))
	for i, c := range colls {
		out[i] = mdsearch.CollectionStatus{Name: c.Name, Root: c.Root}
	}
	return out, nil
}

// HasCollection reports whether the index holds the named collection.
func (e *Engine) HasCollection(ctx context.Context, name string) bool {
	c, err := e.Collection(ctx, name)
	return err == nil && c != nil
}

// noCollection is the error for an unknown collection name.
func (e *Engine) noCollection(ctx context.Context, name string) error {
	colls, _ := e.st.Collections(ctx)
	names := make([]string, len(colls))
	for i, c := range colls {
		names[i] = c.Name
	}
	if len(names) == 0 {
		return mdsearch.Errorf(mdsearch.KindNotFound, "collection", name, "run `mdsearch index DIR` first", "the index has no collections")
	}
	return mdsearch.Errorf(mdsearch.KindNotFound, "collection", name, "a collection is named when its folder is indexed: by --name, else the folder's name",
		"no such collection; have: %s", strings.Join(names, ", "))
}

// collectionFor finds or creates the collection for a vault. A name already
// used for another folder is refused, unless that folder is gone (the vault
// moved), in which case the collection follows it. A new one is made with
// its first run's mark (firstMark) on the signature of profile and its
// size limit maxSize, in one transaction: a run stopped right after still
// leaves the next one the profile and limit it was given.
func (e *Engine) collectionFor(ctx context.Context, name, root string, existing bool, profile string, maxSize int64, stats *mdsearch.IndexStats) (*store.Collection, error) {
	c, err := e.st.Collection(ctx, name)
	if err != nil {
		return nil, err
	}
	if c == nil && existing {
		return nil, e.noCollection(ctx, name)
	}
	if c == nil {
		if err := e.noteSameRoot(ctx, name, root, stats); err != nil {
			return nil, err
		}
		return e.st.AddCollectionWith(ctx, name, root, e.signature(e.cutFor(profile, ""))+" "+firstMark,
			map[string]string{maxSizeKey(name): strconv.FormatInt(maxSize, 10)})
	}
	if c.Root == root {
		return c, nil
	}
	if _, err := os.Stat(c.Root); err == nil {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "index", root,
			fmt.Sprintf("to index this folder as another collection, pass another --name; as %q, drop that collection first "+
				"(`mdsearch drop %s`: its folder is not touched); to re-index %q, pass its folder: `mdsearch index %q`", name, name, name, c.Root),
			"collection %q already indexes %s", name, c.Root)
	}
	if err := e.st.SetRoot(ctx, c.ID, root); err != nil {
		return nil, err
	}
	addNotice(&stats.Notice, "collection "+name+" moved from "+c.Root+" to "+root)
	c.Root = root
	return c, nil
}

// noteSameRoot warns when a new collection's folder is already another
// collection's, or inside it, or holds it: those notes would then come
// back twice.
func (e *Engine) noteSameRoot(ctx context.Context, name, root string, stats *mdsearch.IndexStats) error {
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return err
	}
	for _, o := range colls {
		if o.Name == name {
			continue
		}
		how := ""
		switch {
		case o.Root == root:
			how = "this folder is also collection " + o.Name + ", so its notes are indexed twice"
		case within(root, o.Root):
			how = "this folder is inside collection " + o.Name + "'s (" + o.Root + "), so its notes are indexed twice"
		case within(o.Root, root):
			how = "this folder holds collection " + o.Name + "'s (" + o.Root + "), so those notes are indexed twice"
		}
		if how != "" {
			addNotice(&stats.Notice, how+": searches show each passage once, but reads of a path both hold must name the collection (`mdsearch drop NAME` removes one)")
		}
	}
	return nil
}

// folderCollection is the name of the collection whose folder is root,
// when it was named other than the folder (index --name notes DIR): a
// later "mdsearch index DIR" brings that collection up to date rather
// than make a second one of the same notes. It is "" when none is, or
// one has the folder's own name.
func (e *Engine) folderCollection(ctx context.Context, root string) (string, error) {
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return "", err
	}
	named := ""
	for _, c := range colls {
		switch {
		case c.Root != root:
		case c.Name == filepath.Base(root):
			return "", nil
		case named == "":
			named = c.Name
		}
	}
	return named, nil
}

// within reports whether folder dir lies inside folder parent.
func within(dir, parent string) bool {
	rel, err := filepath.Rel(parent, dir)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
