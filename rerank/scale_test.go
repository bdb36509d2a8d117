package rerank

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// answering answers the k-th request with the k-th list of scores, in the
// shape of the server named: each sends its results best first and the
// fields it really sends beside them.
func answering(t *testing.T, shape string, answers [][]float64) func(http.ResponseWriter, *http.Request, body) {
	var k atomic.Int64
	return func(w http.ResponseWriter, r *http.Request, b body) {
		scores := answers[int(k.Add(1)-1)%len(answers)]
		docs := b.Documents
		if shape == "tei" {
			docs = b.Texts
		}
		if len(docs) != len(scores) {
			http.Error(w, `{"error":"wrong number of documents"}`, http.StatusBadRequest)
			return
		}
		order := make([]int, len(scores))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return -cmpFloat(scores[a], scores[b]) })
		var results []map[string]any
		for _, i := range order {
			key := "relevance_score"
			if shape == "tei" {
				key = "score"
			}
			results = append(results, map[string]any{"index": i, key: scores[i]})
		}
		var out any
		switch shape {
		case "llama.cpp":
			out = map[string]any{"model": "bge-reranker-v2-m3", "object": "list",
				"usage": map[string]int{"prompt_tokens": 40, "total_tokens": 40}, "results": results}
		case "jina":
			out = map[string]any{"model": "jina-reranker-v2", "usage": map[string]int{"total_tokens": 40}, "results": results}
		case "cohere":
			out = map[string]any{"id": "5c1a", "results": results, "meta": map[string]any{"api_version": map[string]string{"version": "2"}}}
		case "infinity":
			out = map[string]any{"object": "rerank", "results": results, "model": "m", "id": "infinity-1", "created": 1,
				"usage": map[string]int{"prompt_tokens": 40, "total_tokens": 40}}
		case "gateway": // an OpenAI-style list with an id: not llama.cpp's
			out = map[string]any{"object": "list", "id": "r-1", "results": results}
		case "tei":
			out = results
		}
		json.NewEncoder(w).Encode(out)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func logit(s float64) float64 { return 1 / (1 + math.Exp(-s)) }

// One model output shows as one score: the scale is the server's, never
// read from the other scores of an answer. The QA case: a llama.cpp
// server scoring Backups 0.9 showed 90.0 % beside passages of 0.2, and
// 71.1 % when another passage scored 1.3.
func TestScoreScale(t *testing.T) {
	alone := []float64{0.9, 0.2, 0.2}  // every score inside 0–1
	beside := []float64{0.9, 1.3, 0.2} // one outside
	tests := []struct {
		name    string
		shape   string
		scores  string // Options.Scores
		answers [][]float64
		want    [][]float64 // per call; nil: an error
		wantErr string
	}{
		{"llama.cpp auto", "llama.cpp", "", [][]float64{alone, beside, alone},
			[][]float64{{logit(0.9), logit(0.2), logit(0.2)}, {logit(0.9), logit(1.3), logit(0.2)}, {logit(0.9), logit(0.2), logit(0.2)}}, ""},
		{"llama.cpp logits set", "llama.cpp", "logits", [][]float64{alone},
			[][]float64{{logit(0.9), logit(0.2), logit(0.2)}}, ""},
		// A Qwen3 reranker, which llama.cpp turns into probabilities.
		{"llama.cpp probabilities set", "llama.cpp", "Probabilities", [][]float64{{0.98, 0.01, 0.2}},
			[][]float64{{0.98, 0.01, 0.2}}, ""},
		{"probabilities set, a logit sent", "llama.cpp", "probabilities", [][]float64{beside},
			nil, "the server sent the score 1.3, outside 0–1, and --reranker-scores is probabilities"},
		{"cohere auto", "cohere", "auto", [][]float64{alone, alone}, [][]float64{alone, alone}, ""},
		{"infinity auto", "infinity", "", [][]float64{alone}, [][]float64{alone}, ""},
		{"tei auto", "tei", "", [][]float64{alone}, [][]float64{alone}, ""},
		{"jina logits set", "jina", "logits", [][]float64{alone}, [][]float64{{logit(0.9), logit(0.2), logit(0.2)}}, ""},
		// A shape that cannot tell: probabilities until the server sends a
		// score outside 0–1, logits from then on, its first answer again too.
		{"jina-shaped logits, auto", "jina", "", [][]float64{alone, beside, alone},
			[][]float64{alone, {logit(0.9), logit(1.3), logit(0.2)}, {logit(0.9), logit(0.2), logit(0.2)}}, ""},
		{"gateway list with an id, auto", "gateway", "", [][]float64{alone, {-3, 0.9, 0.2}, alone},
			[][]float64{alone, {logit(-3), logit(0.9), logit(0.2)}, {logit(0.9), logit(0.2), logit(0.2)}}, ""},
		{"tei-shaped logits, auto", "tei", "", [][]float64{beside, alone},
			[][]float64{{logit(0.9), logit(1.3), logit(0.2)}, {logit(0.9), logit(0.2), logit(0.2)}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := server(t, answering(t, tt.shape, tt.answers))
			opts := Options{Scores: tt.scores}
			path := "/v1/rerank"
			if tt.shape == "tei" {
				opts.API, path = TEI, "/rerank"
			}
			r, err := New(s.URL+path, opts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range max(len(tt.want), 1) {
				got, err := r.Rerank(context.Background(), "q", docs)
				if tt.want == nil {
					if mdsearch.KindOf(err) != mdsearch.KindUnavailable || !strings.Contains(err.Error(), tt.wantErr) ||
						!strings.Contains(err.Error(), "set --reranker-scores logits") {
						t.Errorf("error %v, want one saying %q and the fix", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("answer %d: %v", i+1, err)
				}
				if !near(got, tt.want[i]) {
					t.Errorf("answer %d: scores %v, want %v", i+1, got, tt.want[i])
				}
			}
		})
	}
}

// llamaCpp knows llama.cpp's answer by its fields alone, and a field of
// an unexpected type leaves an answer readable.
func TestLlamaCppAnswer(t *testing.T) {
	tests := []struct {
		body string
		want bool
	}{
		{`{"model":"m","object":"list","usage":{"prompt_tokens":1,"total_tokens":1},"results":[]}`, true},
		{`{"object":"list","results":[]}`, true},
		{`{"object":"list","id":"r-1","results":[]}`, false},
		{`{"object":"rerank","id":"infinity-1","results":[]}`, false},
		{`{"id":"x","results":[],"meta":{}}`, false},
		{`{"model":"m","usage":{"total_tokens":1},"results":[]}`, false},
		{`{"object":5,"results":[]}`, false},
	}
	for _, tt := range tests {
		var obj struct{ Object, ID json.RawMessage }
		if err := json.Unmarshal([]byte(tt.body), &obj); err != nil {
			t.Fatal(err)
		}
		if got := llamaCpp(obj.Object, obj.ID); got != tt.want {
			t.Errorf("%s: llama.cpp %v, want %v", tt.body, got, tt.want)
		}
	}
	s, _ := server(t, func(w http.ResponseWriter, r *http.Request, b body) {
		w.Write([]byte(`{"object":5,"results":[{"index":0,"relevance_score":0.5}]}`))
	})
	r, _ := New(s.URL+"/v1/rerank", Options{})
	if got, err := r.Rerank(context.Background(), "q", docs[:1]); err != nil || !near(got, []float64{0.5}) {
		t.Errorf("an answer whose object is a number: %v, %v", got, err)
	}
}

// The batches of one query are read on one scale: a first batch of logits
// that all fall inside 0–1 is not read as probabilities when the next
// batch shows they are logits (32 and 8 passages here).
func TestScaleAcrossBatches(t *testing.T) {
	first := make([]float64, MaxBatch)
	for i := range first {
		first[i] = 0.9 - float64(i)/100 // 0.9 … 0.59: readable as probabilities
	}
	second := []float64{2.5, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	s, _ := server(t, answering(t, "jina", [][]float64{first, second}))
	r, err := New(s.URL+"/v1/rerank", Options{})
	if err != nil {
		t.Fatal(err)
	}
	many := make([]string, len(first)+len(second))
	got, err := r.Rerank(context.Background(), "q", many)
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for _, v := range append(slices.Clone(first), second...) {
		want = append(want, logit(v))
	}
	if !near(got, want) {
		t.Errorf("scores %v,\nwant every batch's as logits %v", got, want)
	}
	if got[0] >= got[MaxBatch] { // 0.9 as a logit (71 %) below 2.5's (92 %)
		t.Errorf("the first batch's best %.3f ranks above the second's %.3f: read on another scale", got[0], got[MaxBatch])
	}
}
