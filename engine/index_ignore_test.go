package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// TestIndexIgnoreFileUnusable: an ignore file that is there but cannot be
// read as patterns stops an index run of its collection (a whole one, one
// of IndexAll, a watcher's Refresh) with an error naming it, before
// anything changes: no note it may exclude is added, none is deleted or
// changed. The other collections of IndexAll are indexed. Once usable, the
// next run catches up.
func TestIndexIgnoreFileUnusable(t *testing.T) {
	cases := []struct {
		name   string
		ignore string           // the ignore file, vault-relative
		spoil  func(abs string) // makes it unusable
		want   string
	}{
		{name: "unreadable", ignore: ".mdsearchignore", want: "cannot read: permission denied",
			spoil: func(abs string) { t.Cleanup(fsfault.DenyRead(abs)) }},
		{name: "unreadable nested", ignore: "sub/.mdsearchignore", want: "cannot read: permission denied",
			spoil: func(abs string) { t.Cleanup(fsfault.DenyRead(abs)) }},
		{name: "not UTF-8", ignore: "sub/.mdsearchignore", want: "line 2 is not UTF-8",
			spoil: func(abs string) { os.WriteFile(abs, []byte("secret/\n\xe9t\xe9/\n"), 0o644) }},
		{name: "folder", ignore: ".mdsearchignore", want: "is a folder",
			spoil: func(abs string) { os.Remove(abs); os.Mkdir(abs, 0o755) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			write(t, dir, "a.md", "# A\n\nalpha\n")
			write(t, dir, "gone.md", "# Gone\n\ngamma\n")
			write(t, dir, c.ignore, "secret/\n")
			write(t, other, "o.md", "# O\n\nomega\n")
			e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
			index(t, e, dir, "v")
			index(t, e, other, "w")
			abs := filepath.Join(mustEval(t, dir), filepath.FromSlash(c.ignore))
			c.spoil(abs)
			prefix := strings.TrimSuffix(c.ignore, ".mdsearchignore")
			write(t, dir, prefix+"secret/s.md", "# S\n\nplutonium\n")
			write(t, dir, "a.md", "# A\n\nedited\n")
			os.Remove(filepath.Join(dir, "gone.md"))
			write(t, other, "o.md", "# O\n\nedited too\n")

			check := func(what string, err error) {
				t.Helper()
				if err == nil || !strings.Contains(err.Error(), abs) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: %v; want an error naming %s and saying %q", what, err, abs, c.want)
				}
			}
			st, err := e.Index(bg, mdsearch.IndexRequest{Dir: dir, Name: "v"}, nil)
			check("index", err)
			if st != nil {
				t.Errorf("index: stats %+v; want none, as no run began", st)
			}
			_, err = e.Refresh(bg, "v", []string{prefix + "secret/s.md", "a.md", "gone.md"})
			check("refresh", err)
			all, err := e.IndexAll(bg, false, nil)
			check("index all", err)
			if len(all) != 1 || all[0].Collection != "w" || all[0].Changed != 1 {
				t.Errorf("index all: %+v; want collection w indexed", all)
			}
			for word, want := range map[string]int{"plutonium": 0, "edited": 0, "alpha": 1, "gamma": 1} {
				resp := search(t, e, mdsearch.SearchRequest{Query: word, Mode: mdsearch.ModeKeyword, Collection: "v"})
				if len(resp.Results) != want {
					t.Errorf("%q found in %d notes of v, want %d: the index of v changed", word, len(resp.Results), want)
				}
			}
		})
	}
}

func mustEval(t *testing.T, dir string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}
