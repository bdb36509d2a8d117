package rescore

import (
	"encoding/json"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

func TestDefaultModel(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"hybrid", "keyword"} {
		if s := m.For(mode, m.Embedder); s == nil || s.Below == nil {
			t.Errorf("model.json has no %s stage, or none with a calibrator below the best", mode)
		}
	}
	if m.For("hybrid", "another-model") != nil {
		t.Error("a hybrid stage for an embedder the model was not fitted with")
	}
	if m.For("keyword", "another-model") == nil {
		t.Error("no keyword stage for another embedder: keyword features have no cosines")
	}
	if m.Command == "" {
		t.Error("model.json does not say what made it")
	}
}

// The probability rises with the ranker's logit within a query, so the
// scores shown agree with the order.
func TestScoreFollowsLogits(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(3))
	for _, mode := range []string{"hybrid", "keyword"} {
		s := m.Modes[mode]
		for range 200 {
			xs := make([]Vector, 20)
			for i := range xs {
				for j := range xs[i] {
					xs[i][j] = r.Float64()
				}
				for _, j := range PerQuery { // as every candidate of a query has them
					xs[i][j] = xs[0][j]
				}
			}
			logits, probs := s.Score(xs, nil)
			for i := range xs {
				if probs[i] < 0 || probs[i] > 1 {
					t.Fatalf("%s: probability %v", mode, probs[i])
				}
				for j := range xs {
					if logits[i] > logits[j] && probs[i] < probs[j] {
						t.Fatalf("%s: logit %v > %v but probability %v < %v", mode, logits[i], logits[j], probs[i], probs[j])
					}
				}
			}
		}
	}
}

func TestParseRefuses(t *testing.T) {
	good, _ := Default()
	mangle := func(f func(m *Model)) []byte {
		b, _ := json.Marshal(good)
		var m Model
		json.Unmarshal(b, &m)
		f(&m)
		b, _ = json.Marshal(&m)
		return b
	}
	tests := []struct {
		name string
		json []byte
		want string
	}{
		{"not json", []byte("{"), "rescore model"},
		{"other features", mangle(func(m *Model) { m.Features = m.Features[1:] }), "not this version's"},
		{"short weights", mangle(func(m *Model) { m.Modes["hybrid"].Ranker.Weights = m.Modes["hybrid"].Ranker.Weights[:3] }), "weights for"},
		{"zero scale", mangle(func(m *Model) { m.Modes["hybrid"].Calib.Scale[2] = 0 }), "scale"},
		{"reorders", mangle(func(m *Model) { m.Modes["hybrid"].Calib.Weights[CalGap] = -1 }), "reorder"},
		{"no calibrator", mangle(func(m *Model) { m.Modes["keyword"].Calib = nil }), "lacks"},
		{"below reorders", mangle(func(m *Model) { m.Modes["keyword"].Below.Weights[CalRank] = -1 }), "reorder"},
		{"no score for asking nothing", mangle(func(m *Model) { m.Modes["semantic"].Nothing = 0 }), "asks nothing"},
		{"below short", mangle(func(m *Model) { m.Modes["hybrid"].Below.Mean = m.Modes["hybrid"].Below.Mean[:2] }), "below the best"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.json)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestIsQuestion(t *testing.T) {
	for q, want := range map[string]bool{
		"How do I restore a backup": true, "restore backup?": true, "What's new": false,
		"backup schedule": false, "  is it safe ": true, "": false,
	} {
		if got := IsQuestion(q); got != want {
			t.Errorf("IsQuestion(%q) = %v", q, got)
		}
	}
}

// checkScoreEffects checks that each candidate's score effects add up to
// its score's log-odds (a result below the best kept under it, a query
// that asks nothing capped), and that common_only moves only a query that
// asks nothing.
func checkScoreEffects(t *testing.T, mode string, s *Stage, xs []Vector, logits []float64) {
	t.Helper()
	_, probs := s.Score(xs, nil)
	best := probs[slices.Index(Ranks(logits), 1)]
	for i, c := range CalInputs(s.Ranker, xs, logits, nil) {
		bias, effects := s.ScoreEffects(c, best)
		if effects[factorCommonOnly] != 0 && c[CalCommonOnly] == 0 {
			t.Errorf("%s candidate %d: common_only moves a query that asks for something", mode, i)
		}
		for _, v := range effects {
			bias += v
		}
		if p := Sigmoid(bias); math.Abs(p-probs[i]) > 1e-9 {
			t.Errorf("%s candidate %d: score effects give %.6f, the score is %.6f", mode, i, p, probs[i])
		}
	}
}

// TestFactors checks that every feature the ranker weighs belongs to one
// factor (or is the first stage's, shared out by its parts), and that a
// candidate's effects add up to its logit less the candidates' mean: what
// Why shows is all of the ranking.
func TestFactors(t *testing.T) {
	seen := map[int]string{}
	for _, fa := range Factors {
		for _, f := range fa.Features {
			if o, ok := seen[f]; ok {
				t.Errorf("feature %s is in factors %s and %s", Names[f], o, fa.Name)
			}
			seen[f] = fa.Name
		}
	}
	for _, f := range FirstStage {
		seen[f] = "first stage"
	}
	inputs := map[int]bool{}
	for _, fa := range ScoreFactors {
		for _, f := range fa.Features {
			if inputs[f] {
				t.Errorf("calibrator input %s is in two score factors", CalNames[f])
			}
			inputs[f] = true
		}
	}
	if len(inputs) != NumCalib {
		t.Errorf("score factors hold %d of the calibrator's %d inputs", len(inputs), NumCalib)
	}
	for _, f := range Ranked {
		if _, ok := seen[f]; !ok {
			t.Errorf("ranked feature %s is in no factor", Names[f])
		}
	}
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for mode, s := range m.Modes {
		for f, w := range s.Ranker.Weights {
			if _, ok := seen[f]; w != 0 && !ok {
				t.Errorf("%s ranker weighs %s, which no factor holds", mode, Names[f])
			}
		}
		xs := make([]Vector, 7)
		parts := make([][2]float64, len(xs))
		for i := range xs {
			for f := range xs[i] {
				xs[i][f] = math.Sin(float64(i*NumFeatures + f))
			}
			// FirstRel is FirstScore less the best, as the engine sets it;
			// the parts add up to FirstScore.
			parts[i] = [2]float64{0.3 * math.Cos(float64(i)), 0}
			parts[i][1] = xs[i][FirstScore] - parts[i][0]
		}
		for i := range xs {
			best := math.Inf(-1)
			for _, x := range xs {
				best = max(best, x[FirstScore])
			}
			xs[i][FirstRel] = xs[i][FirstScore] - best
		}
		var mean float64
		for _, x := range xs {
			mean += s.Ranker.Logit(x[:]) / float64(len(xs))
		}
		logits := make([]float64, len(xs))
		for i := range xs {
			logits[i] = s.Ranker.Logit(xs[i][:])
		}
		checkScoreEffects(t, mode, s, xs, logits)
		for i := range xs { // the query asks nothing: capped, the cap one of the effects
			xs[i][CommonOnly] = 1
		}
		if _, probs := s.Score(xs, nil); slices.Max(probs) > s.Nothing {
			t.Errorf("%s: a query that asks nothing scores %.4f, over %.4f", mode, slices.Max(probs), s.Nothing)
		}
		checkScoreEffects(t, mode, s, xs, logits)
		for i := range xs {
			xs[i][CommonOnly] = math.Sin(float64(i*NumFeatures + CommonOnly))
		}
		for i, e := range s.Ranker.Effects(xs, parts) {
			var sum float64
			for _, v := range e {
				sum += v
			}
			if want := s.Ranker.Logit(xs[i][:]) - mean; math.Abs(sum-want) > 1e-9 {
				t.Errorf("%s candidate %d: effects add to %.6f, logit less the mean is %.6f", mode, i, sum, want)
			}
		}
	}
}

// TestScoreEffectsUnderBest: a candidate below the ranker's best whose own
// calibrator scores it higher is kept under the best, and its effects say
// so (in ranking), as they say a query that asks nothing is capped.
func TestScoreEffectsUnderBest(t *testing.T) {
	flat := func(n int, bias float64) *Linear {
		l := &Linear{Mean: make([]float64, n), Scale: make([]float64, n), Weights: make([]float64, n), Bias: bias}
		for i := range l.Scale {
			l.Scale[i] = 1
		}
		return l
	}
	s := &Stage{Ranker: flat(NumFeatures, 0), Calib: flat(NumCalib, -3), Below: flat(NumCalib, 2), Nothing: 0.01}
	s.Ranker.Weights[FirstScore] = 1
	xs := make([]Vector, 3)
	logits := make([]float64, len(xs))
	for i := range xs {
		xs[i][FirstScore] = 0.9 - 0.4*float64(i)
		logits[i] = s.Ranker.Logit(xs[i][:])
	}
	if _, probs := s.Score(xs, nil); probs[1] != probs[0] || probs[0] > 0.05 {
		t.Fatalf("scores %v: want every one at the best's, under 5 %%", probs)
	}
	checkScoreEffects(t, "hand-made", s, xs, logits)
	for i := range xs {
		xs[i][CommonOnly] = 1
	}
	checkScoreEffects(t, "hand-made, asking nothing", s, xs, logits)
}

// Monotone asks of a stage's calibrators what Score relies on: with
// Below, Calib scores the best alone, so only its rise with the best's
// own logit and lead counts; without, it scores every candidate.
func TestMonotone(t *testing.T) {
	lin := func(logit, rel, gap, rank float64) *Linear {
		l := &Linear{Mean: make([]float64, NumCalib), Scale: make([]float64, NumCalib), Weights: make([]float64, NumCalib)}
		for i := range l.Scale {
			l.Scale[i] = 1
		}
		l.Weights[CalLogit], l.Weights[CalLogitRel], l.Weights[CalGap], l.Weights[CalRank] = logit, rel, gap, rank
		return l
	}
	rising, falling := lin(1, 0, 1, 1), lin(1, -3, 1, 1) // below the best: 1 − 3 + 1 < 0
	tests := []struct {
		name  string
		stage Stage
		want  bool
	}{
		{"one calibrator rising", Stage{Calib: rising}, true},
		{"one calibrator falling below the best", Stage{Calib: falling}, false},
		{"one calibrator, rank lowering", Stage{Calib: lin(1, 0, 1, -1)}, false},
		{"best's calibrator falling below the best, Below rising", Stage{Calib: falling, Below: rising}, true},
		{"best's calibrator, rank lowering, Below rising", Stage{Calib: lin(1, 0, 1, -1), Below: rising}, true},
		{"Below falling", Stage{Calib: rising, Below: falling}, false},
		{"the best falling with its lead", Stage{Calib: lin(1, 0, -0.5, 1), Below: rising}, false},
		{"the best falling with its logit", Stage{Calib: lin(-2, 0, 1, 1), Below: rising}, false},
	}
	for _, tt := range tests {
		if got := tt.stage.Monotone(); got != tt.want {
			t.Errorf("%s: Monotone() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestGapToAnotherSection checks that the best candidate's lead is
// measured to the best candidate of another section: a passage of its
// own section answers when it does, so it is no rival.
func TestGapToAnotherSection(t *testing.T) {
	ranker := &Linear{Mean: make([]float64, NumFeatures), Weights: make([]float64, NumFeatures), Scale: make([]float64, NumFeatures)}
	for i := range ranker.Scale {
		ranker.Scale[i] = 1
	}
	ranker.Weights[FirstScore] = 1
	xs := make([]Vector, 3)
	logits := []float64{3, 2.9, 1}
	for i, l := range logits {
		xs[i][FirstScore] = l
	}
	for _, tc := range []struct {
		name    string
		section []int64
		want    float64
	}{
		{"each its own", nil, 0.1},
		{"second of another section", []int64{7, 8, 9}, 0.1},
		{"second of the best's section", []int64{7, 7, 9}, 2},
		{"every rival of its section", []int64{7, 7, 7}, 3}, // as a lone one: against itself holding nothing
	} {
		c := CalInputs(ranker, xs, logits, tc.section)
		if got := c[0][CalGap]; math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: the best's gap is %.3f, want %.3f", tc.name, got, tc.want)
		}
		if got := c[1][CalGap]; math.Abs(got-(-0.1)) > 1e-9 {
			t.Errorf("%s: the second's gap is %.3f, want -0.1 (to the best)", tc.name, got)
		}
	}
}
