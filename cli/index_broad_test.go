package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// Indexing the home folder says, the first time, that every note under it
// is read; a notes folder, and a second run over the home folder, do not.
func TestIndexHomeWarns(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	write(t, filepath.Join(home, "notes", "a.md"), "# A\ntext\n")
	index := filepath.Join(t.TempDir(), "i.db")
	const warning = "is your home folder: every note under it is read"
	for i, c := range []struct {
		dir  string
		warn bool
	}{{filepath.Join(home, "notes"), false}, {home, true}, {home, false}} {
		code, _, stderr := run(t, index, "index", c.dir, "--embedder", "none")
		if code != 0 || strings.Contains(stderr, warning) != c.warn {
			t.Errorf("run %d, index %s: exit %d, stderr %q; want the warning: %v", i, c.dir, code, stderr, c.warn)
		}
	}
}
