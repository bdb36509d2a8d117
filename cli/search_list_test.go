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
	// --offset pages the list; a search with words refuses it.
	code, out, errOut := run(t, index, "search", "--path-prefix", "kitchen/", "-n", "1", "--offset", "1")
	if code != 0 || !strings.Contains(errOut, "notes match path prefix \"kitchen/\": note 2 by path") || !strings.HasPrefix(out, "2. **kitchen/") {
		t.Errorf("--offset 1: exit %d\n%s\n%s", code, errOut, out)
	}
	if _, first, _ := run(t, index, "search", "--path-prefix", "kitchen/", "-n", "1"); first == out {
		t.Errorf("--offset 1 listed the first note again: %s", out)
	}
	if code, _, errOut := run(t, index, "search", "bread", "--offset", "1"); code != 2 || !strings.Contains(errOut, "offset pages a list of notes") {
		t.Errorf("--offset with words: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run(t, index, "search", "--collection", "sample-vault"); code != 2 || !strings.Contains(errOut, "or --tag, --where or --path-prefix alone to list") {
		t.Errorf("a collection alone: exit %d, %s", code, errOut)
	}
}
