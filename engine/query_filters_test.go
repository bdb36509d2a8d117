package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestFilters(t *testing.T) {
	a, b := copyDir(t, sampleVault), copyDir(t, sampleVault)
	write(t, b, "kitchen/Extra.md", "---\ntags: [baking/bread]\n---\n# Extra\n\nMore about the sourdough starter.\n")
	write(t, b, "kitchen-old/Old.md", "# Old\n\nAn old sourdough starter.\n")
	link := filepath.Join(t.TempDir(), "link") // a way to b's folder that its stored root does not spell
	if err := os.Symlink(b, link); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, a, "a")
	index(t, e, b, "b")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic, mdsearch.ModeHybrid} {
		check := func(req mdsearch.SearchRequest, ok func(mdsearch.Result) bool, what string) {
			req.Mode, req.N = mode, 50
			resp := search(t, e, req)
			if len(resp.Results) == 0 {
				t.Errorf("%s %s: no results", mode, what)
			}
			for _, r := range resp.Results {
				if !ok(r) {
					t.Errorf("%s %s: unexpected %s:%s", mode, what, r.Collection, r.Path)
				}
			}
		}
		check(mdsearch.SearchRequest{Query: "starter", Collection: "b"}, func(r mdsearch.Result) bool { return r.Collection == "b" }, "collection")
		check(mdsearch.SearchRequest{Query: "starter", PathPrefix: "./kitchen/"}, func(r mdsearch.Result) bool { return strings.HasPrefix(r.Path, "kitchen/") }, "path prefix")
		check(mdsearch.SearchRequest{Query: "starter", PathPrefix: "b:kitchen/"}, func(r mdsearch.Result) bool {
			return r.Collection == "b" && strings.HasPrefix(r.Path, "kitchen/")
		}, "collection:path prefix, as shared paths are shown")
		check(mdsearch.SearchRequest{Query: "starter", PathPrefix: filepath.Join(b, "kitchen") + "/"}, func(r mdsearch.Result) bool {
			return r.Collection == "b" && strings.HasPrefix(r.Path, "kitchen/")
		}, "a full path as a shell completes it")
		check(mdsearch.SearchRequest{Query: "starter", PathPrefix: a}, func(r mdsearch.Result) bool { return r.Collection == "a" }, "a collection's folder")
		check(mdsearch.SearchRequest{Query: "starter", PathPrefix: link + "/kitch"}, func(r mdsearch.Result) bool {
			return r.Collection == "b" && strings.HasPrefix(r.Path, "kitchen")
		}, "a full path through a symlink, ending in part of a name")
		check(mdsearch.SearchRequest{Query: "starter", Collection: "b", PathPrefix: filepath.Join(b, "kitchen") + "/"}, func(r mdsearch.Result) bool {
			return r.Collection == "b" && strings.HasPrefix(r.Path, "kitchen/")
		}, "a collection and a full path in its folder")
		check(mdsearch.SearchRequest{Query: "starter", Tag: "#Baking"}, func(r mdsearch.Result) bool { return strings.HasPrefix(r.Path, "kitchen/") }, "tag")
		check(mdsearch.SearchRequest{Query: "starter", Tag: "baking/bread"}, func(r mdsearch.Result) bool { return r.Path == "kitchen/Extra.md" }, "nested tag")
		check(mdsearch.SearchRequest{Query: "starter restic backups", Exclude: []string{"./kitchen/Sourdough.md", "kitchen/Extra.md"}},
			func(r mdsearch.Result) bool { return r.Path != "kitchen/Sourdough.md" && r.Path != "kitchen/Extra.md" }, "exclude")
	}
	_, err := e.Search(bg, mdsearch.SearchRequest{Query: "starter", Collection: "a", PathPrefix: filepath.Join(b, "kitchen")})
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "inside collection b's folder, not a's") {
		t.Errorf("a full path in another collection's folder: %v", err)
	}
	_, err = e.Search(bg, mdsearch.SearchRequest{Query: "starter", Collection: "nope", PathPrefix: filepath.Join(b, "kitchen")})
	if mdsearch.KindOf(err) != mdsearch.KindNotFound || !strings.Contains(err.Error(), "no such collection") {
		t.Errorf("an unknown collection and a full path: %v", err)
	}
	_, err = e.Search(bg, mdsearch.SearchRequest{Query: "starter", Exclude: []string{" "}})
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "exclude") {
		t.Errorf("an empty excluded path: %v", err)
	}
	many := make([]string, mdsearch.MaxExclude+1)
	for i := range many {
		many[i] = fmt.Sprintf("n%d.md", i)
	}
	_, err = e.Search(bg, mdsearch.SearchRequest{Query: "starter", Exclude: many})
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "exclude names 101 notes") {
		t.Errorf("too many excluded notes: %v", err)
	}
}
