package engine

import (
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A prefix longer than the stem its words are held by ("validat*" of
// "validation", held as "valid") finds them, as one the stem's length
// does; a prefix of nothing finds nothing.
func TestPrefixPastStem(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "forms.md", "# Forms\n\nInput validation runs before the installation of handlers.\n")
	write(t, vault, "other.md", "# Other\n\nNothing here about that.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for q, want := range map[string]int{"validat*": 1, "valid*": 1, "installat*": 1, "VALIDATI*": 1, "validatio*": 1,
		"installatio*": 1, "handler*": 1, "handle*": 1, "zzzq*": 0, "val*": 1} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword})
		if len(resp.Results) != want || want == 1 && resp.Results[0].Path != "forms.md" {
			t.Errorf("%q: %s, want %d result", q, paths(resp), want)
		}
	}
}
