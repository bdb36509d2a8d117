package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMergeKeywords: a run that writes most of the index leaves its
// keyword index in one segment; a run that rewrites one note of twenty
// does not pay to merge it all again, but the next one, which makes a
// tenth written since the merge, does.
func TestMergeKeywords(t *testing.T) {
	vault := t.TempDir()
	note := func(i int, body string) {
		text := fmt.Sprintf("# Note %d\n\n%s %d\n", i, body, i)
		if err := os.WriteFile(filepath.Join(vault, fmt.Sprintf("n%02d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		note(i, "rye starter fed daily")
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	segments := func() int {
		n, err := e.st.KeywordSegments(bg)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := segments(); n != 1 {
		t.Errorf("%d keyword segments after a first index, want 1", n)
	}
	note(3, "wheat sown in spring")
	index(t, e, vault, "v")
	if n := segments(); n < 2 {
		t.Errorf("%d keyword segments after one note of 20 changed: merged again, want it left", n)
	}
	note(4, "wheat sown in autumn") // two notes of 20 since the merge: a tenth
	index(t, e, vault, "v")
	if n := segments(); n != 1 {
		t.Errorf("%d keyword segments after a tenth of the notes changed in two runs, want 1", n)
	}
	for i := range 20 {
		note(i, "barley malted")
	}
	index(t, e, vault, "v")
	if n := segments(); n != 1 {
		t.Errorf("%d keyword segments after every note changed, want 1", n)
	}
}
