package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// vaultFiles is every file under dir with its bytes.
func vaultFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDrop removes one collection of two over the same folder, then the
// last: the other answers as before, shared vectors stay until no window
// uses them, the notes on disk are untouched, and an unknown name is
// refused with the names there are.
func TestDrop(t *testing.T) {
	vault := copyDir(t, sampleVault)
	before := vaultFiles(t, vault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "a")
	want := semanticAnswers(t, e)
	index(t, e, vault, "b")

	st, err := e.Drop(bg, "b")
	if err != nil {
		t.Fatal(err)
	}
	if st.Collection != "b" || st.Notes != 6 || st.Vectors != 0 {
		t.Errorf("drop b: %+v; want 6 notes and no vectors (collection a shares them all)", st)
	}
	for i, got := range semanticAnswers(t, e) {
		if got != want[i] {
			t.Errorf("query %d after dropping b:\n got %s\nwant %s", i, got, want[i])
		}
	}
	s, err := e.Status(bg)
	if err != nil || len(s.Collections) != 1 || s.Collections[0].Name != "a" || s.Files != 6 {
		t.Fatalf("status after dropping b: %+v %v", s, err)
	}

	if v, err := e.st.Meta(bg, maxSizeKey("b")); err != nil || v != "" {
		t.Errorf("b's size limit is still in the index: %q %v", v, err)
	}
	if v, err := e.st.Meta(bg, scannedKey("b")); err != nil || v != "" {
		t.Errorf("b's last walk is still in the index: %q %v", v, err)
	}
	_, err = e.Drop(bg, "b")
	if mdsearch.KindOf(err) != mdsearch.KindNotFound || !strings.Contains(err.Error(), "have: a") {
		t.Errorf("drop b again: %v; want not found, naming a", err)
	}

	texts, err := e.st.EmbedTexts(bg)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = e.Drop(bg, "a"); err != nil || st.Notes != 6 || st.Vectors != int64(len(texts)) {
		t.Errorf("drop a: %+v %v; want 6 notes and its %d vectors", st, err, len(texts))
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "sourdough starter", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 0 {
		t.Errorf("keyword search after dropping everything: %s", describe(resp))
	}
	docs, chunks, windows, _, err := e.st.Counts(bg, 0)
	if err != nil || docs+chunks+windows != 0 {
		t.Errorf("after dropping everything: %d docs, %d chunks, %d windows (%v)", docs, chunks, windows, err)
	}
	after := vaultFiles(t, vault)
	if len(after) != len(before) {
		t.Errorf("the vault had %d files, now %d", len(before), len(after))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed", p)
		}
	}
	// The folder can be indexed again under the old name.
	index(t, e, vault, "a")
	for i, got := range semanticAnswers(t, e) {
		if got != want[i] {
			t.Errorf("query %d after re-indexing a:\n got %s\nwant %s", i, got, want[i])
		}
	}
}

// A refresh or re-index by name that gets the lock after a drop of its
// collection fails; it does not make the collection again.
func TestNoRunRecreatesADroppedCollection(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "a")
	if _, err := e.Drop(bg, "a"); err != nil {
		t.Fatal(err)
	}
	// What Refresh and Index by name run once they hold the lock.
	for _, paths := range [][]string{{"kitchen/Sourdough.md"}, nil} {
		if _, err := e.index(bg, mdsearch.IndexRequest{Dir: vault, Name: "a"}, true, paths, nil); mdsearch.KindOf(err) != mdsearch.KindNotFound {
			t.Errorf("run of dropped a (paths %v): %v; want not found", paths, err)
		}
	}
	if s, err := e.Status(bg); err != nil || len(s.Collections) != 0 {
		t.Errorf("status: %+v %v; want no collections", s, err)
	}
}
