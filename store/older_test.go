package store

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// ReadOlder reads an index an older mdsearch wrote, for status, without
// changing a byte or leaving a file beside it; an index of this version
// is not older, and any other file is refused as OpenReadOnly refuses it.
func TestReadOlder(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(*testing.T, string)
		version int   // 0: not older
		err     error // refused so
	}{
		{"version 1, before the mark", v1Index(), 1, nil},
		{"version 1, open elsewhere", heldOpen(v1Index()), 1, nil},
		{"version 0, marked", ourIndex(setVersion(0)), 0, nil},
		{"this version", ourIndex(), -1, nil},
		{"newer", ourIndex(setVersion(SchemaVersion + 1)), -1, ErrNewerIndex},
		{"foreign", foreignDB(`CREATE TABLE t (x)`), -1, ErrNotIndex},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "index.db")
			c.setup(t, path)
			before, _ := os.ReadFile(path)
			files := listDir(t, dir)
			o, err := ReadOlder(ctx, path)
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the file was changed")
			}
			if got := listDir(t, dir); !slices.Equal(got, files) {
				t.Errorf("files %v, were %v", got, files)
			}
			switch {
			case c.err != nil || c.version < 0:
				if o != nil || !errors.Is(err, c.err) { // errors.Is(nil, nil) holds
					t.Fatalf("got %+v, %v; want nothing, %v", o, err, c.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			want := []OlderCollection{{Name: "notes", Root: "/vault/notes", Files: 1}}
			if o.Version != c.version || o.SizeBytes < int64(len(before)) || !slices.Equal(o.Collections, want) {
				t.Errorf("got %+v; want version %d, collections %+v", o, c.version, want)
			}
		})
	}
}

// heldOpen is setup, then the index held open as another process would,
// its -wal and -shm beside it, until the test ends.
func heldOpen(setup func(*testing.T, string)) func(*testing.T, string) {
	return func(t *testing.T, path string) {
		setup(t, path)
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if _, err := db.Exec(`SELECT count(*) FROM collections`); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path + "-wal"); err != nil {
			t.Fatal(err)
		}
	}
}

// listDir names the files in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
