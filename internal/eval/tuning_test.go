package eval

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/store"
)

func TestParseWeights(t *testing.T) {
	cases := []struct {
		in   string
		want store.Weights
		err  string
	}{
		{"1,2.5,2,1.5", store.Weights{Text: 1, Heading: 2.5, Title: 2, Tags: 1.5}, ""},
		{" 1, 4 ,0,1", store.Weights{Text: 1, Heading: 4, Tags: 1}, ""},
		{"1,2,3", store.Weights{}, "want four numbers"},
		{"1,2,x,4", store.Weights{}, `"x" is not a number`},
		{"1,-2,3,4", store.Weights{}, `"-2" is not a number ≥ 0`},
		{"NaN,1,1,1", store.Weights{}, `"NaN" is not a number ≥ 0`},
		{"1,1,+Inf,1", store.Weights{}, `"+Inf" is not a number ≥ 0`},
		{"0,0,0,0", store.Weights{}, "all are 0, which the engine reads as its defaults"},
		{"0,1,0,0", store.Weights{Heading: 1}, ""},
	}
	for _, c := range cases {
		got, err := ParseWeights(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || *got != c.want):
			t.Errorf("%q: %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
}

func TestTuningApply(t *testing.T) {
	w := &store.Weights{Text: 1, Heading: 4, Title: 2, Tags: 1}
	tune := Tuning{Keyword: 0.5, BM25Half: 6, CosFloor: 0.1, CosCeil: 0.7, Weights: w, Passage: 250,
		Overlap: -1, StubWords: 100, MaxTokens: 96}
	if tune.IsZero() || (Tuning{}).String() != "" {
		t.Error("IsZero/String of the zero value")
	}
	want := "keyword weight 0.5, bm25 half 6, cosine 0.1–0.7, passage words 250, " +
		"bm25 weights text 1, heading 4, title 2, tags 1, no overlap, stub words 100, max tokens 96"
	if got := tune.String(); got != want {
		t.Errorf("String: %q, want %q", got, want)
	}
	fusion := engine.Fusion{Keyword: 0.5, BM25Half: 6, CosFloor: 0.1, CosCeil: 0.7}
	sections, _ := engineOptions(ChunkH2H3)
	tune.apply(&sections)
	wantChunking := chunks.Options{Profile: chunks.ProfileH2H3, Overlap: -1, StubWords: 100, MaxTokens: 96, PassageWords: 250}
	if sections.Fusion != fusion || sections.Weights != *w || sections.Chunking != wantChunking {
		t.Errorf("h2h3 options: %+v", sections)
	}
	base, _ := engineOptions(ChunkFixed)
	tune.apply(&base)
	if base.Fusion != fusion || base.Weights != *w || base.Chunking != (chunks.Options{}) {
		t.Errorf("baselines take ranking settings only: %+v", base)
	}
	var none engine.Options
	(Tuning{}).apply(&none)
	if none.Fusion != (engine.Fusion{}) || none.Weights != (store.Weights{}) || none.Chunking != (chunks.Options{}) {
		t.Errorf("zero tuning changed options: %+v", none)
	}

	// A cosine floor of 0 is a real setting: it applies with its ceiling.
	var floor engine.Options
	(Tuning{CosCeil: 0.9}).apply(&floor)
	if floor.Fusion.CosFloor != 0 || floor.Fusion.CosCeil != 0.9 {
		t.Errorf("cosine 0–0.9: %+v", floor.Fusion)
	}
}

func TestTuningCheck(t *testing.T) {
	for _, c := range []struct {
		tune Tuning
		err  string
	}{
		{Tuning{}, ""},
		{Tuning{CosCeil: 0.9}, ""},
		{Tuning{CosFloor: 0.1, CosCeil: 0.7}, ""},
		{Tuning{CosFloor: 0.3}, "a cosine floor (0.3) applies only with a cosine ceiling"},
		{Tuning{CosFloor: 0.5, CosCeil: 0.5}, "must be above 0 and above the floor"},
		{Tuning{CosFloor: -0.5, CosCeil: -0.1}, "must be above 0"},
		{Tuning{Keyword: math.NaN()}, "a tuning value is NaN"},
		{Tuning{BM25Half: math.Inf(1)}, "a tuning value is +Inf"},
	} {
		err := c.tune.Check()
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%+v: %v", c.tune, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%+v: error %v, want %q", c.tune, err, c.err)
		}
	}
	// Run refuses a floor alone before it does anything.
	_, err := Run(context.Background(), Options{Queries: &QuerySet{Queries: []Query{{Text: "x"}}}, Tuning: Tuning{CosFloor: 0.3}})
	if err == nil || !strings.Contains(err.Error(), "--cos-ceil") {
		t.Errorf("Run with a floor alone: %v", err)
	}
}

// A window budget over the model's window is reported as the one used.
func TestRunBudgetOverWindow(t *testing.T) {
	qs := &QuerySet{File: "q.jsonl", Queries: []Query{{Text: "restore drill", PathContains: "Backups", Line: 1}}}
	for _, c := range []struct{ given, want int }{{500, 128}, {100, 100}, {0, 0}} {
		rep, err := Run(context.Background(), Options{Vault: "../../sample-vault", Queries: qs, Embedder: &hashEmbedder{},
			Configs: mustConfigs(t, "sections-keyword"), Tuning: Tuning{MaxTokens: c.given}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Tuning.MaxTokens != c.want {
			t.Errorf("--max-tokens %d: the report says %d, want %d", c.given, rep.Tuning.MaxTokens, c.want)
		}
	}
}

func mustConfigs(t *testing.T, names ...string) []Config {
	t.Helper()
	cs, err := ParseConfigs(names)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
