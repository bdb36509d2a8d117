package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// byMode makes fileWritable and dirWritable read the owner's write bit, as
// they do for a user other than root, for the test's length.
func byMode(t *testing.T) {
	t.Helper()
	files, dirs := fileWritable, dirWritable
	t.Cleanup(func() { fileWritable, dirWritable = files, dirs })
	ownerWrites := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.Mode().Perm()&0o200 != 0
	}
	fileWritable, dirWritable = ownerWrites, ownerWrites
}

// chmod sets the modes of path and of its -wal and -shm files; 0 removes
// the file.
func chmod(t *testing.T, path string, modes [3]os.FileMode) {
	t.Helper()
	for i, p := range []string{path, path + "-wal", path + "-shm"} {
		if modes[i] == 0 {
			os.Remove(p)
			continue
		}
		if _, err := os.Stat(p); err != nil {
			if err := os.WriteFile(p, nil, modes[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(p, modes[i]); err != nil {
			t.Fatal(err)
		}
	}
}

// The hint of a refused write names what cannot be written now: the
// index, its -wal and -shm files, the folder SQLite must make them in;
// when all can be, that the index was opened before, not to fix them.
func TestReadOnlyHint(t *testing.T) {
	byMode(t)
	cases := []struct {
		name      string
		modes     [3]os.FileMode // index, -wal, -shm
		folder    os.FileMode
		want, not []string
	}{
		{"index", [3]os.FileMode{0o444, 0o644, 0o644}, 0o755, []string{"index.db writable (its mode is -r--r--r--)"}, []string{"-wal", "folder"}},
		{"all three", [3]os.FileMode{0o444, 0o444, 0o444}, 0o755,
			[]string{"index.db, index.db-wal and index.db-shm writable (their mode is -r--r--r--)"}, []string{"folder"}},
		{"modes differ", [3]os.FileMode{0o644, 0o444, 0o400}, 0o755,
			[]string{"index.db-wal (mode -r--r--r--) and index.db-shm (mode -r--------) writable"}, []string{"index.db ("}},
		{"folder", [3]os.FileMode{0o644, 0, 0}, 0o555, []string{"the folder", "is read-only"}, []string{"make /"}},
		{"index and folder", [3]os.FileMode{0o444, 0, 0}, 0o555, []string{"index.db writable", "and the folder"}, nil},
		{"folder, files there", [3]os.FileMode{0o644, 0o644, 0o644}, 0o555, []string{"can be written now"}, []string{"folder"}},
		{"writable now", [3]os.FileMode{0o644, 0o644, 0o644}, 0o755, []string{"can be written now", "run the command again"}, []string{"make", "--index"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "index.db")
			chmod(t, path, c.modes)
			os.Chmod(dir, c.folder)
			defer os.Chmod(dir, 0o755)
			got := readOnlyHint(path)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("%q names %q", got, n)
				}
			}
		})
	}
}

// Writable says whether opening the index again would write: the -wal
// and -shm files SQLite made read-only after a read-only index get the
// write permission the index has now, and nothing else changes.
func TestWritable(t *testing.T) {
	byMode(t)
	cases := []struct {
		name  string
		modes [3]os.FileMode
		want  bool
		after [3]os.FileMode
	}{
		{"index read-only", [3]os.FileMode{0o444, 0o444, 0o444}, false, [3]os.FileMode{0o444, 0o444, 0o444}},
		{"index made writable", [3]os.FileMode{0o644, 0o444, 0o444}, true, [3]os.FileMode{0o644, 0o644, 0o644}},
		{"group's write too", [3]os.FileMode{0o664, 0o444, 0o640}, true, [3]os.FileMode{0o664, 0o664, 0o660}},
		{"writable", [3]os.FileMode{0o600, 0o644, 0o644}, true, [3]os.FileMode{0o600, 0o644, 0o644}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			ourIndex()(t, path)
			s, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			chmod(t, path, c.modes)
			if got := s.Writable(); got != c.want {
				t.Errorf("Writable %v, want %v", got, c.want)
			}
			for i, p := range []string{path, path + "-wal", path + "-shm"} {
				if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != c.after[i] {
					t.Errorf("%s: %v, %v; want %v", filepath.Base(p), fi.Mode().Perm(), err, c.after[i])
				}
			}
		})
	}
}

// Reopen gives a store on the same file, which reads and writes, and
// closes the one it replaces; a replaced file is not reopened.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	ourIndex()(t, path)
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.Reopen()
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if _, err := s.Collections(ctx); err == nil {
		t.Error("the store replaced still reads")
	}
	if colls, err := n.Collections(ctx); err != nil || len(colls) != 1 {
		t.Errorf("collections: %v, %v", colls, err)
	}
	if err := n.SetMeta(ctx, "x", "y"); err != nil {
		t.Errorf("write: %v", err)
	}
	other := filepath.Join(t.TempDir(), "other.db")
	ourIndex()(t, other)
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Reopen(); err == nil {
		t.Error("a replaced index was reopened")
	}
}
