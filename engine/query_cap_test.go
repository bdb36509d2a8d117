package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestPerNoteCapHolds: no search returns more than max_per_page results of
// one note, even where one section is cut into passages that dedup joins
// and results cuts apart again; and the places a cut-off passage gives up
// go to other notes, so n results still come back.
func TestPerNoteCapHolds(t *testing.T) {
	vault := t.TempDir()
	const notes = 4
	// Herd is over two passages' reading budget (chunks.DefaultPassageWords,
	// 300 words): it is cut into three, which a result joins. Each other
	// section is a passage of its own (over chunks.DefaultStubWords).
	para := func(s string) string { return strings.Repeat(s+" ", 24) }
	for i := range notes {
		write(t, vault, fmt.Sprintf("zoo%d.md", i), fmt.Sprintf("# Zoo %d\n\n## Herd\n\n"+
			para("The zebra herd %d grazes by the gate.")+"\n\n"+
			para("Zebra foals sleep in the barn at night.")+"\n\n"+
			para("The zebra stallion guards them all day.")+"\n\n## Feeding\n\n"+strings.Repeat("Hay for the zebra twice a day. ", 9)+
			"\n\n## Water\n\n"+strings.Repeat("The zebra trough is filled at dawn. ", 9)+
			"\n\n## Shelter\n\n"+strings.Repeat("A roof keeps the zebra dry in rain. ", 9)+"\n", i, i))
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
					if i > 0 && r.Score > resp.Results[i-1].Score {
						t.Errorf("%s n=%d per=%d: out of order at %d\n%s", mode, n, per, i, describe(resp))
					}
				}
			}
		}
	}
}
