package search

import (
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestSharedPathResults: a result whose path another collection holds too
// names its note as COLLECTION:PATH (ReadPath), which reads it where the
// path alone is refused as ambiguous; a path one collection holds, or any
// path of an index of one collection, needs none.
func TestSharedPathResults(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, copyDir(t, sampleVault), "home")
	query := mdsearch.SearchRequest{Query: "restore drill", Mode: mdsearch.ModeKeyword, N: 10}
	for _, r := range search(t, e, query).Results {
		if r.ReadPath != "" {
			t.Errorf("one collection: %s has read path %q", r.Path, r.ReadPath)
		}
	}
	work := t.TempDir()
	write(t, work, "homelab/Backups.md", "# Backups\n\nThe work laptop has a restore drill every month.\n")
	write(t, work, "Drills.md", "# Drills\n\nA restore drill checklist.\n")
	index(t, e, work, "work")
	for _, coll := range []string{"", "home", "work"} {
		query.Collection = coll
		resp := search(t, e, query)
		seen := map[string]bool{}
		for _, r := range resp.Results {
			want := ""
			if r.Path == "homelab/Backups.md" {
				want = r.Collection + ":" + r.Path
			}
			if r.ReadPath != want {
				t.Errorf("collection %q: %s of %s has read path %q, want %q", coll, r.Path, r.Collection, r.ReadPath, want)
			}
			if r.ReadPath == "" {
				continue
			}
			seen[r.Collection] = true
			if got, err := e.Read(bg, mdsearch.ReadRequest{Path: r.ReadPath}); err != nil || got.Collection != r.Collection {
				t.Errorf("read %s: %+v, %v", r.ReadPath, got, err)
			}
			if _, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path}); mdsearch.KindOf(err) != mdsearch.KindInvalid {
				t.Errorf("read %s alone: %v, want it refused as ambiguous", r.Path, err)
			}
		}
		if (coll == "" && len(seen) != 2) || (coll != "" && !seen[coll]) {
			t.Errorf("collection %q: shared path found in %v", coll, seen)
		}
	}
}
