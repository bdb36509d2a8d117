package search

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A tag no note has is named, with the tags notes do have; a tag in use,
// nested ones included, is not.
func TestUnknownTagNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "---\ntags: [work, area/home]\n---\n# A\n\nzebra\n")
	write(t, vault, "b.md", "# B\n\nzebra #work\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Tag: "Wrok", Tags: []string{"area"}})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, `no note has the tag "Wrok"; the tags most notes have: work (2), area/home (1)`) {
		t.Errorf("notice %q", resp.Notice)
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: "giraffe", Tag: "area"})
	if strings.Contains(resp.Notice, "no note has the tag") {
		t.Errorf("a nested tag's parent named unknown: %q", resp.Notice)
	}
}
