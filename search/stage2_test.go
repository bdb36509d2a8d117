package search

import (
	"testing"

	"github.com/mdsearch/mdsearch/rescore"
)

// TestStageMemo: features are reused only for the same candidates with
// the same first-stage scores, in the same order.
func TestStageMemo(t *testing.T) {
	var m stageMemo
	top := []candidate{{id: 1, score: 0.9}, {id: 2, score: 0.5}}
	if _, ok := m.get(top); ok {
		t.Fatal("an empty memo answered")
	}
	xs := []rescore.Vector{{1}, {2}}
	m.put(top, xs)
	if got, ok := m.get([]candidate{{id: 1, score: 0.9}, {id: 2, score: 0.5}}); !ok || &got[0] != &xs[0] {
		t.Error("the same candidates were not reused")
	}
	for _, other := range [][]candidate{
		{{id: 2, score: 0.5}, {id: 1, score: 0.9}},
		{{id: 1, score: 0.9}, {id: 2, score: 0.4}},
		{{id: 1, score: 0.9}},
		{{id: 1, score: 0.9}, {id: 2, score: 0.5}, {id: 3, score: 0.1}},
	} {
		if _, ok := m.get(other); ok {
			t.Errorf("%v reused the features of %v", other, top)
		}
	}
}
