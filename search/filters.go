package search

import (
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// moreFilters adds a request's tag list, excluded notes and frontmatter
// conditions to f.
func moreFilters(f *store.Filter, req mdsearch.SearchRequest) error {
	for _, t := range req.Tags {
		if t = strings.TrimSpace(t); t == "" {
			return mdsearch.Errorf(mdsearch.KindInvalid, "search", "", "name a tag, e.g. project",
				"tags holds an empty tag: a filter that lost its value would match every note")
		}
		f.Tags = append(f.Tags, t)
	}
	if len(req.Exclude) > mdsearch.MaxExclude {
		return mdsearch.Errorf(mdsearch.KindInvalid, "search", "", fmt.Sprintf("name at most %d notes", mdsearch.MaxExclude),
			"exclude names %d notes", len(req.Exclude))
	}
	for _, p := range req.Exclude {
		if p = vaultRelative(strings.TrimSpace(p)); p == "" {
			return mdsearch.Errorf(mdsearch.KindInvalid, "search", "", "name a note by its path in the vault, e.g. notes/plan.md",
				"exclude holds an empty path")
		}
		f.Exclude = append(f.Exclude, p)
	}
	for k, v := range req.Where {
		if strings.TrimSpace(k) == "" {
			return mdsearch.Errorf(mdsearch.KindInvalid, "search", "", "name a frontmatter field, e.g. owner=alice",
				"where has an empty field name (value %q)", v)
		}
		if f.Fields == nil {
			f.Fields = map[string]string{}
		}
		f.Fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return nil
}

// vaultRelative is a path as a request may write it (./notes/a.md,
// /notes/a.md) as the index keeps it: relative to the vault.
func vaultRelative(p string) string {
	for strings.HasPrefix(p, "./") || strings.HasPrefix(p, "/") {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	}
	return p
}
