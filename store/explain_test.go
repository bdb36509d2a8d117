package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// garbled writes an index and overwrites the root page of its table with
// bytes SQLite cannot read.
func garbled(table string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		ourIndex()(t, path)
		garblePage(t, path, table)
	}
}

func garblePage(t *testing.T, path, table string) {
	t.Helper()
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var root, size int64
	if err := s.w.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, table).Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := s.w.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	s.Close()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, int(size)), (root-1)*size); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedIndex: a damaged index is reported as damaged, with the file
// and the way out, and never taken for an older index to rebuild (which
// would empty it): not when the page holding the schema version is
// garbled, nor when the version is missing. Damage that opening does not
// meet is found by Check.
func TestDamagedIndex(t *testing.T) {
	cases := []struct {
		name     string
		damage   func(t *testing.T, path string) // writes the damaged index
		openFail bool                            // Open itself finds it; else only Check does
	}{
		{"meta page garbled", garbled("meta"), true},
		{"schema version missing", ourIndex(`DELETE FROM meta WHERE key = 'schema_version'`), true},
		{"schema version not a number", ourIndex(`UPDATE meta SET value = 'x' WHERE key = 'schema_version'`), true},
		{"documents page garbled", garbled("documents"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			tc.damage(t, path)
			before, _ := os.ReadFile(path)
			for _, readOnly := range []bool{false, true} {
				s, _, err := openIndex(ctx, path, readOnly)
				if !tc.openFail && err == nil {
					err = Explain(path, s.Check(ctx))
					s.Close()
				}
				if !errors.Is(err, ErrDamaged) {
					t.Fatalf("readOnly=%v: got %v, want ErrDamaged", readOnly, err)
				}
				if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "mdsearch index DIR") {
					t.Errorf("message %q does not name the file and the way out", msg)
				}
				if mdsearch.KindOf(err) != mdsearch.KindUnavailable {
					t.Errorf("kind %v", mdsearch.KindOf(err))
				}
			}
			if after, _ := os.ReadFile(path); tc.openFail && !bytes.Equal(before, after) {
				t.Error("the damaged index was changed")
			}
		})
	}
}

// TestOrphanWAL: an index is not created beside the -wal or -shm file of
// one deleted while in use, which SQLite would read as the new index's;
// those files are left as they are.
func TestOrphanWAL(t *testing.T) {
	for _, suffix := range []string{"-wal", "-shm"} {
		path := filepath.Join(t.TempDir(), "index.db")
		if err := os.WriteFile(path+suffix, []byte("frames"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := Open(ctx, path)
		if err == nil || !strings.Contains(err.Error(), "index.db"+suffix) {
			t.Fatalf("%s: got %v", suffix, err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: an index was created", suffix)
		}
		if b, _ := os.ReadFile(path + suffix); string(b) != "frames" {
			t.Errorf("%s was changed", suffix)
		}
	}
}

// TestReplaced: a store whose path now names another file (deleted, or
// replaced by a new index) says so, and closing it leaves the file at the
// path alone.
func TestReplaced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Replaced(); err != nil {
		t.Fatalf("fresh store: %v", err)
	}
	if _, err := s.AddCollection(ctx, "notes", "/vault/notes"); err != nil { // a -wal
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	if err := os.WriteFile(other, []byte("another index"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if err := s.Replaced(); err == nil || !strings.Contains(err.Error(), "deleted or replaced") {
		t.Fatalf("replaced: got %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "another index" {
		t.Error("the file now at the path was changed")
	}
}

// coded is an error with an SQLite result code, as the driver's are.
type coded int

func (c coded) Error() string { return "sqlite error" }
func (c coded) Code() int     { return int(c) }

// TestExplain: the SQLite failures a user can act on name the file and
// what to do; others pass through unchanged.
func TestExplain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	cases := []struct {
		code int
		want string // in the message; "" for an error passed through
	}{
		{11, "damaged"},
		{26, "damaged"},
		{13, "disk is full"},
		{13 | 3<<8, "disk is full"}, // an extended code
		{8, "cannot be written"},
		{14, "cannot read or write"},
		{10 | 19<<8, "cannot read or write"},
		{1, ""},
		{5, ""},
	}
	for _, tc := range cases {
		err := Explain(path, coded(tc.code))
		if tc.want == "" {
			if err != coded(tc.code) {
				t.Errorf("code %d: got %v, want it unchanged", tc.code, err)
			}
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.want) || !strings.Contains(msg, path) || !strings.Contains(msg, "(") {
			t.Errorf("code %d: %q lacks %q, the file or a hint", tc.code, msg, tc.want)
		}
	}
	if Explain(path, nil) != nil {
		t.Error("nil is not an error")
	}
}
