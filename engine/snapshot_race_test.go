package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestCommitAfterSnapshot: a note dropped by a commit that lands after a
// search took its vectors and before it reads the index (a watcher
// deleting a note) is left out of the ranking, so the search still
// returns the next best result rather than none.
func TestCommitAfterSnapshot(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "kept.md", "# Newts\n\nNewt husbandry in a cold tank.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	defer func() { testHookSnapshot = nil }()
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		write(t, dir, "gone.md", "# Axolotl\n\nAxolotl husbandry: water temperature and feeding.\n")
		index(t, e, dir, "v")
		req := mdsearch.SearchRequest{Query: "axolotl husbandry", N: 1, Mode: mode}
		if r := search(t, e, req).Results; len(r) != 1 || r[0].Path != "gone.md" {
			t.Fatalf("%s before: %+v", mode, r)
		}
		testHookSnapshot = func() {
			testHookSnapshot = nil
			if err := os.Remove(filepath.Join(dir, "gone.md")); err != nil {
				t.Fatal(err)
			}
			index(t, e, dir, "v")
		}
		if r := search(t, e, req).Results; len(r) != 1 || r[0].Path != "kept.md" {
			t.Errorf("%s: %+v, want kept.md", mode, r)
		}
	}
}
