package engine

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// TestDeepNestingIsSkipped: a note nested far deeper than any real note
// (here 1,200 list levels, which goldmark takes seconds to parse, and
// minutes at 3,000) is skipped with its reason instead of stalling the run,
// and reading it says why it cannot be read.
func TestDeepNestingIsSkipped(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "ok.md", "# Fine\n\nA normal note about sourdough.\n")
	var b strings.Builder
	for i := range 1200 {
		b.WriteString(strings.Repeat("  ", i) + "- level\n")
	}
	write(t, vault, "deep.md", b.String())
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	start := time.Now()
	st := index(t, e, vault, "v")
	took := time.Since(start)
	if st.Added != 1 || len(st.Skipped) != 1 || st.Skipped[0].Path != "deep.md" || !strings.Contains(st.Skipped[0].Reason, "levels deep") {
		t.Errorf("stats: %+v", st)
	}
	if took > time.Second {
		t.Errorf("indexing took %v", took)
	}
	_, err := e.Read(bg, mdsearch.ReadRequest{Path: "deep.md"})
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "levels deep") || !strings.Contains(err.Error(), "deep.md") {
		t.Errorf("read: %v", err)
	}
}
