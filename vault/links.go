package vault

import (
	"path"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// LinkIndex resolves the note names in links to the notes of one
// collection, and the file names in embeds to its attachments, the way
// Obsidian does.
type LinkIndex struct {
	paths  map[string]string   // linkKey(path) → path
	byName map[string][]string // linkKey(base name without ".md") → paths
	files  map[string]string   // linkKey(path) → attachment path
	byFile map[string][]string // linkKey(file name) → attachment paths
}

// linkKey is a name as links compare it: lower case and composed, so a
// link typed on one system finds a file named on another (macOS stores
// names decomposed).
func linkKey(s string) string { return strings.ToLower(norm.NFC.String(s)) }

// NewLinkIndex indexes a collection's vault-relative note paths.
func NewLinkIndex(paths []string) *LinkIndex {
	x := &LinkIndex{paths: map[string]string{}, byName: map[string][]string{}}
	for _, p := range paths {
		x.paths[linkKey(p)] = p
		name := linkKey(strings.TrimSuffix(path.Base(p), path.Ext(p)))
		x.byName[name] = append(x.byName[name], p)
	}
	return x
}

// Resolve finds the note a wikilink target names, for a link in note from.
// "" is from itself. A bare name matches the note of that file name in any
// folder; "folder/Name" matches a path ending so; case is ignored and
// ".md" optional, and so is how letters are composed. Of several matches the one in from's folder wins, then
// the shortest path, as in Obsidian.
func (x *LinkIndex) Resolve(from, target string) (string, bool) {
	target = strings.TrimSpace(target)
	if target == "" {
		return from, from != ""
	}
	if p, ok := x.relative(from, target); ok {
		return p, true
	}
	key := linkKey(strings.TrimPrefix(target, "/"))
	if p, ok := x.paths[key]; ok {
		return p, true
	}
	if p, ok := x.paths[key+".md"]; ok {
		return p, true
	}
	key = strings.TrimSuffix(key, ".md")
	var found []string
	for _, p := range x.byName[path.Base(key)] {
		lp := linkKey(strings.TrimSuffix(p, path.Ext(p)))
		if lp == key || strings.HasSuffix(lp, "/"+key) {
			found = append(found, p)
		}
	}
	return closest(from, found)
}

// relative finds a wikilink's "./Name" or "../Name" (Obsidian's "relative
// path to file" link format) from the folder of note from.
func (x *LinkIndex) relative(from, target string) (string, bool) {
	if !strings.HasPrefix(target, "./") && !strings.HasPrefix(target, "../") {
		return "", false
	}
	rel := path.Join(path.Dir(from), target)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false // above the vault
	}
	for _, k := range []string{linkKey(rel), linkKey(rel) + ".md"} {
		if p, ok := x.paths[k]; ok {
			return p, true
		}
	}
	return "", false
}

// closest is the path of found a link in note from means: the one in
// from's folder, then the shortest, as in Obsidian.
func closest(from string, found []string) (string, bool) {
	if len(found) == 0 {
		return "", false
	}
	dir := path.Dir(from)
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if (path.Dir(a) == dir) != (path.Dir(b) == dir) {
			return path.Dir(a) == dir
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a < b
	})
	return found[0], true
}

// ResolveRelative finds the note a markdown link's destination names, for
// a link in note from: relative to from's folder first (a site-absolute
// "/guide/intro" from the vault's root), then as a wikilink would. As a
// docs site builds its pages from the notes, and as read resolves it,
// "intro.html" and "./intro" name intro.md, and "guide/" guide/index.md.
func (x *LinkIndex) ResolveRelative(from, dest string) (string, bool) {
	if dest == "" {
		return from, from != ""
	}
	base := path.Join(path.Dir(from), dest)
	if strings.HasPrefix(dest, "/") {
		base = strings.TrimPrefix(path.Clean(dest), "/")
	}
	for _, p := range sitePaths(base, strings.HasSuffix(dest, "/")) {
		if p, ok := x.paths[linkKey(p)]; ok {
			return p, true
		}
	}
	return x.Resolve(from, dest)
}

// sitePaths are the note paths a site's link to base may name: base
// itself, base.md, a page's base.html as base.md, and a folder's
// index.md (dir: the link ended in "/").
func sitePaths(base string, dir bool) []string {
	if dir || base == "." || base == "" {
		return []string{path.Join(base, "index.md")}
	}
	switch ext := strings.ToLower(path.Ext(base)); ext {
	case ".html", ".htm":
		return []string{strings.TrimSuffix(base, path.Ext(base)) + ".md"}
	case ".md", ".markdown":
		return []string{base}
	}
	return []string{base, base + ".md", path.Join(base, "index.md")}
}

// WithAttachments adds a collection's attachments (Listing.Attachments)
// to x, for ResolveAttachment, and returns x.
func (x *LinkIndex) WithAttachments(paths []string) *LinkIndex {
	x.files, x.byFile = make(map[string]string, len(paths)), map[string][]string{}
	for _, p := range paths {
		x.files[linkKey(p)] = p
		name := linkKey(path.Base(p))
		x.byFile[name] = append(x.byFile[name], p)
	}
	return x
}

// ResolveAttachment finds the attachment an embed or an image link names,
// for a link in note from: a path relative to from's folder, a vault
// path, or a file name ("diagram.png", "assets/diagram.png") that ends an
// attachment's path, case ignored; of several, the one in from's folder,
// then the shortest path, as Obsidian resolves attachments.
func (x *LinkIndex) ResolveAttachment(from, target string) (string, bool) {
	target = strings.TrimSpace(target)
	if target == "" || len(x.files) == 0 {
		return "", false
	}
	if !strings.HasPrefix(target, "/") {
		if p, ok := x.files[linkKey(path.Join(path.Dir(from), target))]; ok {
			return p, true
		}
	}
	key := linkKey(path.Clean(strings.TrimPrefix(target, "/")))
	if p, ok := x.files[key]; ok {
		return p, true
	}
	var found []string
	for _, p := range x.byFile[path.Base(key)] {
		if lp := linkKey(p); lp == key || strings.HasSuffix(lp, "/"+key) {
			found = append(found, p)
		}
	}
	return closest(from, found)
}
