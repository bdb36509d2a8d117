package eval

import (
	"math"
	"slices"
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
		{Set: "b", Mode: hy, Terms: true, Rows: row}, {Set: "b", Mode: hy, Terms: true, Rows: row},
		{Set: "b", Mode: kw, Terms: true, Rows: row},
	}
	fo := FitOptions{OffTopic: 0.5, Nothing: 0.25, Everyday: map[mdsearch.Mode]float64{kw: 1}, Terms: map[mdsearch.Mode]float64{hy: 0.5}}
	want := []float64{0.5, 0.5, 0.5, 0.25, 0, 0.5, 0.5, 1, 0.25, 0.25, 0}
	w := newWeighing(samples, fo)
	for i, s := range samples {
		if got := w.of(s); math.Abs(got-want[i]) > 1e-12 {
			t.Errorf("sample %d (%+v): weight %v, want %v", i, groupOf(s), got, want[i])
		}
	}
}

// A fit reads every sample but those held out to measure, and leaves its
// input as it was.
func TestFitted(t *testing.T) {
	in := []Sample{{Query: "a"}, {Query: "b", Everyday: true, Held: true}, {Query: "c", Everyday: true}, {Query: "d", Terms: true, Held: true}, {Query: "e", Terms: true}}
	var got []string
	for _, s := range fitted(in) {
		got = append(got, s.Query)
	}
	if want := []string{"a", "c", "e"}; !slices.Equal(got, want) {
		t.Errorf("fitted read %q, want %q", got, want)
	}
	if len(in) != 5 || in[1].Query != "b" {
		t.Errorf("fitted changed its input: %+v", in)
	}
}

// Only a set's own labelled queries are ranked and measured as such.
func TestLabelled(t *testing.T) {
	for _, tc := range []struct {
		s    Sample
		want bool
	}{
		{Sample{}, true},
		{Sample{OffTopic: true}, false},
		{Sample{OffTopic: true, Everyday: true}, false},
		{Sample{Terms: true}, false},
		{Sample{Terms: true, Held: true}, false},
	} {
		if got := tc.s.labelled(); got != tc.want {
			t.Errorf("%+v: labelled %v, want %v", tc.s, got, tc.want)
		}
	}
}
