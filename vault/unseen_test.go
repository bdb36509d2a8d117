package vault

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// unreadable makes the walk meet the vault-relative dirs and files of
// root ("." the root itself) as a user without permission does, even when
// the test runs as root.
func unreadable(t *testing.T, root string, dirs, files []string) {
	t.Helper()
	var abs []string
	for _, rel := range append(slices.Clone(dirs), files...) {
		abs = append(abs, filepath.Join(mustReal(t, root), filepath.FromSlash(rel)))
	}
	t.Cleanup(fsfault.Deny(abs...))
}

// TestListUnseen: what the walk cannot look into (a folder it cannot list,
// a file it cannot stat) is named in Unseen as well as skipped: its notes
// may be there unchanged, so an index keeps them. A symlinked folder that
// dangles leads nowhere: it is neither.
func TestListUnseen(t *testing.T) {
	tree := map[string]string{"a.md": "a", "sub/s.md": "s", "sub/deep/d.md": "d", "other/o.md": "o",
		"x.md": "x", "gone": "->nowhere", "gone.md": "->nowhere.md"}
	cases := []struct {
		name        string
		dirs, files []string
		files1      []string // listed
		unseen      []string
		skips       map[string]string
	}{
		{name: "readable", files1: []string{"a.md", "other/o.md", "sub/deep/d.md", "sub/s.md", "x.md"},
			skips: map[string]string{"gone.md": "broken symlink"}},
		{name: "folder", dirs: []string{"sub"}, files1: []string{"a.md", "other/o.md", "x.md"},
			unseen: []string{"sub/"}, skips: map[string]string{"sub/": "cannot read folder: permission denied", "gone.md": "broken symlink"}},
		{name: "nested folder", dirs: []string{"sub/deep"}, files1: []string{"a.md", "other/o.md", "sub/s.md", "x.md"},
			unseen: []string{"sub/deep/"}, skips: map[string]string{"sub/deep/": "cannot read folder: permission denied", "gone.md": "broken symlink"}},
		{name: "file", files: []string{"x.md"}, files1: []string{"a.md", "other/o.md", "sub/deep/d.md", "sub/s.md"},
			unseen: []string{"x.md"}, skips: map[string]string{"x.md": "cannot stat: permission denied", "gone.md": "broken symlink"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			build(t, root, tree)
			unreadable(t, root, c.dirs, c.files)
			v, err := Open(root, Options{})
			must(t, err)
			l, err := v.List(context.Background())
			must(t, err)
			var got []string
			for _, f := range l.Files {
				got = append(got, f.Path)
			}
			if !slices.Equal(got, c.files1) || !slices.Equal(l.Unseen, c.unseen) {
				t.Errorf("files %q, unseen %q; want %q, %q", got, l.Unseen, c.files1, c.unseen)
			}
			skips := map[string]string{}
			for _, s := range l.Skipped {
				skips[s.Path] = s.Reason
			}
			for p, frag := range c.skips {
				if !strings.Contains(skips[p], frag) {
					t.Errorf("skip %s: %q, want it to mention %q", p, skips[p], frag)
				}
			}
			if len(skips) != len(c.skips) {
				t.Errorf("skips %v, want %d", skips, len(c.skips))
			}
		})
	}
}

// TestListUnsearchable: a folder that can be listed but not searched
// (read permission without execute) is skipped as unseen, as one that
// cannot be listed: its ignore file is not to blame, and the walk goes on.
func TestListUnsearchable(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{"a.md": "a", "sub/s.md": "s"})
	undo := fsfault.Deny(filepath.Join(mustReal(t, root), "sub"))
	t.Cleanup(undo)
	fsfault.ReadDir = os.ReadDir // listed; nothing in it opens or stats
	v, err := Open(root, Options{})
	must(t, err)
	l, err := v.List(context.Background())
	must(t, err)
	if len(l.Files) != 1 || l.Files[0].Path != "a.md" || !slices.Equal(l.Unseen, []string{"sub/"}) ||
		len(l.Skipped) != 1 || l.Skipped[0].Reason != "cannot read folder: permission denied" {
		t.Errorf("files %+v, unseen %q, skipped %+v", l.Files, l.Unseen, l.Skipped)
	}
}

// TestListUnreadableRoot: a vault whose own folder cannot be listed is an
// error naming it, never an empty vault (whose notes an index would drop).
func TestListUnreadableRoot(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{"a.md": "a"})
	unreadable(t, root, []string{"."}, nil)
	v, err := Open(root, Options{})
	must(t, err)
	l, err := v.List(context.Background())
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), mustReal(t, root)) ||
		!strings.Contains(err.Error(), "cannot read folder: permission denied") {
		t.Errorf("list of an unreadable vault: %+v, %v; want an error naming it and the problem", l, err)
	}
	if files, _, err := v.Walk(context.Background()); err == nil {
		t.Errorf("walk of an unreadable vault: %v, no error", files)
	}
}

// TestHolds: an unseen folder holds the notes below it, an unseen file
// itself only.
func TestHolds(t *testing.T) {
	for _, c := range []struct {
		unseen, rel string
		want        bool
	}{
		{"sub/", "sub/a.md", true},
		{"sub/", "sub/deep/a.md", true},
		{"sub/", "subway/a.md", false},
		{"sub/", "sub", false},
		{"x.md", "x.md", true},
		{"x.md", "x.md/y.md", false},
	} {
		if got := Holds(c.unseen, c.rel); got != c.want {
			t.Errorf("Holds(%q, %q) = %v, want %v", c.unseen, c.rel, got, c.want)
		}
	}
}

// TestListPathTooLong: a folder whose path leaves no room for a file name
// in it (its ignore file's path is over the system's limit) is skipped,
// saying so, not taken for an ignore file that cannot be read, which
// stops every run of the collection.
func TestListPathTooLong(t *testing.T) {
	root := mustReal(t, t.TempDir())
	build(t, root, map[string]string{"a.md": "a"})
	dir := root
	for len(dir)+101 < 4080 {
		dir = filepath.Join(dir, strings.Repeat("y", 100))
	}
	dir = filepath.Join(dir, strings.Repeat("z", 4085-len(dir)-1)) // room for itself, not for /.mdsearchignore
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skipf("cannot make a path of %d bytes here: %v", len(dir), err)
	}
	v, err := Open(root, Options{})
	must(t, err)
	l, err := v.List(context.Background())
	must(t, err)
	if len(l.Files) != 1 || len(l.Skipped) != 1 || !strings.HasSuffix(l.Skipped[0].Reason, "file name too long") {
		t.Errorf("files %+v, skipped %+v", l.Files, l.Skipped)
	}
}
