package engine

import (
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestStatusNamesSkipped: status names the files the index runs skipped,
// as the last run that looked at each reported it: a watch's refresh of a
// file fixed since takes it off, a walk replaces the list, a drop clears
// it.
func TestStatusNamesSkipped(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	write(t, vault, "bin.md", "x\x00y")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	skipped := func() []mdsearch.FileIssue {
		t.Helper()
		s, err := e.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		return s.Collections[0].Skipped
	}
	if got := skipped(); len(got) != 1 || got[0].Path != "bin.md" || got[0].Reason == "" {
		t.Errorf("after the run: skipped %+v", got)
	}
	write(t, vault, "bin2.md", "a\x00b")
	if _, err := e.Refresh(bg, "v", []string{"bin2.md"}); err != nil {
		t.Fatal(err)
	}
	if got := skipped(); len(got) != 2 {
		t.Errorf("after a refresh skipping another: %+v", got)
	}
	write(t, vault, "bin.md", "# Bin\n\nText now.\n")
	if _, err := e.Refresh(bg, "v", []string{"bin.md"}); err != nil {
		t.Fatal(err)
	}
	if got := skipped(); len(got) != 1 || got[0].Path != "bin2.md" {
		t.Errorf("after the refresh that reads it: %+v", got)
	}
	write(t, vault, "bin2.md", "# Bin 2\n")
	index(t, e, vault, "v")
	if got := skipped(); len(got) != 0 {
		t.Errorf("after a run that skips nothing: %+v", got)
	}
	write(t, vault, "bin.md", "x\x00y")
	index(t, e, vault, "v")
	if _, err := e.Drop(bg, "v"); err != nil {
		t.Fatal(err)
	}
	if kept, err := e.st.Meta(bg, skippedKey("v")); err != nil || kept != "" {
		t.Errorf("after the drop: %q, %v", kept, err)
	}
	index(t, e, vault, "v")
	if got := skipped(); len(got) != 1 {
		t.Errorf("indexed again after a drop: %+v", got)
	}
}
