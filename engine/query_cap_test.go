package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestPerNoteCapHolds: no search returns more than max_per_page results of
// one note, even where whole-line comments cut one section into passages
// that dedup joins and results cuts apart again; and the places a cut-off
// passage gives up go to other notes, so n results still come back.
func TestPerNoteCapHolds(t *testing.T) {
	vault := t.TempDir()
	const notes = 4
	for i := range notes {
		// One section of three passages, each on its side of a comment,
		// and another section of its own.
		write(t, vault, fmt.Sprintf("zoo%d.md", i), fmt.Sprintf("# Zoo %d\n\n## Herd\n\n"+
			"The zebra herd %d grazes by the gate.\n\n%%%% keeper's note %%%%\n\n"+
			"Zebra foals sleep in the barn.\n\n%%%% another %%%%\n\n"+
			"The zebra stallion guards them.\n\n## Feeding\n\nHay for the zebra twice a day.\n", i, i))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		for _, per := range []int{1, 2, 3} {
			for _, n := range []int{1, 2, 3, 5, 8, 12} {
				resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Mode: mode, N: n, MaxPerPage: per})
				if want := min(n, notes*per); len(resp.Results) != want {
					t.Errorf("%s n=%d per=%d: %d results, want %d\n%s", mode, n, per, len(resp.Results), want, describe(resp))
				}
				count := map[string]int{}
				for i, r := range resp.Results {
					if count[r.Path]++; count[r.Path] > per {
						t.Errorf("%s n=%d per=%d: %d results of %s\n%s", mode, n, per, count[r.Path], r.Path, describe(resp))
					}
					if strings.Contains(r.Text, "%%") {
						t.Errorf("%s n=%d per=%d: a result spans a comment: %q", mode, n, per, r.Text)
					}
					if i > 0 && r.Score > resp.Results[i-1].Score {
						t.Errorf("%s n=%d per=%d: out of order at %d\n%s", mode, n, per, i, describe(resp))
					}
				}
			}
		}
	}
}
