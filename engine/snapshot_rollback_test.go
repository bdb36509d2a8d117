package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestVectorCacheAfterRollback checks that a cache file written at one
// state of the index is not trusted for another state at the same
// generation: an index rolled back (a backup copied over it, a power loss
// before its log reached the disk) and written again reaches the
// generation the file names with other contents.
func TestVectorCacheAfterRollback(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "index.db")
	vault := cacheVault(t)
	emb := newBow("bow")
	e := openEngine(t, idx, emb)
	index(t, e, vault, "v")
	e.Close()
	backup, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	cached := func() ([]liveRow, int64) {
		t.Helper()
		s := cachedVectors(t, idx, emb, cache)
		return liveRows(s), s.ver.Gen
	}
	indexWith := func(name, text string) int64 {
		t.Helper()
		write(t, vault, name, text)
		e := openEngine(t, idx, emb)
		defer e.Close()
		index(t, e, vault, "v")
		gen, err := e.st.Generation(bg)
		if err != nil {
			t.Fatal(err)
		}
		return gen
	}
	gen := indexWith("d.md", "# Delta\n\nMacros write code.\n")
	if _, at := cached(); at != gen {
		t.Fatalf("the cache holds generation %d, want %d", at, gen)
	}
	os.Remove(filepath.Join(vault, "d.md"))
	if err := os.WriteFile(idx, backup, 0o644); err != nil { // the same file, its old contents
		t.Fatal(err)
	}
	if again := indexWith("e.md", "# Epsilon\n\nTraits bound generics.\n"); again != gen {
		t.Fatalf("the index written again is at generation %d, not %d: the test misses its case", again, gen)
	}
	got, _ := cached()
	c, err := Open(bg, Options{IndexPath: idx, Embedder: emb, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want, err := c.loadVectors(bg, gen)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, liveRows(want)) {
		t.Fatal("a search after the index was rolled back and written again read the cache of the state it left")
	}
}
