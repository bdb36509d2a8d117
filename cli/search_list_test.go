package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchLists: search with a tag, folder or property and no words
// lists the notes, unscored, the notice counting them; with none of them
// it asks for a query.
func TestSearchLists(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	run(t, index, "index", "../sample-vault")
	for _, args := range [][]string{{"--tag", "baking"}, {"tag:baking"}, {"--path-prefix", "kitchen/"}} {
		code, out, errOut := run(t, index, append([]string{"search", "--mode", "keyword"}, args...)...)
		if code != 0 || !strings.Contains(errOut, "listed by path") || !strings.HasPrefix(out, "1. **kitchen/") || strings.Contains(out, "%)") {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, errOut, out)
		}
	}
	if code, _, errOut := run(t, index, "search", "--collection", "sample-vault"); code != 2 || !strings.Contains(errOut, "or --tag, --where or --path-prefix alone to list") {
		t.Errorf("a collection alone: exit %d, %s", code, errOut)
	}
}
