package engine

import (
	"testing"

	"github.com/mdsearch/mdsearch"
)

// The filters a notice names read in the order the request gave them.
func TestFiltersOfOrder(t *testing.T) {
	for _, tt := range []struct {
		req  mdsearch.SearchRequest
		want string
	}{
		{mdsearch.SearchRequest{Tag: "baking", Tags: []string{"nope"}}, `tag "baking", tag "nope"`},
		{mdsearch.SearchRequest{Tag: "t0", Tags: []string{"t1", "t2", "t3"}}, `tag "t0", tag "t1", tag "t2", tag "t3"`},
		{mdsearch.SearchRequest{Tags: []string{"a", "b"}}, `tag "a", tag "b"`},
		{mdsearch.SearchRequest{Collection: "c", Tag: "x", Where: map[string]string{"b": "1", "a": "2"}}, `collection "c", tag "x", a="2", b="1"`},
	} {
		if got := filtersOf(tt.req, operators{}); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.req, got, tt.want)
		}
	}
}
