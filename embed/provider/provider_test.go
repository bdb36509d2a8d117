package provider

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/remote"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestFromEnv(t *testing.T) {
	c := FromEnv(envOf(map[string]string{
		"MDSEARCH_EMBEDDER":            " Ollama ",
		"MDSEARCH_EMBED_URL":           "http://gpu:11434",
		"MDSEARCH_EMBED_MODEL":         "nomic-embed-text",
		"MDSEARCH_EMBED_API_KEY":       "k",
		"MDSEARCH_EMBED_DIM":           "768",
		"MDSEARCH_EMBED_BATCH":         "8",
		"MDSEARCH_THREADS":             "2",
		"MDSEARCH_EMBED_MAX_TOKENS":    "256",
		"MDSEARCH_EMBED_TIMEOUT":       "1.5",
		"MDSEARCH_EMBED_QUERY_TIMEOUT": "2s",
		"MDSEARCH_EMBED_PARALLEL":      "3",
		"MDSEARCH_ORT_LIB":             "/lib/ort.so",
		"MDSEARCH_MODEL_DIR":           "/models/use",
		"MDSEARCH_PRECISION":           " Float32 ",
	}))
	want := Config{Provider: "ollama", URL: "http://gpu:11434", Model: "nomic-embed-text", APIKey: "k",
		Dim: 768, BatchSize: 8, Threads: 2, MaxTokens: 256, Timeout: 1500 * time.Millisecond, QueryTimeout: 2 * time.Second, Parallel: 3,
		LibPath: "/lib/ort.so", ModelDir: "/models/use", Precision: "float32"}
	if c.Getenv == nil || c.openAIKey != "" {
		t.Error("FromEnv should keep getenv for asset lookup, and no OpenAI key here")
	}
	c.Getenv = nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("FromEnv = %+v\nwant %+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
	if d := FromEnv(envOf(nil)); d.Provider != USE || d.Timeout != 0 {
		t.Errorf("empty env: %+v; want the use provider and defaults", d)
	}
	if d := FromEnv(envOf(map[string]string{"MDSEARCH_EMBED_TIMEOUT": "2m"})); d.Timeout != 2*time.Minute {
		t.Errorf("timeout 2m gave %v", d.Timeout)
	}
}

func TestBadConfig(t *testing.T) {
	tests := []struct {
		env  map[string]string
		mod  func(*Config)
		want string
	}{
		{map[string]string{"MDSEARCH_THREADS": "two"}, nil, `MDSEARCH_THREADS="two": want a whole number`},
		{map[string]string{"MDSEARCH_EMBED_DIM": "-3"}, nil, "MDSEARCH_EMBED_DIM"},
		{map[string]string{"MDSEARCH_EMBED_TIMEOUT": "soon"}, nil, "MDSEARCH_EMBED_TIMEOUT"},
		{map[string]string{"MDSEARCH_EMBED_QUERY_TIMEOUT": "-1s"}, nil, "MDSEARCH_EMBED_QUERY_TIMEOUT"},
		{nil, func(c *Config) { c.QueryTimeout = -1 }, "must not be negative"},
		{map[string]string{"MDSEARCH_EMBED_PARALLEL": "-2"}, nil, "MDSEARCH_EMBED_PARALLEL"},
		{nil, func(c *Config) { c.Parallel = -1 }, "must not be negative"},
		{map[string]string{"MDSEARCH_EMBEDDER": "bert"}, nil, `unknown embedder "bert"`},
		{map[string]string{"MDSEARCH_PRECISION": "fp16"}, nil, `unknown precision "fp16"`},
		{nil, func(c *Config) { c.Threads = -1 }, "must not be negative"},
		{nil, func(c *Config) { c.Threads = MaxThreads + 1 }, "threads is 257"},
		{map[string]string{"MDSEARCH_EMBEDDER": "openai"}, nil, "needs a URL"},
	}
	for _, tt := range tests {
		c := FromEnv(envOf(tt.env))
		if tt.mod != nil {
			tt.mod(&c)
		}
		e, err := Open(c)
		if e != nil || err == nil || !strings.Contains(err.Error(), tt.want) || mdsearch.KindOf(err) != mdsearch.KindInvalid {
			t.Errorf("env %v: Open = %v, %v; want KindInvalid containing %q", tt.env, e, err, tt.want)
		}
	}
}

func TestFlagsOverrideEnv(t *testing.T) {
	c := FromEnv(envOf(map[string]string{"MDSEARCH_EMBEDDER": "ollama", "MDSEARCH_EMBED_MODEL": "a", "MDSEARCH_THREADS": "3"}))
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c.AddFlags(fs)
	if err := fs.Parse([]string{"--embed-model", "b", "--ort-lib", "/x.so", "--model-dir", "/m", "--precision", "float32"}); err != nil {
		t.Fatal(err)
	}
	if c.Provider != "ollama" || c.Model != "b" || c.Threads != 3 || c.LibPath != "/x.so" || c.ModelDir != "/m" || c.Precision != "float32" {
		t.Errorf("after flags: %+v", c)
	}
	for _, name := range []string{"embedder", "embed-url", "embed-model", "ort-lib", "model-dir", "threads", "precision"} {
		if fs.Lookup(name) == nil {
			t.Errorf("flag --%s not registered", name)
		}
	}
	if got := fs.Lookup("embedder").DefValue; got != "ollama" {
		t.Errorf("--embedder default %q; want the env value", got)
	}
}

func TestOpenNone(t *testing.T) {
	e, err := Open(Config{Provider: None})
	if e != nil || err != nil {
		t.Fatalf("Open(none) = %v, %v; want nil, nil", e, err)
	}
	if err := Close(nil); err != nil {
		t.Error(err)
	}
}

func TestOpenUSEWithoutAssets(t *testing.T) {
	home := t.TempDir()
	_, err := Open(FromEnv(envOf(map[string]string{"MDSEARCH_HOME": home})))
	var e *mdsearch.Error
	if !errors.As(err, &e) || e.Kind != mdsearch.KindUnavailable || e.Hint != "run `mdsearch setup`" {
		t.Fatalf("err = %v; want KindUnavailable with the setup hint", err)
	}
	_, err = Open(FromEnv(envOf(map[string]string{"MDSEARCH_HOME": home, "MDSEARCH_ORT_LIB": home + "/nope.so"})))
	if err == nil || !strings.Contains(err.Error(), home+"/nope.so") {
		t.Fatalf("err = %v; want it to name the bad MDSEARCH_ORT_LIB", err)
	}
}

// embedServer answers POST /api/embed and /v1/embeddings with dim-3
// vectors, recording the Authorization header.
func embedServer(t *testing.T) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var auth []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		var req struct{ Input []string }
		json.NewDecoder(r.Body).Decode(&req)
		vecs := make([][]float32, len(req.Input))
		for i := range vecs {
			vecs[i] = []float32{3, 4, 0}
		}
		if r.URL.Path == "/api/embed" {
			json.NewEncoder(w).Encode(map[string]any{"embeddings": vecs})
			return
		}
		var data []map[string]any
		for i, v := range vecs {
			data = append(data, map[string]any{"index": i, "embedding": v})
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(s.Close)
	return s, &auth
}

func TestOpenRemoteProbesDimension(t *testing.T) {
	s, auth := embedServer(t)
	for _, p := range []string{Ollama, OpenAI} {
		t.Run(p, func(t *testing.T) {
			*auth = nil
			e, err := Open(FromEnv(envOf(map[string]string{
				"MDSEARCH_EMBEDDER": p, "MDSEARCH_EMBED_URL": s.URL, "MDSEARCH_EMBED_MODEL": "m",
				"OPENAI_API_KEY": "sk-openai", "MDSEARCH_EMBED_PARALLEL": "2",
			})))
			if err != nil {
				t.Fatal(err)
			}
			defer Close(e)
			if e.Dim() != 3 || e.ModelID() != p+":m@3" {
				t.Errorf("Dim %d, ModelID %q; want the probed dimension 3", e.Dim(), e.ModelID())
			}
			if n := embed.ConcurrencyOf(e); n != 2 {
				t.Errorf("ConcurrencyOf = %d; want MDSEARCH_EMBED_PARALLEL's 2", n)
			}
			vecs, err := e.Embed(context.Background(), []string{"x"})
			if err != nil || embed.Cosine(vecs[0], []float32{0.6, 0.8, 0}) < 0.9999 {
				t.Errorf("Embed = %v, %v", vecs, err)
			}
			// OPENAI_API_KEY goes to an OpenAI-compatible server only, never to Ollama.
			want := ""
			if p == OpenAI {
				want = "Bearer sk-openai"
			}
			for _, got := range *auth {
				if got != want {
					t.Errorf("Authorization %q; want %q", got, want)
				}
			}
		})
	}
}

func TestOpenRemoteDown(t *testing.T) {
	s := httptest.NewServer(http.NotFoundHandler())
	url := s.URL
	s.Close()
	_, err := Open(Config{Provider: Ollama, URL: url, Timeout: time.Second})
	if mdsearch.KindOf(err) != mdsearch.KindUnavailable || !strings.Contains(err.Error(), url) {
		t.Fatalf("err = %v; want KindUnavailable naming %s", err, url)
	}
	// A configured dimension is checked by the same probe, which fails alike;
	// a search's open trusts it, and its query's answer checks it.
	if _, err := Open(Config{Provider: Ollama, URL: url, Dim: 768, Timeout: time.Second}); mdsearch.KindOf(err) != mdsearch.KindUnavailable {
		t.Fatalf("Open with Dim: %v; want KindUnavailable", err)
	}
	e, err := OpenDeferred(Config{Provider: Ollama, URL: url, Dim: 768})
	if err != nil || e.ModelID() != "ollama:nomic-embed-text@768" {
		t.Fatalf("OpenDeferred with Dim = %v, %v", e, err)
	}
}

// The real local model, found the way mdsearch finds it, at each precision.
func TestOpenUSE(t *testing.T) {
	if _, err := assets.Locate(assets.Paths{}, os.Getenv); err != nil {
		testenv.Absent(t, "%v", err)
	}
	tests := []struct{ precision, want string }{
		{"", string(sentenceencoder.DefaultPrecision)},
		{"float32", "float32"},
		{"int8", "int8"},
	}
	for _, tt := range tests {
		cfg := FromEnv(os.Getenv)
		cfg.Precision = tt.precision
		e, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer Close(e)
		m, ok := e.(*sentenceencoder.Model)
		if !ok {
			t.Fatalf("precision %q: got %T, want a *sentenceencoder.Model", tt.precision, e)
		}
		if string(m.Precision()) != tt.want {
			t.Errorf("precision %q: model runs at %s, want %s", tt.precision, m.Precision(), tt.want)
		}
		wantID := sentenceencoder.ModelID
		if tt.want == "int8" {
			wantID += "-int8-row"
		}
		if e.ModelID() != wantID || e.Dim() != 512 || e.MaxTokens() != 128 {
			t.Errorf("precision %q: ModelID %q (want %q), Dim %d, MaxTokens %d", tt.precision, e.ModelID(), wantID, e.Dim(), e.MaxTokens())
		}
		vecs, err := e.Embed(context.Background(), []string{"the cat sat on the mat", "a kitten rested on the rug", "quarterly tax filing deadline"})
		if err != nil {
			t.Fatal(err)
		}
		near, far := embed.Cosine(vecs[0], vecs[1]), embed.Cosine(vecs[0], vecs[2])
		if near <= far {
			t.Errorf("precision %q: cat/kitten %.3f should beat cat/tax %.3f", tt.precision, near, far)
		}
	}
}

// A search of an index whose recorded model is the configured one sends
// no probe: its dimension is the index's, and the query's answer is
// still checked against it.
func TestOpenRemoteTakesIndexDimension(t *testing.T) {
	s, auth := embedServer(t)
	tests := []struct {
		name       string
		indexModel string
		dim        int
		deferred   bool
		probes     int
		wantID     string
	}{
		{"the index's model", "ollama:m@3", 0, false, 0, "ollama:m@3"},
		{"deferred", "ollama:m@3", 0, true, 0, "ollama:m@3"},
		{"another model is probed", "ollama:other@3", 0, true, 1, "ollama:m@3"},
		{"another API is probed", "openai:m@3", 0, false, 1, "ollama:m@3"},
		{"no index model", "", 0, true, 1, "ollama:m@3"},
		{"MDSEARCH_EMBED_DIM wins", "ollama:m@3", 5, true, 0, "ollama:m@5"},
		{"MDSEARCH_EMBED_DIM is checked", "ollama:m@3", 3, false, 1, "ollama:m@3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			*auth = nil
			cfg := Config{Provider: Ollama, URL: s.URL, Model: "m", Dim: tt.dim, IndexModel: tt.indexModel}
			open := Open
			if tt.deferred {
				open = OpenDeferred
			}
			e, err := open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer Close(e)
			if len(*auth) != tt.probes || e.ModelID() != tt.wantID {
				t.Errorf("%d probes, ModelID %q; want %d, %q", len(*auth), e.ModelID(), tt.probes, tt.wantID)
			}
		})
	}
}

// Open refuses a configured dimension the server contradicts, naming the
// setting, the server's dimension and the fix, before anything is stored.
func TestOpenRemoteWrongDim(t *testing.T) {
	s, _ := embedServer(t)
	_, err := Open(Config{Provider: Ollama, URL: s.URL, Model: "m", Dim: 1024})
	if remote.CauseOf(err) != remote.WrongDimension {
		t.Fatalf("err = %v; want a wrong dimension", err)
	}
	for _, want := range []string{"returns vectors of 3 dimensions, but MDSEARCH_EMBED_DIM declares 1024", "unset MDSEARCH_EMBED_DIM", "set it to 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// OpenDeferred, for a search, probes on the query's budget.
func TestOpenDeferredRemoteProbeIsQuick(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(s.Close)
	start := time.Now()
	_, err := OpenDeferred(Config{Provider: Ollama, URL: s.URL, QueryTimeout: 200 * time.Millisecond})
	if mdsearch.KindOf(err) != mdsearch.KindUnavailable || !strings.Contains(err.Error(), "did not answer within 200ms") {
		t.Errorf("err = %v; want the query budget's", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// A damaged file names the fix that works for where it was found: a
// folder the user named is theirs to mend, the cache's setup --verify's.
func TestOpenUSEDamagedHint(t *testing.T) {
	p, err := assets.Locate(assets.Paths{}, os.Getenv)
	if err != nil {
		testenv.Absent(t, "%v", err)
	}
	given := t.TempDir()
	entries, err := os.ReadDir(p.ModelDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") && filepath.Ext(e.Name()) != ".onnx" {
			os.Symlink(filepath.Join(p.ModelDir, e.Name()), filepath.Join(given, e.Name()))
		}
	}
	os.Remove(filepath.Join(given, "vocab.json"))
	os.WriteFile(filepath.Join(given, "vocab.json"), []byte(`[["a", 1], ["b"`), 0o644)
	cfg := FromEnv(os.Getenv)
	cfg.ModelDir = given
	_, err = Open(cfg)
	var e *mdsearch.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "vocab.json") ||
		!strings.HasPrefix(e.Hint, "replace it") || !strings.Contains(e.Hint, "MDSEARCH_MODEL_DIR") {
		t.Fatalf("err = %v (hint %q); want vocab.json named, and mending the folder given, not setup, as the fix", err, e.Hint)
	}
}
