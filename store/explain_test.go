package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// garbled writes an index and overwrites the root page of its table with
// bytes SQLite cannot read.
func garbled(table string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		ourIndex()(t, path)
		testenv.GarblePage(t, path, table)
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
		{"index page garbled", garbled("windows_vkey"), false}, // quick_check reports it in rows
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
				if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "mdsearch index DIR") || strings.Contains(msg, "\n") {
					t.Errorf("message %q does not name the file and the way out on one line", msg)
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
// replaced by a new index) says so and writes nothing more, and closing
// it leaves the file at the path alone.
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
	if _, err := s.Begin(ctx); err == nil || !strings.Contains(err.Error(), "deleted or replaced") {
		t.Errorf("a write began: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "another index" {
		t.Error("the file now at the path was changed")
	}
}

// TestDeletedNotRecreated: connections the pool opens after the index was
// deleted (a serve under load) fail; none makes an empty file at the path,
// which would stop the user's rebuild there as "not an mdsearch index".
func TestDeletedNotRecreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AddCollection(ctx, "notes", "/vault/notes"); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	for i := range 3 { // each held, so the pool opens a new one
		c, err := s.pool.Conn(ctx)
		if err == nil {
			defer c.Close()
			err = c.PingContext(ctx)
		}
		if err == nil {
			_, err = c.ExecContext(ctx, "SELECT count(*) FROM collections")
		}
		if _, serr := os.Stat(path); !os.IsNotExist(serr) {
			t.Fatalf("connection %d (%v) made a file at the deleted index's path", i, err)
		}
	}
}

// coded is an error with a Code method that is not SQLite's.
type coded int

func (c coded) Error() string { return "http status" }
func (c coded) Code() int     { return int(c) }

// driverError is a real error of the SQLite driver: what query gives on a
// database opened with dsn.
func driverError(t *testing.T, dsn, query string) error {
	t.Helper()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err == nil {
		for rows.Next() {
		}
		err = errors.Join(rows.Err(), rows.Close())
	}
	if err == nil {
		t.Fatalf("%s on %s: no error", query, dsn)
	}
	return err
}

// TestExplain: the SQLite failures a user can act on name the file and
// what to do; an error that already says what to do, and any other, pass
// through unchanged; joined errors are each explained.
func TestExplain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.db")
	ourIndex()(t, path)
	damagedPath := filepath.Join(dir, "damaged.db")
	garbled("documents")(t, damagedPath)

	readOnly := driverError(t, "file:"+path+"?mode=ro", `CREATE TABLE x (y)`)
	cantOpen := driverError(t, "file:"+filepath.Join(dir, "none", "x.db")+"?mode=ro", `SELECT 1`)
	malformed := driverError(t, "file:"+damagedPath, `SELECT * FROM documents`)
	notFound := mdsearch.Errorf(mdsearch.KindNotFound, "read", "x.md", "check the path", "%w", readOnly)
	// Another program in a write on the index: SQLite's lock held.
	holder, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	conn, err := holder.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	busy := driverError(t, "file:"+path+"?_pragma=busy_timeout(0)", `CREATE TABLE x (y)`)
	conn.ExecContext(ctx, `ROLLBACK`)
	gone := errors.New("the folder of collection notes is gone")

	cases := []struct {
		name string
		err  error
		want []string // in the message; none: the error unchanged
	}{
		{"damaged", malformed, []string{"damaged", path, "mdsearch index DIR"}},
		{"damaged, wrapped", fmt.Errorf("keyword search: %w", malformed), []string{"damaged"}},
		{"read-only", readOnly, []string{"cannot be written", path, "can be written now"}}, // the file is: only the connection is not
		{"cannot open", cantOpen, []string{"cannot read or write", path, "read-only mount"}},
		{"locked", busy, []string{"stayed locked", path, "another program", "close it"}},
		{"joined", errors.Join(cantOpen, gone), []string{"cannot read or write", gone.Error()}},
		{"says what to do already", notFound, nil},
		{"another Code method", coded(525), nil},
		{"not SQLite", gone, nil},
	}
	for _, tc := range cases {
		got := Explain(path, tc.err)
		if tc.want == nil {
			if got != tc.err {
				t.Errorf("%s: got %v, want it unchanged", tc.name, got)
			}
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(got.Error(), w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
	}
	if Explain(path, nil) != nil {
		t.Error("nil is not an error")
	}
}

// TestSymlinkedIndex: an index reached through a symlink is used where it
// is (beside it SQLite keeps its -wal and -shm, and mdsearch its lock and
// its checks: Path is where they go), the link repointed counts as the
// index replaced, and a symlink to nothing is refused, not replaced.
func TestSymlinkedIndex(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "index.db")
	ourIndex()(t, real)
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	s, _, err := Open(ctx, link)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := filepath.EvalSymlinks(real); s.Path() != got {
		t.Errorf("path %s, want the file itself, %s", s.Path(), got)
	}
	// The link repointed at another index replaces the one opened.
	other := filepath.Join(dir, "other.db")
	ourIndex()(t, other)
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	if err := s.Replaced(); !errors.Is(err, mdsearch.ErrIndexReplaced) {
		t.Errorf("link repointed: %v", err)
	}
	s.Close()

	dangling := filepath.Join(dir, "dangling.db")
	os.Symlink(filepath.Join(dir, "gone.db"), dangling)
	for _, open := range []func(context.Context, string) (*Store, *Migration, error){Open, OpenExisting} {
		if _, _, err := open(ctx, dangling); err == nil || !strings.Contains(err.Error(), "symlink") {
			t.Errorf("dangling link: %v", err)
		}
	}
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.db")); err == nil {
		t.Error("an index was created at the link's target")
	}
}
