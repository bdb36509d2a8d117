package search

import (
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A note of properties alone is found by its title, its aliases and its
// tags, and its result counts the words it shows.
func TestPropertiesNoteFound(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Jane Doe.md", "---\nAliases: [Hedgehog Person]\ntags: [person]\n---\n")
	write(t, vault, "other.md", "# Other\n\nNothing to see.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, req := range []mdsearch.SearchRequest{{Query: "Jane Doe"}, {Query: "hedgehog"}, {Query: "person", Tag: "person"}} {
		resp := search(t, e, req)
		if len(resp.Results) == 0 || resp.Results[0].Path != "Jane Doe.md" || resp.Results[0].PageWordCount != 5 {
			t.Errorf("%+v: %s", req, paths(resp))
		}
	}
}
