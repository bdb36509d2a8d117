package rerank

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// body is a decoded request, as a server sees it.
type body struct {
	Model     string   `json:"model"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	Texts     []string `json:"texts"`
	TopN      *int     `json:"top_n"`
	RawScores *bool    `json:"raw_scores"`
}

// server answers rerank requests with answer, counting them.
func server(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, b body)) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		var b body
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&b) != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		answer(w, r, b)
	}))
	t.Cleanup(s.Close)
	return s, &n
}

// byLength scores a document by its length: the longest is the most relevant.
func byLength(docs []string) []float64 {
	out := make([]float64, len(docs))
	for i, d := range docs {
		out[i] = float64(len(d)) / 100
	}
	return out
}

// cohereStyle answers as Cohere, Jina and Infinity do: results sorted by
// score (not by index), the best top_n only, with fields mdsearch ignores.
func cohereStyle(t *testing.T, path string, scores func([]string) []float64) func(http.ResponseWriter, *http.Request, body) {
	return func(w http.ResponseWriter, r *http.Request, b body) {
		if r.URL.Path != path {
			http.Error(w, "Not Found", http.StatusNotFound)
			return
		}
		if b.Documents == nil {
			http.Error(w, `{"message":"documents is required"}`, http.StatusBadRequest)
			return
		}
		s := scores(b.Documents)
		type res struct {
			Index    int            `json:"index"`
			Score    float64        `json:"relevance_score"`
			Document map[string]any `json:"document"`
		}
		var out []res
		for i, v := range s {
			out = append(out, res{i, v, map[string]any{"text": b.Documents[i]}})
		}
		for i := range out { // best first
			for j := i + 1; j < len(out); j++ {
				if out[j].Score > out[i].Score {
					out[i], out[j] = out[j], out[i]
				}
			}
		}
		if b.TopN != nil && *b.TopN < len(out) {
			out = out[:*b.TopN]
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "x", "model": b.Model, "results": out, "usage": map[string]int{"total_tokens": 9}})
	}
}

// tei answers as Hugging Face TEI does: a Cohere-style body is refused by
// its JSON extractor, and the answer is a bare array.
func tei(w http.ResponseWriter, r *http.Request, b body) {
	if r.URL.Path != "/rerank" {
		http.Error(w, "", http.StatusNotFound)
		return
	}
	if b.Texts == nil {
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprint(w, "Failed to deserialize the JSON body into the target type: missing field `texts` at line 1 column 60")
		return
	}
	if b.RawScores == nil || *b.RawScores {
		http.Error(w, `{"error":"want raw_scores false","error_type":"Validation"}`, http.StatusUnprocessableEntity)
		return
	}
	if len(b.Texts) > 32 { // its default --max-client-batch-size
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		fmt.Fprintf(w, `{"error":"batch size %d > maximum allowed batch size 32","error_type":"Validation"}`, len(b.Texts))
		return
	}
	var out []map[string]any
	for i, s := range byLength(b.Texts) {
		out = append([]map[string]any{{"index": i, "score": s}}, out...)
	}
	json.NewEncoder(w).Encode(out)
}

var docs = []string{"short", "a much longer passage", "medium text"}

func TestRerankProtocols(t *testing.T) {
	logits := func(d []string) []float64 { return []float64{-2, 3, 0.5} }
	tests := []struct {
		name     string
		path     string // of the URL given to New
		opts     Options
		answer   func(*testing.T) func(http.ResponseWriter, *http.Request, body)
		want     []float64
		requests int64 // for two Rerank calls
	}{
		{"cohere v1", "/v1/rerank", Options{Model: "m"},
			func(t *testing.T) func(http.ResponseWriter, *http.Request, body) {
				return cohereStyle(t, "/v1/rerank", byLength)
			}, []float64{0.05, 0.21, 0.11}, 2},
		{"cohere v2 explicit", "/v2/rerank", Options{API: "cohere"},
			func(t *testing.T) func(http.ResponseWriter, *http.Request, body) {
				return cohereStyle(t, "/v2/rerank", byLength)
			}, []float64{0.05, 0.21, 0.11}, 2},
		{"infinity bare base", "", Options{},
			func(t *testing.T) func(http.ResponseWriter, *http.Request, body) {
				return cohereStyle(t, "/rerank", byLength)
			}, []float64{0.05, 0.21, 0.11}, 2},
		{"llama.cpp logits", "/v1/rerank", Options{},
			func(t *testing.T) func(http.ResponseWriter, *http.Request, body) {
				return cohereStyle(t, "/v1/rerank", logits)
			}, []float64{1 / (1 + math.Exp(2)), 1 / (1 + math.Exp(-3)), 1 / (1 + math.Exp(-0.5))}, 2},
		{"tei detected", "/rerank", Options{},
			func(t *testing.T) func(http.ResponseWriter, *http.Request, body) { return tei },
			[]float64{0.05, 0.21, 0.11}, 3}, // one refused, then TEI for good
		{"tei explicit", "", Options{API: "TEI"},
			func(t *testing.T) func(http.ResponseWriter, *http.Request, body) { return tei },
			[]float64{0.05, 0.21, 0.11}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, n := server(t, tt.answer(t))
			r, err := New(s.URL+tt.path, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				got, err := r.Rerank(context.Background(), "q", docs)
				if err != nil {
					t.Fatal(err)
				}
				if !near(got, tt.want) {
					t.Errorf("scores %v, want %v", got, tt.want)
				}
			}
			if n.Load() != tt.requests {
				t.Errorf("%d requests, want %d", n.Load(), tt.requests)
			}
		})
	}
}

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.IsNaN(a[i]) != math.IsNaN(b[i]) || math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return true
}

// Results for only some documents (a server that honours a smaller top_n
// than asked) leave the others without a score (NaN); model, key and
// top_n are sent.
func TestRerankPartialAndHeaders(t *testing.T) {
	s, _ := server(t, func(w http.ResponseWriter, r *http.Request, b body) {
		if r.Header.Get("Authorization") != "Bearer k" || b.Model != "bge" || b.TopN == nil || *b.TopN != 3 || b.Query != "q" {
			http.Error(w, `{"message":"unexpected request"}`, http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, `{"results":[{"index":2,"relevance_score":0.9},{"index":0,"relevance_score":0.4}]}`)
	})
	r, err := New(s.URL+"/v1/rerank", Options{Model: "bge", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Rerank(context.Background(), "q", docs)
	if err != nil || !near(got, []float64{0.4, math.NaN(), 0.9}) {
		t.Errorf("got %v, %v; want [0.4 NaN 0.9]", got, err)
	}
	if empty, err := r.Rerank(context.Background(), "q", nil); err != nil || len(empty) != 0 {
		t.Errorf("no documents: %v, %v", empty, err)
	}
}

// More passages than one request may send (TEI takes 32) go in several,
// their scores in the passages' order.
func TestRerankBatches(t *testing.T) {
	s, n := server(t, tei)
	r, err := New(s.URL+"/rerank", Options{API: TEI})
	if err != nil {
		t.Fatal(err)
	}
	many := make([]string, 70)
	for i := range many {
		many[i] = strings.Repeat("x", i+1)
	}
	got, err := r.Rerank(context.Background(), "q", many)
	if err != nil || !near(got, byLength(many)) {
		t.Fatalf("got %v, %v", got, err)
	}
	if n.Load() != 3 {
		t.Errorf("%d requests for 70 passages, want 3", n.Load())
	}
}

func TestRerankFailures(t *testing.T) {
	stopped := httptest.NewServer(http.NotFoundHandler())
	stopped.Close()
	answer := func(code int, text string) func(http.ResponseWriter, *http.Request, body) {
		return func(w http.ResponseWriter, r *http.Request, b body) {
			w.WriteHeader(code)
			fmt.Fprint(w, text)
		}
	}
	tests := []struct {
		name   string
		url    string // "" is the test server's /v1/rerank
		answer func(http.ResponseWriter, *http.Request, body)
		want   []string
	}{
		{"unreachable", stopped.URL + "/v1/rerank", nil,
			[]string{"rerank " + stopped.URL + "/v1/rerank", "cannot reach the reranker", "start it, or drop --reranker"}},
		{"password in the URL", strings.Replace(stopped.URL, "://", "://admin:hunter2pass@", 1) + "/v1/rerank", nil,
			[]string{"rerank " + strings.Replace(stopped.URL, "://", "://admin:xxxxx@", 1) + "/v1/rerank"}},
		{"server error", "", answer(500, `{"error":{"code":500,"message":"boom","type":"server_error"}}`),
			[]string{"500 Internal Server Error: boom", "check its logs"}},
		{"not reranking", "", answer(501, `{"error":{"message":"This server does not support reranking. Start it with --reranking"}}`),
			[]string{"does not support reranking"}},
		{"no route", "", answer(404, "404 page not found"), []string{`"404 page not found"`, "mdsearch posts to"}},
		{"key", "", answer(401, `{"message":"invalid api token"}`), []string{"invalid api token", "MDSEARCH_RERANKER_KEY"}},
		{"redirect", "", func(w http.ResponseWriter, r *http.Request, b body) {
			http.Redirect(w, r, "https://elsewhere/v1/rerank", http.StatusMovedPermanently)
		}, []string{"redirects to https://elsewhere/v1/rerank", "give --reranker"}},
		{"batch too large", "", answer(413, `{"error":"batch size 3 > maximum allowed batch size 2","error_type":"Validation"}`),
			[]string{"maximum allowed batch size 2", "--max-client-batch-size"}},
		{"key echoed", "", answer(401, `{"message":"bad token sk-secret-123"}`), []string{"bad token ***"}},
		{"key echoed in a page", "", answer(200, "<html>your header was Bearer sk-secret-123</html>"), []string{"was Bearer ***"}},
		{"key echoed at the cut", "", answer(500, strings.Repeat("E", 190)+" Bearer sk-secret-123 trailing"), []string{"EEE Bearer *"}},
		{"detail", "", answer(422, `{"detail":[{"loc":["body","query"],"msg":"field required"}]}`), []string{"field required", "--reranker-api"}},
		{"garbage", "", answer(200, "<html>hello</html>"), []string{"invalid JSON", `"<html>hello</html>"`}},
		{"no results", "", answer(200, `{"object":"list"}`), []string{`neither "results"`}},
		{"bad index", "", answer(200, `{"results":[{"index":7,"relevance_score":1}]}`), []string{"out-of-range index (7) for 3 passages"}},
		{"repeated index", "", answer(200, `[{"index":1,"score":1},{"index":1,"score":0.5}]`), []string{"repeated"}},
		{"no score", "", answer(200, `{"results":[{"index":1}]}`), []string{"no usable score for passage 1"}},
		{"oversized", "", func(w http.ResponseWriter, r *http.Request, b body) {
			fmt.Fprint(w, `{"results":[`+strings.Repeat(" ", maxBody)+`]}`)
		}, []string{"over 4 MB"}},
		{"slow", "", func(w http.ResponseWriter, r *http.Request, b body) {
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
		}, []string{"no answer within 50ms", "--reranker-timeout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := tt.url
			if url == "" {
				s, _ := server(t, tt.answer)
				url = s.URL + "/v1/rerank"
			}
			// Only "slow" tests the timeout: the others get room to send
			// their answer (4 MB for "oversized") on a busy machine.
			timeout := 10 * time.Second
			if tt.name == "slow" {
				timeout = 50 * time.Millisecond
			}
			r, err := New(url, Options{Timeout: timeout, APIKey: "sk-secret-123"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Rerank(context.Background(), "q", docs)
			if mdsearch.KindOf(err) != mdsearch.KindUnavailable {
				t.Fatalf("error %v (kind %v), want unavailable", err, mdsearch.KindOf(err))
			}
			if strings.Contains(err.Error(), "sk-s") || strings.Contains(err.Error(), "hunter2pass") { // not even its start
				t.Errorf("the key shows in %q", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		url  string
		opts Options
		want string // Name, or a part of the error
	}{
		{"http://127.0.0.1:8012/v1/rerank", Options{}, "reranker http://127.0.0.1:8012/v1/rerank"},
		{"http://127.0.0.1:8080", Options{}, "reranker http://127.0.0.1:8080/rerank"},
		{"https://h/", Options{API: "cohere"}, "reranker https://h/rerank"},
		{"127.0.0.1:8012", Options{}, "is not an http or https URL (give --reranker"},
		{"ftp://h/rerank", Options{}, "not an http or https URL"},
		{"", Options{}, "MDSEARCH_RERANKER"},
		{"http://h/rerank", Options{API: "jina"}, `unknown reranker API "jina"`},
		{"http://h/rerank", Options{Timeout: -time.Second}, "negative timeout"},
		{"http://h/rerank", Options{Scores: "sigmoid"}, `unknown reranker score scale "sigmoid" (use auto, logits or probabilities (--reranker-scores`},
		{"http://h/rerank", Options{Scores: " Logits "}, "reranker http://h/rerank"},
		{"http://admin:hunter2pass@h/v1/rerank", Options{}, "reranker http://admin:xxxxx@h/v1/rerank"}, // shown without its password
		{"http://admin:hunter2pass@h/rerank", Options{API: "jina"}, "reranker http://admin:xxxxx@h/rerank: unknown"},
	}
	for _, tt := range tests {
		r, err := New(tt.url, tt.opts)
		switch {
		case err != nil && mdsearch.KindOf(err) != mdsearch.KindInvalid:
			t.Errorf("%q: %v is not KindInvalid", tt.url, err)
		case err != nil && !strings.Contains(err.Error(), tt.want):
			t.Errorf("%q: error %q lacks %q", tt.url, err, tt.want)
		case err == nil && r.Name() != tt.want:
			t.Errorf("%q: name %q, want %q", tt.url, r.Name(), tt.want)
		}
	}
}
