package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// Another embedder than the index's: a search names the settings the
// index was built with, and an index run says it embeds anew and will
// delete the other model's vectors, both before a forgotten setting
// costs an index's embeddings.
func TestModelChangeSaid(t *testing.T) {
	vault := copyDir(t, sampleVault)
	path := filepath.Join(t.TempDir(), "index.db")
	index(t, openEngine(t, path, newBow("ollama:nomic-embed-text@64")), vault, "v")

	other := openEngine(t, path, newBow("openai:text-embedding-3-small@64"))
	resp := search(t, other, mdsearch.SearchRequest{Query: "restore drill"})
	if !strings.Contains(resp.Notice, "search with the embedder it was built with (--embedder ollama --embed-model nomic-embed-text, and --embed-url where it is not the default)") {
		t.Errorf("search with another model: notice %q", resp.Notice)
	}
	st := index(t, other, vault, "v")
	if !strings.Contains(st.Notice, "the embedding model changed from ollama:nomic-embed-text@64 to openai:text-embedding-3-small@64") {
		t.Errorf("index with another model: notice %q", st.Notice)
	}
	if st := index(t, other, vault, "v"); strings.Contains(st.Notice, "model changed") {
		t.Errorf("index again with the same model: notice %q", st.Notice)
	}
}

func TestEmbedderOf(t *testing.T) {
	for _, tt := range []struct{ model, current, want string }{
		{"ollama:nomic-embed-text@768", "use-lite-0.2.0-int8-row", "--embedder ollama --embed-model nomic-embed-text, and --embed-url where it is not the default"},
		{"openai:text-embedding-3-small", "use-lite-0.2.0-int8-row", "--embedder openai --embed-model text-embedding-3-small, and --embed-url where it is not the default"},
		{"use-lite-0.2.0-int8-row", "ollama:nomic-embed-text@768", "the local model: --embedder use"},
		{"use-lite-0.2.0-int8-row", "use-lite-0.2.0", "the local model at int8: --precision int8"},
		{"use-lite-0.2.0", "use-lite-0.2.0-int8-row", "the local model at float32: --precision float32"},
		{"use-lite-0.3.0", "use-lite-0.2.0-int8-row", "the local model: --embedder use"},
	} {
		if got := embedderOf(tt.model, tt.current); got != tt.want {
			t.Errorf("embedderOf(%q, %q) = %q, want %q", tt.model, tt.current, got, tt.want)
		}
	}
}
