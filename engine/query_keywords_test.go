package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestScoresWhateverN: a passage scores the same however many results a
// search asks for. The vault has more passages holding both words than
// a search of a few results once read of the keyword list, and fewer than
// one of five read: the keyword list then depended on n, and so did the
// candidates the second stage scores each against the others.
func TestScoresWhateverN(t *testing.T) {
	vault := t.TempDir()
	for i := range 130 {
		write(t, vault, fmt.Sprintf("both/n%03d.md", i), fmt.Sprintf("# Note %d\n\nThe harbour ferry timetable %d lists %s.\n", i, i, strings.Repeat("crossings and sailings of the day ", 8+i%7)))
	}
	for i := range 60 {
		write(t, vault, fmt.Sprintf("one/m%02d.md", i), fmt.Sprintf("# Other %d\n\n%s\n", i, strings.Repeat("ferry ", 6+i%5)))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		list := func(n int) []string {
			var out []string
			for _, r := range search(t, e, mdsearch.SearchRequest{Query: "ferry timetable", Mode: mode, N: n}).Results {
				out = append(out, fmt.Sprintf("%s#%d %.4f", r.Path, r.ChunkIndex, r.Score))
			}
			return out
		}
		long := list(20)
		for _, n := range []int{1, 2, 3, 5, 10} {
			if got := list(n); !slices.Equal(got, long[:min(n, len(long))]) {
				t.Errorf("%s, n=%d: %v, not the start of n=20's %v", mode, n, got, long)
			}
		}
	}
}
