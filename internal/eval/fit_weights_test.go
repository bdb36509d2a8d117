package eval

import (
	"math"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
)

// Each sample's share of a fit: its group's weight split among the
// group's queries; everyday questions weigh in the modes fo.Everyday names.
func TestWeighing(t *testing.T) {
	row := []rescore.Row{{X: make([]float64, rescore.NumFeatures)}}
	nothing := []rescore.Row{{X: make([]float64, rescore.NumFeatures)}}
	nothing[0].X[rescore.CommonOnly] = 1
	hy, kw := mdsearch.ModeHybrid, mdsearch.ModeKeyword
	samples := []Sample{
		{Set: "a", Mode: hy, Rows: row}, {Set: "a", Mode: hy, Rows: row},
		{Set: "a", Mode: hy, OffTopic: true, Rows: row},
		{Set: "a", Mode: hy, OffTopic: true, Rows: nothing},
		{Set: "a", Mode: hy, OffTopic: true, Everyday: true, Rows: row},
		{Set: "a", Mode: kw, OffTopic: true, Everyday: true, Rows: row},
		{Set: "a", Mode: kw, OffTopic: true, Everyday: true, Rows: row},
		{Set: "b", Mode: hy, Rows: row},
	}
	fo := FitOptions{OffTopic: 0.5, Nothing: 0.25, Everyday: map[mdsearch.Mode]float64{kw: 1}}
	want := []float64{0.5, 0.5, 0.5, 0.25, 0, 0.5, 0.5, 1}
	w := newWeighing(samples, fo)
	for i, s := range samples {
		if got := w.of(s); math.Abs(got-want[i]) > 1e-12 {
			t.Errorf("sample %d (%+v): weight %v, want %v", i, groupOf(s), got, want[i])
		}
	}
}
