package render

import (
	"path"
	"sort"
	"strings"
)

// LinkIndex resolves the note names in links to the notes of one
// collection, the way Obsidian does.
type LinkIndex struct {
	paths  map[string]string   // lower-cased path → path
	byName map[string][]string // lower-cased base name without ".md" → paths
}

// NewLinkIndex indexes a collection's vault-relative note paths.
func NewLinkIndex(paths []string) *LinkIndex {
	x := &LinkIndex{paths: map[string]string{}, byName: map[string][]string{}}
	for _, p := range paths {
		x.paths[strings.ToLower(p)] = p
		name := strings.ToLower(strings.TrimSuffix(path.Base(p), path.Ext(p)))
		x.byName[name] = append(x.byName[name], p)
	}
	return x
}

// Resolve finds the note a wikilink target names, for a link in note from.
// "" is from itself. A bare name matches the note of that file name in any
// folder; "folder/Name" matches a path ending so; case is ignored and
// ".md" optional. Of several matches the one in from's folder wins, then
// the shortest path, as in Obsidian.
func (x *LinkIndex) Resolve(from, target string) (string, bool) {
	target = strings.TrimSpace(target)
	if target == "" {
		return from, from != ""
	}
	key := strings.ToLower(strings.TrimPrefix(target, "/"))
	if p, ok := x.paths[key]; ok {
		return p, true
	}
	if p, ok := x.paths[key+".md"]; ok {
		return p, true
	}
	key = strings.TrimSuffix(key, ".md")
	var found []string
	for _, p := range x.byName[path.Base(key)] {
		lp := strings.ToLower(strings.TrimSuffix(p, path.Ext(p)))
		if lp == key || strings.HasSuffix(lp, "/"+key) {
			found = append(found, p)
		}
	}
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
// a link in note from: relative to from's folder first, then as a
// wikilink would.
func (x *LinkIndex) ResolveRelative(from, dest string) (string, bool) {
	if dest == "" {
		return from, from != ""
	}
	if !strings.HasPrefix(dest, "/") {
		if p, ok := x.paths[strings.ToLower(path.Join(path.Dir(from), dest))]; ok {
			return p, true
		}
	}
	return x.Resolve(from, dest)
}
