package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestDropCopiesPrefersLive: of a passage found in two collections, a
// live copy takes a stale one's place; the order and the count of copies
// left out are as they were.
func TestDropCopiesPrefersLive(t *testing.T) {
	res := func(coll, path, text string) mdsearch.Result {
		return mdsearch.Result{Collection: coll, Path: path, Text: text}
	}
	for _, tc := range []struct {
		name   string
		rs     []mdsearch.Result
		stale  []string // collections whose copies are stale
		want   int
		kept   []string // collection:path, in order
		copies int
	}{
		{"stale first", []mdsearch.Result{res("a", "x.md", "x"), res("b", "x.md", "x"), res("a", "y.md", "y"), res("b", "y.md", "y")},
			[]string{"a"}, 5, []string{"b:x.md", "b:y.md"}, 2},
		{"live first", []mdsearch.Result{res("a", "x.md", "x"), res("b", "x.md", "x")}, []string{"b"}, 5, []string{"a:x.md"}, 1},
		{"both stale", []mdsearch.Result{res("a", "x.md", "x"), res("b", "x.md", "x")}, []string{"a", "b"}, 5, []string{"a:x.md"}, 1},
		{"between others", []mdsearch.Result{res("a", "x.md", "x"), res("c", "z.md", "z"), res("b", "w/x.md", "x"), res("c", "v.md", "v")},
			[]string{"a"}, 5, []string{"b:w/x.md", "c:z.md", "c:v.md"}, 1},
		// A copy after the last result kept still replaces a stale one,
		// uncounted, as it was left out uncounted before.
		{"after the last kept", []mdsearch.Result{res("a", "x.md", "x"), res("b", "x.md", "x")}, []string{"a"}, 1, []string{"b:x.md"}, 0},
		{"same collection", []mdsearch.Result{res("a", "x.md", "x"), res("a", "y.md", "x")}, []string{"a"}, 5, []string{"a:x.md", "a:y.md"}, 0},
		// A passage a note and its sync conflict copies share is shown
		// once: from the original where it scores as high (scores here
		// are all 0), else from the copy ranked first.
		{"conflict copy after", []mdsearch.Result{res("a", "d/x.md", "x"), res("a", "d/x.sync-conflict-20240102-150405-ABCDEF1.md", "x"), res("a", "y.md", "y")},
			nil, 5, []string{"a:d/x.md", "a:y.md"}, 1},
		{"conflict copy first", []mdsearch.Result{res("a", "x (conflicted copy 2024-01-02).md", "x"), res("a", "y.md", "y"), res("a", "x.md", "x")},
			nil, 5, []string{"a:x.md", "a:y.md"}, 1},
		{"two conflict copies", []mdsearch.Result{res("a", "x.sync-conflict-20240102-150405-ABCDEF1.md", "x"), res("a", "x.sync-conflict-20240105-090000-QRSTUV2.md", "x"), res("a", "x.md", "x")},
			nil, 5, []string{"a:x.md"}, 2},
		{"a template's text, then a conflict copy", []mdsearch.Result{res("a", "x.md", "t"), res("a", "y.md", "t"), res("a", "x (conflicted copy 2024-01-02).md", "t")},
			nil, 5, []string{"a:x.md", "a:y.md"}, 1},
		{"conflict copy's own text", []mdsearch.Result{res("a", "x.md", "x"), res("a", "x (conflicted copy 2024-01-02).md", "x2")},
			nil, 5, []string{"a:x.md", "a:x (conflicted copy 2024-01-02).md"}, 0},
		{"another note's conflict copy", []mdsearch.Result{res("a", "x.md", "x"), res("a", "y (conflicted copy 2024-01-02).md", "x")},
			nil, 5, []string{"a:x.md", "a:y (conflicted copy 2024-01-02).md"}, 0},
	} {
		stale := func(r mdsearch.Result) bool { return slices.Contains(tc.stale, r.Collection) }
		got, left := dropCopies(slices.Clone(tc.rs), tc.want, stale)
		copies := left.n()
		var kept []string
		for _, r := range got {
			kept = append(kept, r.Collection+":"+r.Path)
		}
		if !slices.Equal(kept, tc.kept) || copies != tc.copies {
			t.Errorf("%s: kept %v, %d copies; want %v, %d", tc.name, kept, copies, tc.kept, tc.copies)
		}
	}
}

// TestCopyOfGoneFolder: a folder indexed twice whose first copy is gone
// (or edited) shows the live copy of each passage, in the order and
// number it showed before.
func TestCopyOfGoneFolder(t *testing.T) {
	g1, g2 := copyDir(t, sampleVault), copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, g1, "g1")
	index(t, e, g2, "g2")
	const q = "restore drill"
	before := map[int]*mdsearch.SearchResponse{}
	for _, n := range []int{1, 3, 5} {
		before[n] = search(t, e, mdsearch.SearchRequest{Query: q, N: n})
	}
	write(t, g1, "homelab/Backups.md", "# Backups\n\nEdited where nothing watched.\n")
	for _, gone := range []bool{false, true} {
		if gone {
			if err := os.RemoveAll(g1); err != nil {
				t.Fatal(err)
			}
		}
		for _, n := range []int{1, 3, 5} {
			resp := search(t, e, mdsearch.SearchRequest{Query: q, N: n})
			if len(resp.Results) != len(before[n].Results) || resp.Notice != before[n].Notice {
				t.Fatalf("gone=%v n=%d: %d results (%q), before %d (%q)", gone, n, len(resp.Results), resp.Notice,
					len(before[n].Results), before[n].Notice)
			}
			for i, r := range resp.Results {
				b := before[n].Results[i]
				if r.Path != b.Path || r.ChunkIndex != b.ChunkIndex || r.Text != b.Text {
					t.Errorf("gone=%v n=%d: result %d is %s#%d, before %s#%d", gone, n, i, r.Path, r.ChunkIndex, b.Path, b.ChunkIndex)
				}
				if live := gone || r.Path == "homelab/Backups.md"; r.Stale || live && r.Collection != "g2" {
					t.Errorf("gone=%v n=%d: %s:%s stale=%v\n%s", gone, n, r.Collection, r.Path, r.Stale, describe(resp))
				}
				if _, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Collection + ":" + r.Path}); err != nil {
					t.Errorf("gone=%v n=%d: reading %s:%s: %v", gone, n, r.Collection, r.Path, err)
				}
			}
		}
	}
	if !strings.Contains(before[5].Notice, "another collection") {
		t.Errorf("no copies left out: %q", before[5].Notice)
	}
}

// TestConflictCopies: a note and its sync conflict copy show each passage
// they share once, from the original, and the passage the copy alone
// holds from the copy, with a notice that says why one was left out.
func TestConflictCopies(t *testing.T) {
	vault := t.TempDir()
	long := func(s string) string { return strings.Repeat(s+" ", 12) } // no stub: sections stay apart
	shared := "## Starter\n\n" + long("Feed the sourdough starter flour and water.") + "\n"
	write(t, vault, "Bread.md", "# Bread\n\n"+shared+"\n## Bake\n\n"+long("Bake the sourdough loaf at high heat.")+"\n")
	write(t, vault, "Bread.sync-conflict-20240102-150405-ABCDEF1.md", "# Bread\n\n"+shared+"\n## Bake\n\n"+long("Bake the sourdough loaf in a pot.")+"\n")
	write(t, vault, "Other.md", "# Other\n\n"+long("Nothing about bread here, only sourdough once.")+"\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "sourdough", N: 5, Mode: mdsearch.ModeKeyword})
	var got []string
	for _, r := range resp.Results {
		got = append(got, r.Path+" > "+r.Section)
	}
	for _, want := range []string{"Bread.md > Bread", "Bread.md > Bake", "Bread.sync-conflict-20240102-150405-ABCDEF1.md > Bake", "Other.md > Other"} {
		if !slices.Contains(got, want) {
			t.Errorf("results %q lack %q", got, want)
		}
	}
	if slices.Contains(got, "Bread.sync-conflict-20240102-150405-ABCDEF1.md > Bread") { // the title heading and Starter, merged
		t.Errorf("results %q show the shared passage twice", got)
	}
	if !strings.Contains(resp.Notice, "1 result left out: the same passage, found in a note and its sync conflict copy too") {
		t.Errorf("notice %q", resp.Notice)
	}
}

// TestConflictCopyKeepsOrder: an original that scores lower than its
// conflict copy (whose file name the query holds) does not take the
// copy's place, so the scores shown stay in order.
func TestConflictCopyKeepsOrder(t *testing.T) {
	rs := []mdsearch.Result{
		{Collection: "a", Path: "x.sync-conflict-20240102-150405-ABCDEF1.md", Text: "x", Score: 0.6},
		{Collection: "a", Path: "y.md", Text: "y", Score: 0.3},
		{Collection: "a", Path: "x.md", Text: "x", Score: 0.1},
	}
	got, left := dropCopies(slices.Clone(rs), 5, nil)
	if len(got) != 2 || got[0].Path != rs[0].Path || got[0].Score != 0.6 || left.conflicts() != 1 {
		t.Errorf("kept %+v, left %+v", got, left)
	}
}

// TestCopiesAmong: of the copies left out, a search that returns fewer
// results than it kept (a reranker's) counts those of the results it
// returns, whatever order they are in.
func TestCopiesAmong(t *testing.T) {
	rs := []mdsearch.Result{
		{Collection: "a", Path: "x.md", Text: "x"}, {Collection: "b", Path: "x.md", Text: "x"},
		{Collection: "a", Path: "y.md", Text: "y"}, {Collection: "a", Path: "y (conflicted copy 2024-01-02).md", Text: "y"},
		{Collection: "a", Path: "z.md", Text: "z"},
	}
	kept, left := dropCopies(slices.Clone(rs), 30, nil)
	if len(kept) != 3 || left.n() != 2 || left.conflicts() != 1 {
		t.Fatalf("kept %d, left %+v", len(kept), left)
	}
	for _, tc := range []struct {
		shown      []mdsearch.Result
		n, conflic int
	}{
		{[]mdsearch.Result{kept[2]}, 0, 0},
		{[]mdsearch.Result{kept[1]}, 1, 1},
		{[]mdsearch.Result{kept[2], kept[0]}, 1, 0},
		{kept, 2, 1},
	} {
		if got := left.among(tc.shown); got.n() != tc.n || got.conflicts() != tc.conflic {
			t.Errorf("among %v: %d copies, %d conflicts; want %d, %d", tc.shown, got.n(), got.conflicts(), tc.n, tc.conflic)
		}
	}
	if left.among(kept[2:]).notice() != "" {
		t.Error("a notice for copies of results not shown")
	}
}

// TestCopiedNoteKeepsScore: a note copied under another name ("Recipe
// 1.md", as a file manager copies it) is no close rival of its original:
// both score as the original scored alone, near enough (the copy's words
// are in twice as many passages), where a rival's tie took most of it.
func TestCopiedNoteKeepsScore(t *testing.T) {
	vault := t.TempDir()
	for i := range 30 {
		write(t, vault, fmt.Sprintf("Note %d.md", i), fmt.Sprintf("# Note %d\n\nA note about gardening, tomatoes and bicycles, number %d.\n", i, i))
	}
	write(t, vault, "Recipe.md", "# Recipe\n\nBake the sourdough loaf at 230C for forty minutes with steam.\n")
	score := func() []float64 {
		e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
		index(t, e, vault, "v")
		var out []float64
		for _, r := range search(t, e, mdsearch.SearchRequest{Query: "bake the sourdough loaf", N: 3, Mode: mdsearch.ModeKeyword}).Results {
			out = append(out, r.Score)
		}
		return out
	}
	alone := score()
	write(t, vault, "Recipe 1.md", "# Recipe\n\nBake the sourdough loaf at 230C for forty minutes with steam.\n")
	copied := score()
	if len(alone) == 0 || alone[0] < 0.5 || len(copied) < 2 || copied[1] != copied[0] || copied[0] < alone[0]-0.1 {
		t.Errorf("scores alone %v, with a copy %v: want the copy's the original's, near what it scored alone", alone, copied)
	}
}
