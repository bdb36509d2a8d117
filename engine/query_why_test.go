package engine

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A search that asks for it gets each result's Why: the query's words
// and the fields that hold them, the lists' places, the cosines, and the
// second stage's factors where one ranked it. Asking changes nothing else.
func TestExplain(t *testing.T) {
	vault := t.TempDir()
	long := " It is described at length here, so that the section stands as a passage of its own and is not merged into the next one as a stub would be: a section needs fifty words or more after its heading to stand alone; this sentence gives it that."
	write(t, vault, "reactivity.md", "---\ntags: [core]\n---\n# Reactivity\n\nThe reactivity system tracks reactive state."+long+"\n\n## Watchers\n\nA watcher runs a callback on change; its cleanup runs first."+long+"\n")
	write(t, vault, "components.md", "# Components\n\nA component receives props. Call defineProps() in a component."+long+"\n\n## Lifecycle\n\nLifecycle hooks run at each stage, and a callback may run on unmount."+long+"\n")
	write(t, vault, "routing.md", "# Routing\n\nThe router maps each address to a page."+long+"\n\n## Guards\n\nA guard may stop a navigation."+long+"\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	const query = `watcher callback "cleanup runs" state core`
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		plain := search(t, e, mdsearch.SearchRequest{Query: query, Mode: mode})
		asked := search(t, e, mdsearch.SearchRequest{Query: query, Mode: mode, Explain: true})
		if len(asked.Results) == 0 || len(asked.Results) != len(plain.Results) {
			t.Fatalf("%s: %d results explained, %d not", mode, len(asked.Results), len(plain.Results))
		}
		for i, r := range asked.Results {
			if plain.Results[i].Why != nil {
				t.Errorf("%s: a why nobody asked for: %+v", mode, plain.Results[i].Why)
			}
			if r.Why == nil {
				t.Fatalf("%s: result %d has no why", mode, i+1)
			}
			w := r.Why
			r.Why = nil
			if !reflect.DeepEqual(r, plain.Results[i]) {
				t.Errorf("%s: result %d differs when explained:\n%+v\n%+v", mode, i+1, r, plain.Results[i])
			}
			checkWhy(t, mode, w)
		}
	}
	// The Watchers section: each term and the fields holding it (the
	// heading field is the heading path; the title field the title and
	// file name; tags are the note's).
	resp := search(t, e, mdsearch.SearchRequest{Query: query, Mode: mdsearch.ModeKeyword, Explain: true})
	top := resp.Results[0]
	if top.Section != "Watchers" {
		t.Fatalf("top result %s > %s, want Watchers", top.Path, top.Section)
	}
	want := []mdsearch.WordMatch{
		{Word: "watcher", In: []string{"text", "heading"}},
		{Word: "callback", In: []string{"text"}},
		{Word: `"cleanup runs"`, In: []string{"text"}},
		{Word: "state", In: []string{}},
		{Word: "core", In: []string{"tags"}},
	}
	if !reflect.DeepEqual(top.Why.Words, want) {
		t.Errorf("words %+v, want %+v", top.Why.Words, want)
	}
	// Better ranked results were lifted more: effects add up to the
	// ranker's value less the average candidate's, within what Why
	// leaves out (effects under minEffect).
	for i := 1; i < len(resp.Results); i++ {
		if a, b := sumEffects(resp.Results[i-1].Why), sumEffects(resp.Results[i].Why); a < b-minEffect*11 {
			t.Errorf("result %d's effects add to %.3f, result %d's to %.3f", i, a, i+1, b)
		}
	}
	// The score factors, from the base, give the score: all but the
	// effects too small to list (minEffect each) and the rounding.
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	for i, r := range resp.Results {
		sum := logit(r.Why.ScoreBase)
		for _, f := range r.Why.ScoreFactors {
			sum += f.Effect
		}
		if d := math.Abs(sum - logit(r.Score)); d > minEffect*7+0.01 {
			t.Errorf("result %d scored %v, its score factors give %v", i+1, r.Score, 1/(1+math.Exp(-sum)))
		}
	}
	b, err := json.Marshal(top)
	if err != nil || !json.Valid(b) {
		t.Fatalf("result JSON: %v", err)
	}
}

// checkWhy checks what each mode's Why must hold.
func checkWhy(t *testing.T, mode mdsearch.Mode, w *mdsearch.Why) {
	t.Helper()
	if w.FirstStage < 0 || w.FirstStage > 1 {
		t.Errorf("%s: first stage %v is not 0–1", mode, w.FirstStage)
	}
	switch mode {
	case mdsearch.ModeKeyword: // keyword mode's stage takes any embedder
		if w.SemanticRank != 0 || w.Cosine != nil || len(w.Words) != 5 || len(w.Factors) == 0 || w.ScoreBase <= 0 || len(w.ScoreFactors) == 0 {
			t.Errorf("keyword: why %+v", w)
		}
	case mdsearch.ModeHybrid: // the shipped stage is the default model's: none for this one
		if w.Cosine == nil || w.HeadingCosine == nil || len(w.Words) != 5 || w.Factors != nil || w.ScoreFactors != nil {
			t.Errorf("hybrid: why %+v", w)
		}
	case mdsearch.ModeSemantic:
		// Its list is by meaning alone; its words are shown as they are
		// found, for the score counts them.
		if w.KeywordRank != 0 || w.SemanticRank == 0 || w.Cosine == nil || len(w.Words) != 5 || w.Factors != nil || w.ScoreFactors != nil {
			t.Errorf("semantic: why %+v", w)
		}
	}
	for _, f := range w.Factors {
		if f.Name == "" || math.Abs(f.Effect) < minEffect {
			t.Errorf("%s: factor %+v", mode, f)
		}
	}
}

func sumEffects(w *mdsearch.Why) float64 {
	var s float64
	for _, f := range w.Factors {
		s += f.Effect
	}
	return s
}

func TestTermText(t *testing.T) {
	for term, want := range map[string]string{
		`"watcher"`:        "watcher",
		`"react"*`:         "react*",
		`"reactive state"`: `"reactive state"`,
		`"it""s"`:          `it"s`,
		`"东京"`:             "东京",
	} {
		if got := termText(term); got != want {
			t.Errorf("termText(%s) = %s, want %s", term, got, want)
		}
	}
}

// A word whose stem is much shorter is explained with it: "validation"
// matched "valid", which a reader would not guess from the word alone; and
// a prefix past a stem is shown as typed, with the stem it was read as.
func TestExplainStem(t *testing.T) {
	for _, tt := range []struct {
		note, query string
		want        []mdsearch.WordMatch
	}{
		{"# Identifiers\n\nThe compiler checks that the name is a valid identifier.\n", "validation identifier", []mdsearch.WordMatch{
			{Word: "validation", In: []string{"text"}, Stem: "valid"},
			{Word: "identifier", In: []string{"text", "heading", "title"}}, // "identifi": one letter short
		}},
		{"# Forms\n\nInput validation runs first.\n", "validatio*", []mdsearch.WordMatch{
			{Word: "validatio*", In: []string{"text"}, Stem: "valid"},
		}},
	} {
		vault := t.TempDir()
		write(t, vault, "note.md", tt.note)
		e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
		index(t, e, vault, "v")
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mdsearch.ModeKeyword, Explain: true})
		if len(resp.Results) != 1 {
			t.Fatalf("%q: %s", tt.query, paths(resp))
		}
		if got := resp.Results[0].Why.Words; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: words %+v, want %+v", tt.query, got, tt.want)
		}
	}
}
