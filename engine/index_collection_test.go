package engine

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A folder indexed under the name of a collection whose folder is still
// there is refused, and the hint names each way on: another name, the
// collection dropped first, or the collection re-indexed from its folder.
func TestNameOfAnotherFolder(t *testing.T) {
	a, b := copyDir(t, sampleVault), copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, a, "c")
	_, err := e.Index(bg, mdsearch.IndexRequest{Dir: b, Name: "c"}, nil)
	var me *mdsearch.Error
	if !errors.As(err, &me) || me.Kind != mdsearch.KindInvalid || !strings.Contains(me.Error(), `collection "c" already indexes `+a) {
		t.Fatalf("err %v", err)
	}
	for _, want := range []string{"pass another --name", "`mdsearch drop c`", "`mdsearch index \"" + a + "\"`"} {
		if !strings.Contains(me.Hint, want) {
			t.Errorf("hint %q lacks %q", me.Hint, want)
		}
	}
}
