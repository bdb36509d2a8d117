package engine

import (
	"path/filepath"
	"strings"
	"testing"
)

// wide is a test embedder that reads 512 tokens, as remote models do.
type wide struct{ *bow }

func (wide) MaxTokens() int { return 512 }

// Windows are the embedder's own window: a model that reads 512 tokens
// reads a 250-word passage in one window (and its heading path in
// another), where 128 tokens take two.
func TestWindowsOfTheModel(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "v")
	write(t, vault, "Long.md", "# Long\n\n"+strings.Repeat("The starter rises slowly in a cold kitchen overnight. ", 25)+"\n")
	narrow := index(t, openEngine(t, filepath.Join(t.TempDir(), "a.db"), newBow("narrow")), vault, "v")
	wider := index(t, openEngine(t, filepath.Join(t.TempDir(), "b.db"), wide{newBow("wide")}), vault, "v")
	if narrow.Chunks != 1 || wider.Chunks != 1 || narrow.Windows != 3 || wider.Windows != 2 {
		t.Errorf("128 tokens: %d passages in %d windows; 512: %d in %d; want one passage, in 2 + 1 and 1 + 1",
			narrow.Chunks, narrow.Windows, wider.Chunks, wider.Windows)
	}
}
