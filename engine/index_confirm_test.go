package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// unready is a bow whose dimension is not known until confirm is nil: a
// server's, asked in the background (provider.OpenBackground).
type unready struct {
	*bow
	confirm atomic.Pointer[error]
}

func (u *unready) Ready() error {
	if err := u.confirm.Load(); err != nil {
		return *err
	}
	return nil
}

func (u *unready) Confirm(context.Context) error { return u.Ready() }

func (u *unready) set(err error) {
	if err == nil {
		u.confirm.Store(nil)
		return
	}
	u.confirm.Store(&err)
}

// Before its server tells the dimension, an embedder leaves searches to
// keyword ranking, saying why; an index run of a new index indexes for
// keyword search only, saying why and recording no model, and the next
// run that reaches the server embeds everything; an index with vectors
// refuses the run instead, which would leave it partly embedded.
func TestIndexBeforeDimensionKnown(t *testing.T) {
	down := errors.New("embed http://127.0.0.1:9/api/embed: connection refused")
	tests := []struct {
		name    string
		indexed bool // the index holds this model's vectors already
	}{
		{"new index", false},
		{"index with vectors", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vault := copyDir(t, sampleVault)
			path := filepath.Join(t.TempDir(), "index.db")
			emb := &unready{bow: newBow("ollama:nomic-embed-text@64")}
			e := openEngine(t, path, emb)
			if tt.indexed {
				index(t, e, vault, "v")
			}
			emb.set(down)
			calls := emb.calls.Load()
			st, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
			switch {
			case tt.indexed && !errors.Is(err, down):
				t.Fatalf("index run of an index with vectors: %v; want the server's error", err)
			case !tt.indexed && (err != nil || !strings.Contains(st.Notice, "indexed for keyword search only: "+down.Error()) || emb.calls.Load() != calls):
				t.Fatalf("index run: %v, notice %q, %d Embed calls", err, st.Notice, emb.calls.Load()-calls)
			}
			resp := search(t, e, mdsearch.SearchRequest{Query: "restore drill"})
			if resp.Mode != mdsearch.ModeKeyword || len(resp.Results) == 0 || !strings.Contains(resp.Notice, "semantic search unavailable: "+down.Error()) {
				t.Errorf("search: mode %s, %d results, notice %q", resp.Mode, len(resp.Results), resp.Notice)
			}
			if tt.indexed {
				return
			}
			if s, _ := e.Status(bg); s.ModelID != "" {
				t.Errorf("a keyword-only run recorded model %q", s.ModelID)
			}
			emb.set(nil)
			if st := index(t, e, vault, "v"); st.Embedded == 0 {
				t.Errorf("the run after the server answered embedded nothing: %+v", st)
			}
			if resp := search(t, e, mdsearch.SearchRequest{Query: "restore drill"}); resp.Mode != mdsearch.ModeHybrid || resp.Notice != "" {
				t.Errorf("search once embedded: mode %s, notice %q", resp.Mode, resp.Notice)
			}
		})
	}
}

// A search whose server is down, over an index built with another model,
// says the index holds none of this model's vectors however the server
// answers, naming the embedder it was built with, not the server to start.
func TestUnreadyOtherModel(t *testing.T) {
	vault := copyDir(t, sampleVault)
	path := filepath.Join(t.TempDir(), "index.db")
	index(t, openEngine(t, path, newBow("use-lite-0.2.0-int8-row")), vault, "v")
	emb := &unready{bow: newBow("ollama:nomic-embed-text@64")}
	emb.set(errors.New("cannot reach the ollama server: start Ollama"))
	resp := search(t, openEngine(t, path, emb), mdsearch.SearchRequest{Query: "restore drill"})
	if resp.Mode != mdsearch.ModeKeyword || !strings.Contains(resp.Notice, "it was built with use-lite-0.2.0-int8-row") ||
		!strings.Contains(resp.Notice, "--embedder use") || strings.Contains(resp.Notice, "start Ollama") {
		t.Errorf("search: mode %s, notice %q", resp.Mode, resp.Notice)
	}
}
