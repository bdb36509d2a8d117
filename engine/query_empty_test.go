package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestSearchEmptyIndex: a search of an index that holds no notes answers
// in the mode asked, saying that nothing is indexed: no ranking fell back
// to keywords, as there was nothing to rank. An index whose notes lack
// vectors does fall back, and says why.
func TestSearchEmptyIndex(t *testing.T) {
	cases := []struct {
		name   string
		fill   func(t *testing.T, e *Engine)
		notice string
		mode   mdsearch.Mode // the mode answered; "" the one asked
	}{
		{name: "no collection", fill: func(*testing.T, *Engine) {},
			notice: "the index is empty: run `mdsearch index DIR` first"},
		{name: "a collection without notes", fill: func(t *testing.T, e *Engine) { index(t, e, t.TempDir(), "v") },
			notice: "nothing is indexed: the index's collections hold no notes"},
		{name: "notes without vectors", fill: func(t *testing.T, e *Engine) {
			dir := t.TempDir()
			write(t, dir, "a.md", "# A\n\nalpha\n")
			index(t, openEngine(t, e.st.Path(), nil), dir, "v")
		}, notice: "semantic search unavailable", mode: mdsearch.ModeKeyword},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			e := openEngine(t, path, newBow("bow"))
			c.fill(t, e)
			for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeSemantic, mdsearch.ModeKeyword} {
				resp := search(t, e, mdsearch.SearchRequest{Query: "alpha", Mode: mode})
				want := c.mode
				if want == "" || mode == mdsearch.ModeKeyword {
					want = mode
				}
				if resp.Mode != want || mode != mdsearch.ModeKeyword && !strings.Contains(resp.Notice, c.notice) {
					t.Errorf("%s: mode %s, notice %q; want mode %s, notice %q", mode, resp.Mode, resp.Notice, want, c.notice)
				}
			}
		})
	}
}
