package rescore

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

func TestDefaultModel(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"hybrid", "keyword"} {
		if m.For(mode, m.Embedder) == nil {
			t.Errorf("model.json has no %s stage", mode)
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
			logits, probs := s.Score(xs)
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
		{"reorders", mangle(func(m *Model) { m.Modes["hybrid"].Calib.Weights[CalRank] = -1 }), "reorder"},
		{"no calibrator", mangle(func(m *Model) { m.Modes["keyword"].Calib = nil }), "lacks"},
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
