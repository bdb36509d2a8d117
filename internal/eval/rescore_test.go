package eval

import (
	"context"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/rescore"
)

// TestRescoreModel fits the second stage on the dev sets, as
// eval/fitrescore does, and fails when the result differs from the
// shipped rescore/model.json: a change to the features, the candidates
// or the fit must come with the model fitted again (-update writes it).
// Weights may differ by a little across CPUs, whose floating point
// rounds the model's vectors slightly differently.
func TestRescoreModel(t *testing.T) {
	if testing.Short() {
		t.Skip("fits on every dev set")
	}
	emb := realModel(t)
	if _, err := os.Stat(filepath.Join(corpora, "rust-rfcs")); err != nil {
		testenv.Absent(t, "corpora unavailable: %v", err)
	}
	samples, err := CollectDev(context.Background(), emb, corpora, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	fo := DefaultFit
	fo.Command = FitCommand
	got, err := FitModel(samples, fo)
	if err != nil {
		t.Fatal(err)
	}
	checkCalibration(t, samples, got)
	file := filepath.Join("..", "..", "rescore", "model.json")
	if *update {
		b, err := got.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := rescore.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Embedder != want.Embedder || len(got.Modes) != len(want.Modes) {
		t.Fatalf("fitted for %s with modes %v; model.json has %s with %v", got.Embedder, slices.Sorted(maps.Keys(got.Modes)), want.Embedder, slices.Sorted(maps.Keys(want.Modes)))
	}
	for mode, g := range got.Modes {
		w := want.Modes[mode]
		if w == nil {
			t.Fatalf("model.json has no %s stage", mode)
		}
		for _, p := range []struct {
			name string
			a, b *rescore.Linear
		}{{"ranker", g.Ranker, w.Ranker}, {"calibrator", g.Calib, w.Calib}} {
			if d := maxDiff(p.a, p.b); d > 0.02 {
				t.Errorf("%s %s: the fit differs from model.json by %.4f; run `go run ./internal/eval/fitrescore -o rescore/model.json` (or this test with -update)", mode, p.name, d)
			}
		}
	}
}

// maxDiff is the largest difference between two models' standardised
// weights and biases.
func maxDiff(a, b *rescore.Linear) float64 {
	d := math.Abs(a.Bias - b.Bias)
	for i := range a.Weights {
		d = max(d, math.Abs(a.Weights[i]-b.Weights[i]))
	}
	return d
}

// checkCalibration holds the fitted model's scores, read on the samples it
// was fitted on, to what docs/evaluation.md reports of them: on every set
// and mode, off-topic queries rarely reach 50 % and the top candidate's
// probability is near how often it answers (in-sample; the leave-one-set-out
// figures there are the honest ones).
func checkCalibration(t *testing.T, samples []Sample, m *rescore.Model) {
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword} {
		for _, set := range append(DevSets(corpora), DevSet{Name: generatedSet}) {
			c := SampleCalibration(samples, m, set.Name, mode)
			t.Logf("%s %s: off-topic ≥ 50%% %.1f%%, right ≥ 50%% %.1f%%, ECE %.3f", mode, set.Name, 100*c.OffStrong, 100*c.RightStrong, c.ECE)
			if c.OffStrong > 0.12 || c.ECE > 0.21 {
				t.Errorf("%s %s: %.1f%% of off-topic queries score ≥ 50%% (want ≤ 12%%), ECE %.3f (want ≤ 0.21)", mode, set.Name, 100*c.OffStrong, c.ECE)
			}
		}
	}
}
