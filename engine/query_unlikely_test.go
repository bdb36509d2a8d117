package engine

import (
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A search says no result is likely to answer when the second stage's
// best score is under Unlikely, and only then.
func TestUnlikelyNotice(t *testing.T) {
	weak := []mdsearch.Result{{Score: Unlikely / 2}}
	for _, tc := range []struct {
		name    string
		q       query
		scored  bool
		results []mdsearch.Result
		says    bool
	}{
		{"weak best", query{}, true, weak, true},
		{"strong best", query{}, true, []mdsearch.Result{{Score: Unlikely}}, false},
		{"no results", query{}, true, nil, false},
		{"first stage scores", query{}, false, weak, false},    // no second stage: another scale
		{"reranked", query{reranked: true}, true, weak, false}, // the reranker's scale
		{"asks nothing", query{nothing: true}, true, weak, false},
	} {
		if got := isUnlikely(&tc.q, tc.scored, tc.results); got != tc.says {
			t.Errorf("%s: unlikely %v", tc.name, got)
		}
	}
}
