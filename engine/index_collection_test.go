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

// A search's collection is taken in another case where one collection
// alone has the name so; where two do, only the exact name is.
func TestSearchedCollectionCase(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	var vueDir string
	for _, name := range []string{"vue", "Notes", "NOTES"} {
		dir := t.TempDir()
		if name == "vue" {
			vueDir = dir
		}
		write(t, dir, name+".md", "# "+name+"\n\nwatchers run a callback.\n")
		index(t, e, dir, name)
	}
	for _, tc := range []struct{ asked, want string }{
		{"vue", "vue.md"}, {"Vue", "vue.md"}, {"VUE", "vue.md"}, {"Notes", "Notes.md"}, {"NOTES", "NOTES.md"}, {"notes", ""}, {"rust", ""},
	} {
		resp, err := e.Search(bg, mdsearch.SearchRequest{Query: "watchers", N: 5, Mode: mdsearch.ModeKeyword, Collection: tc.asked})
		var me *mdsearch.Error
		switch {
		case tc.asked == "notes" && (!errors.As(err, &me) || !strings.Contains(me.Hint, "NOTES or Notes") && !strings.Contains(me.Hint, "Notes or NOTES")):
			t.Errorf("%q: %v, want both names in the hint", tc.asked, err)
		case tc.want == "" && tc.asked != "notes" && (err == nil || !strings.Contains(err.Error(), "no such collection")):
			t.Errorf("%q: %v, want no such collection", tc.asked, err)
		case tc.want != "" && (err != nil || len(resp.Results) != 1 || resp.Results[0].Path != tc.want):
			t.Errorf("%q: %v %v, want %s alone", tc.asked, resp, err, tc.want)
		}
		// An absolute path prefix inside the collection's folder, and a
		// COLLECTION:PREFIX, take the name in another case too.
		if tc.want == "vue.md" {
			for _, req := range []mdsearch.SearchRequest{{Collection: tc.asked, PathPrefix: vueDir}, {PathPrefix: tc.asked + ":"}} {
				req.Query, req.N, req.Mode = "watchers", 5, mdsearch.ModeKeyword
				if resp, err := e.Search(bg, req); err != nil || len(resp.Results) != 1 || resp.Results[0].Path != "vue.md" {
					t.Errorf("%q, prefix %q: %v %v", tc.asked, req.PathPrefix, resp, err)
				}
			}
		}
	}
}
