package store

import (
	"reflect"
	"testing"
)

// TestMatchFieldsReadWholeOrByID: an expression read whole and one looked
// up id by id give the same scores, for the ids asked about only.
func TestMatchFieldsReadWholeOrByID(t *testing.T) {
	s := keywordFixture(t, map[string]string{
		"a": "the sourdough starter needs rye flour",
		"b": "rye bread with a sourdough starter",
		"c": "a starter for the garden",
		"d": "nothing about bread here",
	})
	hits, err := s.KeywordAny(ctx, []string{"starter", "bread", "nothing"}, Filter{}, Weights{}, 10)
	if err != nil || len(hits) != 4 {
		t.Fatalf("hits %v %v", hits, err)
	}
	ids := hitIDs(hits)[:3]
	exprs := []string{"starter", "rye", "sourdough + starter", "NEAR(rye starter, 8)", "garden"}
	whole, err := s.MatchFields(ctx, exprs, []bool{true, true, true, true, true}, ids)
	if err != nil {
		t.Fatal(err)
	}
	byID, err := s.MatchFields(ctx, exprs, make([]bool, len(exprs)), ids)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, byID) {
		t.Errorf("read whole %v, by id %v", whole, byID)
	}
	asked := map[int64]bool{}
	for _, id := range ids {
		asked[id] = true
	}
	for i, m := range whole {
		for id, f := range m {
			if !asked[id] || f == (FieldScores{}) {
				t.Errorf("%s: row %d scored %v", exprs[i], id, f)
			}
		}
	}
	if len(whole[0]) == 0 {
		t.Errorf("starter matched none of %v", ids)
	}
}
