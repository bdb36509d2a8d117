package engine

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed/remote"
)

// dimServer is an Ollama server whose vectors have dim dimensions for its
// first switchAfter requests (all, when 0), then later ones.
type dimServer struct {
	dim, later  int
	switchAfter int64
	requests    atomic.Int64
}

func (s *dimServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct{ Input []string }
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	dim := s.dim
	if n := s.requests.Add(1); s.switchAfter > 0 && n > s.switchAfter {
		dim = s.later
	}
	vecs, _ := (&bow{dim: dim}).Embed(r.Context(), req.Input)
	json.NewEncoder(w).Encode(map[string]any{"embeddings": vecs})
}

// An index run whose server answers another dimension than the one
// declared (MDSEARCH_EMBED_DIM) fails before writing anything, naming the
// setting, both dimensions and the fix; one whose server changes its
// dimension between batches fails there, keeping the vectors it stored
// under the model ID they were made with, and the next run embeds anew.
func TestIndexDimensionMismatch(t *testing.T) {
	tests := []struct {
		name     string
		declared int
		server   *dimServer
		want     []string
		model    string // the model the index records after the run
		stored   bool   // the run stored vectors before it failed
	}{
		{"declared wrong", 16, &dimServer{dim: 8},
			[]string{"returns vectors of 8 dimensions, but MDSEARCH_EMBED_DIM declares 16", "unset MDSEARCH_EMBED_DIM", "set it to 8"}, "", false},
		{"changed between batches", 0, &dimServer{dim: 8, later: 6, switchAfter: 3},
			[]string{"a vector of 6 dimensions", "want 8", "answered 8 dimensions before"}, "ollama:m@8", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := httptest.NewServer(tt.server)
			defer hs.Close()
			rem, err := remote.New(remote.Options{API: remote.Ollama, URL: hs.URL, Model: "m", Dim: tt.declared, BatchSize: 4})
			if err != nil {
				t.Fatal(err)
			}
			defer rem.Close()
			path, vault := filepath.Join(t.TempDir(), "index.db"), copyDir(t, sampleVault)
			e := openEngine(t, path, rem)
			e.opts.EmbedBatch = 4
			_, err = e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
			if err == nil || remote.CauseOf(err) != remote.WrongDimension {
				t.Fatalf("index run: %v; want a wrong dimension", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			st, err := e.Status(bg)
			if err != nil {
				t.Fatal(err)
			}
			vectors := 0
			for _, c := range st.Collections {
				vectors += c.Vectors
			}
			if st.ModelID != tt.model || (vectors > 0) != tt.stored || (!tt.stored && len(st.Collections) != 0) {
				t.Errorf("the index records model %q, %d collections, %d vectors", st.ModelID, len(st.Collections), vectors)
			}
			if !tt.stored {
				return
			}
			// The next run (a new process) learns the server's dimension now
			// and embeds every window with it.
			again, err := remote.New(remote.Options{API: remote.Ollama, URL: hs.URL, Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			next := index(t, openEngine(t, path, again), vault, "v")
			if !strings.Contains(next.Notice, "the embedding model changed from ollama:m@8 to ollama:m@6") ||
				!strings.Contains(next.Notice, "if that was a passing fault of the server") || strings.Contains(next.Notice, "settings it was built with") {
				t.Errorf("the next run: notice %q", next.Notice)
			}
		})
	}
}

// A server that answers its first request, the dimension probe, with
// vectors of another length than the texts' fails the run at its first
// batch, before any is stored: the index is still the old model's, and a
// search with it still reads its vectors.
func TestDimensionProbeFault(t *testing.T) {
	path, vault := filepath.Join(t.TempDir(), "index.db"), copyDir(t, sampleVault)
	steady := httptest.NewServer(&dimServer{dim: 8})
	defer steady.Close()
	open := func(url string, dim int) *Engine {
		rem, err := remote.New(remote.Options{API: remote.Ollama, URL: url, Model: "m", BatchSize: 4, Dim: dim})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rem.Close() })
		e := openEngine(t, path, rem)
		e.opts.EmbedBatch = 4
		return e
	}
	index(t, open(steady.URL, 0), vault, "v")
	write(t, vault, "garden/Tomatoes.md", "# Tomatoes\n\nStake them early, before the first truss sets.\n")
	faulty := httptest.NewServer(&dimServer{dim: 6, later: 8, switchAfter: 1})
	defer faulty.Close()
	e := open(faulty.URL, 0)
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); remote.CauseOf(err) != remote.WrongDimension {
		t.Fatalf("index run: %v; want a wrong dimension", err)
	}
	st, err := e.Status(bg)
	if err != nil || st.ModelID != "ollama:m@8" {
		t.Fatalf("the index records model %q (%v), want ollama:m@8", st.ModelID, err)
	}
	// A search takes the dimension of the model the index records, as
	// the command line does (its IndexModel).
	resp := search(t, open(steady.URL, 8), mdsearch.SearchRequest{Query: "restore drill", Mode: mdsearch.ModeSemantic})
	if resp.Mode != mdsearch.ModeSemantic || len(resp.Results) == 0 {
		t.Errorf("search after the failed run: mode %s, %d results, notice %q", resp.Mode, len(resp.Results), resp.Notice)
	}
}

// A search whose embedder is the index's model at another dimension (one
// declared with MDSEARCH_EMBED_DIM) names that setting, not the embedder
// flags it already has.
func TestSearchOtherDimension(t *testing.T) {
	hs := httptest.NewServer(&dimServer{dim: 8})
	defer hs.Close()
	path := filepath.Join(t.TempDir(), "index.db")
	open := func(dim int) *Engine {
		rem, err := remote.New(remote.Options{API: remote.Ollama, URL: hs.URL, Model: "m", Dim: dim})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rem.Close() })
		return openEngine(t, path, rem)
	}
	index(t, open(0), copyDir(t, sampleVault), "v")
	resp := search(t, open(16), mdsearch.SearchRequest{Query: "restore drill"})
	if !strings.Contains(resp.Notice, "(it was built with ollama:m@8): the same model at 8 dimensions; if MDSEARCH_EMBED_DIM is set, unset it or set it to 8") ||
		strings.Contains(resp.Notice, "--embedder") {
		t.Errorf("notice %q", resp.Notice)
	}
	for have, want := range map[string]int{"ollama:m@8": 8, "openai:m@8": 0, "ollama:n@8": 0, "ollama:m@16": 0, "use-lite-0.2.0-int8-row": 0} {
		if got := otherDim(have, "ollama:m@16"); got != want {
			t.Errorf("otherDim(%q) = %d, want %d", have, got, want)
		}
	}
}
