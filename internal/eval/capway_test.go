package eval

import (
	"slices"
	"testing"
)

// placesGivingWay places candidates as the engine's dedup does: a
// passage the cap left out that is likely enough goes before another
// note's unlikely one, and fills empty places; at 0 the cap holds.
func TestPlacesGivingWay(t *testing.T) {
	pages := []string{"a", "a", "a", "b", "a", "c"}
	probs := []float64{.9, .5, .3, .2, .05, .01}
	rank := []int{1, 2, 3, 4, 5, 6}
	for _, c := range []struct {
		likely float64
		want   []int
	}{
		{0, []int{1, 2, 0, 3, 0, 4}},
		{.07, []int{1, 2, 4, 3, 0, 5}},
		{.4, []int{1, 2, 0, 3, 0, 4}},
		{.25, []int{1, 2, 3, 4, 0, 5}},
	} {
		if got := placesGivingWay(rank, probs, pages, 2, c.likely); !slices.Equal(got, c.want) {
			t.Errorf("likely %g: places %v, want %v", c.likely, got, c.want)
		}
	}
}
