package engine

import (
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
)

// A semantic search says its first result holds none of the query's
// words only when every passage the result joins was read and holds
// none, and the notes searched hold most of the query's weight.
func TestWordlessTop(t *testing.T) {
	top := []candidate{{id: 1}, {id: 2}, {id: 3}}
	xs := make([]rescore.Vector, 3)
	for i := range xs {
		xs[i][rescore.QueryCover] = 1
	}
	xs[2][rescore.CoverAll] = 0.4 // passage 3 holds a word
	groupOf := func(ids ...int64) []*group {
		g := &group{}
		for _, id := range ids {
			g.members = append(g.members, candidate{id: id})
		}
		return []*group{g}
	}
	for _, tc := range []struct {
		name  string
		mode  mdsearch.Mode
		cover float64 // the share of the query's weight the scope holds
		kept  []*group
		want  bool
	}{
		{"one passage without the words", mdsearch.ModeSemantic, 1, groupOf(1), true},
		{"joined, none holds them", mdsearch.ModeSemantic, 1, groupOf(1, 2), true},
		{"joined, one holds them", mdsearch.ModeSemantic, 1, groupOf(1, 3), false},
		{"a passage the stage did not read", mdsearch.ModeSemantic, 1, groupOf(1, 9), false},
		{"the notes lack the words", mdsearch.ModeSemantic, 0.3, groupOf(1), false},
		{"hybrid", mdsearch.ModeHybrid, 1, groupOf(1), false},
		{"no results", mdsearch.ModeSemantic, 1, nil, false},
	} {
		q := &query{mode: tc.mode, terms: []string{`"restic"`}}
		x := append([]rescore.Vector(nil), xs...)
		for i := range x {
			x[i][rescore.QueryCover] = tc.cover
		}
		q.seen.put(top, x, nil)
		if got := wordlessTop(q, tc.kept); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
