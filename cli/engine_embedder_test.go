package cli

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// ollamaServer answers POST /api/embed as Ollama does, with vectors of
// dim, or with what answer says while it is set; it counts requests.
type ollamaServer struct {
	*httptest.Server
	dim      atomic.Int64
	requests atomic.Int64
	mu       sync.Mutex
	answer   http.HandlerFunc
}

func newOllamaServer(t *testing.T, dim int) *ollamaServer {
	s := &ollamaServer{}
	s.dim.Store(int64(dim))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		answer := s.answer
		s.mu.Unlock()
		if answer != nil {
			answer(w, r)
			return
		}
		s.embed(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// embed answers as Ollama does, with vectors of the server's dim.
func (s *ollamaServer) embed(w http.ResponseWriter, r *http.Request) {
	var req struct{ Input []string }
	if r.URL.Path != "/api/embed" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	var out struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	for _, in := range req.Input {
		v := make([]float32, s.dim.Load())
		v[int(in[0])%len(v)] = 1
		out.Embeddings = append(out.Embeddings, v)
	}
	json.NewEncoder(w).Encode(out)
}

func (s *ollamaServer) set(answer http.HandlerFunc) {
	s.mu.Lock()
	s.answer = answer
	s.mu.Unlock()
}

func answerWith(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "600")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// After a run that could not use the server, the summary says what the
// server did and when to index again: a key, a model or a URL to fix is no
// server to wait for. The key a server echoes is not printed. A declared
// dimension (MDSEARCH_EMBED_DIM) changes none of it.
func TestIndexSummarySaysWhatFailed(t *testing.T) {
	const key = "sk-0123456789-secret"
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	t.Setenv("MDSEARCH_EMBED_API_KEY", key)
	tests := []struct {
		name   string
		answer http.HandlerFunc
		want   string
	}{
		{"key refused", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(401)
			json.NewEncoder(w).Encode(map[string]string{"error": "Incorrect API key provided: " + r.Header.Get("Authorization")})
		}, "the ollama server refused the API key; once the key is fixed, run `mdsearch index` again"},
		{"no model", answerWith(404, `{"error":"model \"nomic-embed-text\" not found, try pulling it first"}`),
			"the ollama server has no such model; once the model is there"},
		{"invalid JSON", answerWith(200, `{"embeddings": [[0.1, `), "the ollama server answered something that is not embeddings; once fixed"},
		{"empty vector", answerWith(200, `{"embeddings": [[]]}`), "the ollama server answered something that is not embeddings"},
		{"rate limited", answerWith(429, `{"error":"slow down"}`), "the ollama server is rate-limiting"},
		{"down", nil, "the ollama server did not answer; once it is up, run `mdsearch index` again"},
	}
	for _, tt := range tests {
		for _, dim := range []string{"", "4"} {
			t.Run(tt.name+"/dim="+dim, func(t *testing.T) {
				t.Setenv("MDSEARCH_EMBED_DIM", dim)
				s := newOllamaServer(t, 4)
				s.set(tt.answer)
				url := s.URL
				if tt.answer == nil {
					s.Close()
				}
				index := filepath.Join(t.TempDir(), "index.db")
				code, _, errOut := run(t, index, "index", "../sample-vault", "--embedder", "ollama", "--embed-url", url)
				if code != 1 || !strings.Contains(errOut, "the keyword index was written, but without vectors: "+tt.want) {
					t.Errorf("exit %d; stderr lacks %q:\n%s", code, tt.want, errOut)
				}
				if tt.answer != nil && strings.Contains(errOut, "did not answer") {
					t.Errorf("a server that answered is said not to have:\n%s", errOut)
				}
				if strings.Contains(errOut, key) {
					t.Errorf("the API key is printed:\n%s", errOut)
				}
			})
		}
	}
}

// indexedByOllama indexes the sample vault with a fake Ollama server of
// 8-dimensional vectors, and returns the server, the index and the flags
// that name it.
func indexedByOllama(t *testing.T) (*ollamaServer, string, []string) {
	t.Helper()
	s := newOllamaServer(t, 8)
	index := filepath.Join(t.TempDir(), "index.db")
	remote := []string{"--embedder", "ollama", "--embed-url", s.URL}
	if code, _, errOut := run(t, index, append([]string{"index", "../sample-vault"}, remote...)...); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	return s, index, remote
}

// hang answers no request: a server that hangs (for 10 s, or until the
// client hangs up, which reading the body lets it notice).
func hang(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// A search of an index that records the server's model sends the query
// alone, no probe before it; a server whose model changed since is caught
// by the query's answer, and keyword results are shown.
func TestSearchSendsNoProbe(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	t.Setenv("MDSEARCH_NO_SERVE", "1")
	s, index, remote := indexedByOllama(t)
	s.requests.Store(0)
	code, out, errOut := run(t, index, append([]string{"search", "restore drill", "-n", "1"}, remote...)...)
	if code != 0 || !strings.Contains(out, "1. ") || strings.Contains(errOut, "unavailable") || s.requests.Load() != 1 {
		t.Errorf("exit %d after %d requests; want 1, the query's\n%s%s", code, s.requests.Load(), out, errOut)
	}

	s.dim.Store(6)
	code, out, errOut = run(t, index, append([]string{"search", "restore drill", "-n", "1"}, remote...)...)
	if code != 0 || !strings.Contains(out, "1. ") || !strings.Contains(errOut, "a vector of 6 dimensions") ||
		!strings.Contains(errOut, "ollama:nomic-embed-text@8") || !strings.Contains(errOut, "showing keyword results") {
		t.Errorf("a server's model changed since indexing: exit %d\n%s%s", code, out, errOut)
	}
}

// A server of the index (serve, mcp, watch) opens without probing an
// embedding server the index names the model of: one that hangs does not
// keep it from starting.
func TestServerOpensWithoutProbe(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	s, index, remote := indexedByOllama(t)
	s.set(hang)
	s.requests.Store(0)
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	ef := addEngineFlags(fs)
	if err := fs.Parse(append([]string{"--index", index}, remote...)); err != nil {
		t.Fatal(err)
	}
	ef.existing, ef.follow = true, true
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: os.Getenv}
	start := time.Now()
	e, closeAll, err := ef.open(context.Background(), env, true)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	if took := time.Since(start); took > 2*time.Second || s.requests.Load() != 0 {
		t.Errorf("opened in %v after %d requests; want at once, none", took, s.requests.Load())
	}
	if st, err := e.Status(context.Background()); err != nil || st.ModelID != "ollama:nomic-embed-text@8" {
		t.Errorf("model %q, %v", st.ModelID, err)
	}
}

// A search waits MDSEARCH_EMBED_QUERY_TIMEOUT for a hung server, not
// indexing's minutes, and shows keyword results saying why.
func TestSearchQueryBudget(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	t.Setenv("MDSEARCH_NO_SERVE", "1")
	s, index, remote := indexedByOllama(t)
	s.set(hang)
	t.Setenv("MDSEARCH_EMBED_QUERY_TIMEOUT", "300ms")
	s.requests.Store(0)
	start := time.Now()
	code, out, errOut := run(t, index, append([]string{"search", "restore drill", "-n", "1"}, remote...)...)
	if code != 0 || !strings.Contains(out, "Backups.md") || time.Since(start) > 3*time.Second {
		t.Fatalf("exit %d after %v\n%s%s", code, time.Since(start), out, errOut)
	}
	for _, want := range []string{"did not answer within 300ms", "MDSEARCH_EMBED_QUERY_TIMEOUT", "showing keyword results"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("notice lacks %q: %s", want, errOut)
		}
	}
	if strings.Contains(errOut, "MDSEARCH_EMBED_TIMEOUT ") || s.requests.Load() != 1 {
		t.Errorf("%d requests; want the query alone, not retried\n%s", s.requests.Load(), errOut)
	}
}

// MDSEARCH_EMBED_DIM set to another dimension than the server's fails
// index before it records anything, naming the setting, both dimensions
// and the fix; an index built before keeps its model.
func TestIndexWrongEmbedDim(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	tests := []struct {
		name  string
		built bool   // the index was built with the server's dimension before
		model string // the model the index records after
	}{
		{"new index", false, ""},
		{"index built before", true, "ollama:nomic-embed-text@8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("MDSEARCH_EMBED_DIM", "")
			s := newOllamaServer(t, 8)
			index := filepath.Join(t.TempDir(), "index.db")
			remote := []string{"--embedder", "ollama", "--embed-url", s.URL}
			if tt.built {
				_, index, remote = indexedByOllama(t)
			}
			t.Setenv("MDSEARCH_EMBED_DIM", "16")
			code, _, errOut := run(t, index, append([]string{"index", "../sample-vault"}, remote...)...)
			for _, want := range []string{"vectors of 8 dimensions, but MDSEARCH_EMBED_DIM declares 16",
				"unset MDSEARCH_EMBED_DIM to take the server's dimension, or set it to 8"} {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if code != 1 || strings.Contains(errOut, "keyword index was written") {
				t.Errorf("exit %d; want 1, writing nothing\n%s", code, errOut)
			}
			if got := recordedModel(t, index); got != tt.model {
				t.Errorf("the index records model %q; want %q", got, tt.model)
			}
		})
	}
}

// recordedModel is the model ID the index at path records, "" where
// there is no index.
func recordedModel(t *testing.T, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	st, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	model, err := st.Meta(context.Background(), "model")
	if err != nil {
		t.Fatal(err)
	}
	return model
}

// A window set once with MDSEARCH_EMBED_MAX_TOKENS (a server model that
// refuses longer texts) holds for the index's later runs with that model:
// a run without it cuts and embeds nothing again. Set to another value,
// it is the user's choice, and every note is cut again.
func TestWindowRemembered(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	s := newOllamaServer(t, 8)
	index := filepath.Join(t.TempDir(), "index.db")
	again := func(window string) mdsearch.IndexStats {
		t.Helper()
		t.Setenv("MDSEARCH_EMBED_MAX_TOKENS", window)
		s.requests.Store(0)
		code, out, errOut := run(t, index, "index", "../sample-vault", "--embedder", "ollama", "--embed-url", s.URL, "--json")
		var st mdsearch.IndexStats
		if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
			t.Fatalf("window %q: exit %d\n%s%s", window, code, out, errOut)
		}
		return st
	}
	// The run that set it stopped part way (the server failing after its
	// first batches): the next one without it finishes, cutting nothing again.
	t.Setenv("MDSEARCH_EMBED_BATCH", "8")
	s.set(func(w http.ResponseWriter, r *http.Request) {
		if s.requests.Load() > 3 {
			answerWith(500, `{"error":"out of memory"}`)(w, r)
			return
		}
		s.embed(w, r)
	})
	t.Setenv("MDSEARCH_EMBED_MAX_TOKENS", "40")
	if code, _, errOut := run(t, index, "index", "../sample-vault", "--embedder", "ollama", "--embed-url", s.URL); code == 0 {
		t.Fatalf("the run with the window was not stopped:\n%s", errOut)
	}
	s.set(nil)
	if st := again(""); st.Recut != 0 || st.Embedded == 0 {
		t.Errorf("after a stopped run: %d notes cut again, %d windows embedded", st.Recut, st.Embedded)
	}
	first := again("40")
	if st := again(""); st.Recut != 0 || st.Embedded != 0 || s.requests.Load() > 1 {
		t.Errorf("a run without the window cut %d notes again and embedded %d windows (%d requests; the dimension's probe is 1)", st.Recut, st.Embedded, s.requests.Load())
	}
	if st := again("512"); st.Recut != first.Files {
		t.Errorf("a run with another window cut %d of %d notes again", st.Recut, first.Files)
	}
}

// A run's "took" counts the time spent asking a server that does not
// answer before the keyword index was written, not the run's own alone.
func TestIndexTookCountsProbe(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	t.Setenv("MDSEARCH_EMBED_TIMEOUT", "300ms")
	s := newOllamaServer(t, 8)
	s.set(hang)
	index := filepath.Join(t.TempDir(), "index.db")
	start := time.Now()
	_, out, errOut := run(t, index, "index", "../sample-vault", "--embedder", "ollama", "--embed-url", s.URL, "--json")
	wall := time.Since(start)
	var st mdsearch.IndexStats
	if err := json.Unmarshal([]byte(out), &st); err != nil || s.requests.Load() == 0 {
		t.Fatalf("%v after %d requests\n%s%s", err, s.requests.Load(), out, errOut)
	}
	if took := time.Duration(st.TookMS * float64(time.Millisecond)); took < 300*time.Millisecond || took > wall {
		t.Errorf("took %v; the server was waited for at least 300ms, and the command ran %v", took, wall)
	}
}
