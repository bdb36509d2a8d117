package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tomatoReranker answers Cohere-style, scoring 0.9 (as a logit: 2.2) the
// passages that mention tomatoes and the others 0.1 (-2.2).
func tomatoReranker(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Documents []string }
		if r.URL.Path != "/v1/rerank" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		var results []string
		for i, d := range req.Documents {
			score := -2.2
			if strings.Contains(d, "tomatoes") {
				score = 2.2
			}
			results = append(results, fmt.Sprintf(`{"index":%d,"relevance_score":%g}`, i, score))
		}
		fmt.Fprintf(w, `{"results":[%s]}`, strings.Join(results, ","))
	}))
	t.Cleanup(s.Close)
	return s
}

// compostIndex indexes three notes that keyword search ranks Alpha,
// Beta, Gamma for "compost": Gamma alone names the tomatoes.
func compostIndex(t *testing.T) string {
	t.Helper()
	vault := t.TempDir()
	for name, text := range map[string]string{
		"Alpha.md": "# Alpha\n\ncompost compost compost, turned weekly.\n",
		"Beta.md":  "# Beta\n\ncompost compost in three bins.\n",
		"Gamma.md": "# Gamma\n\ncompost under the tomatoes, with straw and more straw and straw.\n",
	} {
		if err := os.WriteFile(filepath.Join(vault, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := filepath.Join(t.TempDir(), "i.db")
	if code, _, errOut := runEnv(map[string]string{"MDSEARCH_INDEX": index}, "", "index", "--embedder", "none", vault); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	return index
}

// --reranker and MDSEARCH_RERANKER reach the engine; --no-rerank and an
// empty --reranker keep the local ranking, and a reranker that is down
// costs a note, not the search.
func TestSearchReranker(t *testing.T) {
	index := compostIndex(t)
	url := tomatoReranker(t).URL + "/v1/rerank"
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	tests := []struct {
		name  string
		env   string // MDSEARCH_RERANKER
		args  []string
		first string
		note  string
	}{
		{"none", "", nil, "Alpha.md", ""},
		{"flag", "", []string{"--reranker", url}, "Gamma.md", ""},
		{"variable", url, nil, "Gamma.md", ""},
		{"opted out", url, []string{"--no-rerank"}, "Alpha.md", ""},
		{"emptied", url, []string{"--reranker="}, "Alpha.md", ""},
		{"down", down.URL, nil, "Alpha.md", "note: reranker unavailable: rerank " + down.URL + "/rerank: cannot reach the reranker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"MDSEARCH_INDEX": index, "MDSEARCH_RERANKER": tt.env, "MDSEARCH_EMBEDDER": "none"}
			args := append([]string{"search", "--mode", "keyword", "--json", "-n", "3"}, tt.args...)
			code, out, errOut := runEnv(env, "", append(args, "compost")...)
			var resp struct{ Results []struct{ Path string } }
			if code != 0 || json.Unmarshal([]byte(out), &resp) != nil || len(resp.Results) != 3 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if resp.Results[0].Path != tt.first {
				t.Errorf("first %s, want %s", resp.Results[0].Path, tt.first)
			}
			if !strings.Contains(errOut, tt.note) || (tt.note == "" && strings.Contains(errOut, "reranker")) {
				t.Errorf("stderr %q, want %q", errOut, tt.note)
			}
		})
	}
}

func TestRerankerSettingErrors(t *testing.T) {
	tests := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--reranker", "ftp://h/rerank"}, `reranker ftp://h/rerank: "ftp://h/rerank" is not an http or https URL`},
		{map[string]string{"MDSEARCH_RERANKER": "127.0.0.1:8012"}, nil, "MDSEARCH_RERANKER"},
		{nil, []string{"--reranker", "http://h", "--reranker-api", "jina"}, `unknown reranker API "jina"`},
		{map[string]string{"MDSEARCH_RERANKER": "http://h", "MDSEARCH_RERANKER_TIMEOUT": "soon"}, nil, `MDSEARCH_RERANKER_TIMEOUT="soon"`},
		{nil, []string{"--reranker", "http://h", "--reranker-timeout", "0s"}, "--reranker-timeout 0s"},
		{nil, []string{"--reranker", "http://h", "--reranker-scores", "raw"}, `unknown reranker score scale "raw"`},
		{map[string]string{"MDSEARCH_RERANKER": "http://h", "MDSEARCH_RERANKER_SCORES": "sigmoid"}, nil, "MDSEARCH_RERANKER_SCORES"},
		// A reranker setting on the command line with no reranker to use it.
		{nil, []string{"--reranker-scores", "bogus"}, "--reranker-scores does nothing without a reranker"},
		{nil, []string{"--reranker-model", "bge"}, "--reranker-model does nothing without a reranker"},
	}
	for _, tt := range tests {
		env := map[string]string{"MDSEARCH_INDEX": filepath.Join(t.TempDir(), "none.db")}
		for k, v := range tt.env {
			env[k] = v
		}
		code, _, errOut := runEnv(env, "", append(append([]string{"search", "--mode", "keyword"}, tt.args...), "q")...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want 2 mentioning %q", tt.env, tt.args, code, errOut, tt.want)
		}
	}
}

// llamaReranker answers as llama.cpp's server does ({"model", "object":
// "list", "usage", "results"}, best first), scoring the passages that
// mention tomatoes hit and the others miss.
func llamaReranker(t *testing.T, hit, miss float64) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Documents []string }
		if r.URL.Path != "/v1/rerank" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":{"code":400,"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		var first, rest []string
		for i, d := range req.Documents {
			if strings.Contains(d, "tomatoes") {
				first = append(first, fmt.Sprintf(`{"index":%d,"relevance_score":%g}`, i, hit))
			} else {
				rest = append(rest, fmt.Sprintf(`{"index":%d,"relevance_score":%g}`, i, miss))
			}
		}
		fmt.Fprintf(w, `{"model":"bge-reranker-v2-m3","object":"list","usage":{"prompt_tokens":60,"total_tokens":60},"results":[%s]}`,
			strings.Join(append(first, rest...), ","))
	}))
	t.Cleanup(s.Close)
	return s
}

// The score shown for a reranked result is the model's output on the
// server's scale, whatever the other passages scored: llama.cpp's logit
// 0.9 shows as 71.1 % (it showed 90.0 % when every other passage scored
// inside 0–1), unless --reranker-scores (MDSEARCH_RERANKER_SCORES) says
// the server sends probabilities.
func TestSearchRerankerScores(t *testing.T) {
	index := compostIndex(t)
	inside := llamaReranker(t, 0.9, 0.2).URL + "/v1/rerank"
	outside := llamaReranker(t, 0.9, -1.5).URL + "/v1/rerank"
	const logit09 = 0.7109 // 1 / (1 + e^-0.9), as the engine rounds it
	tests := []struct {
		name string
		url  string
		env  map[string]string
		args []string
		want float64
	}{
		{"others inside 0–1", inside, nil, nil, logit09},
		{"others outside", outside, nil, nil, logit09},
		{"logits set", inside, nil, []string{"--reranker-scores", "logits"}, logit09},
		{"probabilities set", inside, nil, []string{"--reranker-scores", "probabilities"}, 0.9},
		{"variable", inside, map[string]string{"MDSEARCH_RERANKER_SCORES": "probabilities"}, nil, 0.9},
		{"flag over variable", inside, map[string]string{"MDSEARCH_RERANKER_SCORES": "probabilities"}, []string{"--reranker-scores", "auto"}, logit09},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"MDSEARCH_INDEX": index, "MDSEARCH_RERANKER": tt.url, "MDSEARCH_EMBEDDER": "none"}
			for k, v := range tt.env {
				env[k] = v
			}
			args := append([]string{"search", "--mode", "keyword", "--json", "-n", "3"}, tt.args...)
			code, out, errOut := runEnv(env, "", append(args, "compost")...)
			var resp struct {
				Results []struct {
					Path  string
					Score float64
				}
			}
			if code != 0 || json.Unmarshal([]byte(out), &resp) != nil || len(resp.Results) != 3 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if r := resp.Results[0]; r.Path != "Gamma.md" || r.Score != tt.want {
				t.Errorf("first %s scored %v, want Gamma.md scored %v (stderr %q)", r.Path, r.Score, tt.want, errOut)
			}
		})
	}
}

// A search asks a running serve only where the reranker would answer as
// its own would: the same URL, model, protocol, score scale and wait.
func TestSettingsKeyReranker(t *testing.T) {
	const url = "http://127.0.0.1:8012/v1/rerank"
	key := func(env map[string]string, args ...string) string {
		fs := flag.NewFlagSet("search", flag.ContinueOnError)
		ef := addSearchFlags(fs)
		ef.reranker = addRerankerFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return settingsKey(&Env{Getenv: func(k string) string { return env[k] }}, ef)
	}
	with := map[string]string{"MDSEARCH_RERANKER": url}
	tests := []struct {
		name   string
		env    map[string]string
		args   []string
		served bool // the serve started with with and no flags answers
	}{
		{"same", with, nil, true},
		{"the default wait given", with, []string{"--reranker-timeout", "10s"}, true},
		{"the default wait in seconds", map[string]string{"MDSEARCH_RERANKER": url, "MDSEARCH_RERANKER_TIMEOUT": "10"}, nil, true},
		{"a shorter wait", with, []string{"--reranker-timeout", "1ms"}, false},
		{"a longer wait", map[string]string{"MDSEARCH_RERANKER": url, "MDSEARCH_RERANKER_TIMEOUT": "30s"}, nil, false},
		{"a bad wait", map[string]string{"MDSEARCH_RERANKER": url, "MDSEARCH_RERANKER_TIMEOUT": "soon"}, nil, false},
		{"auto given", with, []string{"--reranker-scores", "AUTO"}, true},
		{"another scale", with, []string{"--reranker-scores", "logits"}, false},
		{"another scale by variable", map[string]string{"MDSEARCH_RERANKER": url, "MDSEARCH_RERANKER_SCORES": "probabilities"}, nil, false},
		{"another model", with, []string{"--reranker-model", "bge"}, false},
		{"no reranker", nil, nil, false},
		{"a key", map[string]string{"MDSEARCH_RERANKER": url, "MDSEARCH_RERANKER_KEY": "k"}, nil, true},
	}
	serve := key(with)
	for _, tt := range tests {
		if got := key(tt.env, tt.args...) == serve; got != tt.served {
			t.Errorf("%s: the serve answers %v, want %v", tt.name, got, tt.served)
		}
	}
	// Without a reranker its other settings do nothing.
	if key(nil) != key(map[string]string{"MDSEARCH_RERANKER_TIMEOUT": "1ms"}, "--reranker-scores", "logits") {
		t.Error("the wait and scale of no reranker changed the key")
	}
}
