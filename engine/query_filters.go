package engine

import (
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
		f.Exclude = append(f.Exclude, mdsearch.VaultRelative(strings.TrimSpace(p)))
	}
	for k, v := range req.Where {
		if f.Fields == nil {
			f.Fields = map[string]string{}
		}
		f.Fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
}
