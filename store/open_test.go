package store

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// foreignDB writes an SQLite file that is not an mdsearch index.
func foreignDB(stmts ...string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, s := range stmts {
			if _, err := db.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
}

// ourIndex writes an mdsearch index with one note, then lets edit change
// it (its version, its mark) through raw SQL.
func ourIndex(edit ...string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		s, _, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := s.AddCollection(ctx, "notes", "/vault/notes")
		put(t, s, c.ID, "x.md", "X", nil, chunk("x.md", 0, "A", "text"))
		for _, e := range edit {
			if _, err := s.w.Exec(e); err != nil {
				t.Fatalf("%s: %v", e, err)
			}
		}
		s.Close()
	}
}

// v1Index writes an index of version 1, written before the application
// ID: this version's tables less those version 2 added, then edit.
func v1Index(edit ...string) func(t *testing.T, path string) {
	return ourIndex(append([]string{`PRAGMA application_id = 0`, setVersion(1), `DROP TABLE windows`, `DROP TABLE doc_changes`, `DROP TABLE commit_stamps`,
		`DROP TABLE chunks_vocab`, `DROP TABLE chunks_instances`}, edit...)...)
}

func setVersion(v int) string {
	return `UPDATE meta SET value = '` + strconv.Itoa(v) + `' WHERE key = 'schema_version'`
}

func TestOpenTouchesOnlyOurFiles(t *testing.T) {
	foreignMeta := foreignDB(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`,
		`INSERT INTO meta VALUES ('schema_version', '7')`, `CREATE TABLE notes (body TEXT)`, `INSERT INTO notes VALUES ('keep me')`)
	foreignV1 := foreignDB(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`,
		`INSERT INTO meta VALUES ('schema_version', '1')`, `CREATE TABLE collections (name TEXT, root TEXT)`)
	otherApp := foreignDB(`PRAGMA application_id = 42`, `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`,
		`INSERT INTO meta VALUES ('schema_version', '0')`)
	foreignWAL := foreignDB(`PRAGMA journal_mode = WAL`, `PRAGMA application_id = 42`, `CREATE TABLE t (x)`, `INSERT INTO t VALUES (1)`)
	foreignWALNoID := foreignDB(`PRAGMA journal_mode = WAL`, `CREATE TABLE t (x)`, `INSERT INTO t VALUES (1)`)
	empty := func(t *testing.T, path string) { os.WriteFile(path, nil, 0o644) }
	junk := func(t *testing.T, path string) { os.WriteFile(path, bytes.Repeat([]byte("not sqlite "), 100), 0o644) }
	legacy := v1Index()
	// A foreign file that shares a version 1 index's table names, and has
	// its own besides, is not rebuilt (it was, every table dropped).
	v1Names := []string{`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`, `INSERT INTO meta VALUES ('schema_version', '1')`}
	for _, t := range legacyTables {
		if t != "meta" && t != "chunks_fts" {
			v1Names = append(v1Names, `CREATE TABLE `+t+` (x)`)
		}
	}
	v1Names = append(v1Names, `CREATE VIRTUAL TABLE chunks_fts USING fts5(text, content='')`)
	foreignV1Names := foreignDB(append(v1Names, `CREATE TABLE precious (x)`, `INSERT INTO precious VALUES ('keep me')`)...)
	foreignV1Content := foreignDB(append(v1Names[:len(v1Names)-1:len(v1Names)-1], `CREATE VIRTUAL TABLE chunks_fts USING fts5(text)`)...)
	v2AsV1 := ourIndex(`PRAGMA application_id = 0`, setVersion(1))
	legacyWant := error(nil)
	if SchemaVersion > 1 {
		legacyWant = ErrOlderIndex
	}

	cases := []struct {
		name     string
		setup    func(*testing.T, string)
		readOnly bool
		want     error // nil: opens
		migrated bool  // rebuilt (write mode only)
	}{
		{"foreign meta table, write", foreignMeta, false, ErrNotIndex, false},
		{"foreign meta table, read", foreignMeta, true, ErrNotIndex, false},
		{"foreign meta at version 1", foreignV1, false, ErrNotIndex, false},
		{"foreign file with version 1's tables and its own", foreignV1Names, false, ErrNotIndex, false},
		{"foreign file with version 1's tables, FTS with content", foreignV1Content, false, ErrNotIndex, false},
		{"version 2's tables claiming version 1, no ID", v2AsV1, false, ErrNotIndex, false},
		{"other application ID", otherApp, false, ErrNotIndex, false},
		{"foreign file in WAL mode", foreignWAL, false, ErrNotIndex, false},
		{"foreign file in WAL mode, no ID", foreignWALNoID, true, ErrNotIndex, false},
		{"not SQLite", junk, false, ErrNotIndex, false},
		{"empty file, write", empty, false, ErrEmptyFile, false},
		{"empty file, read", empty, true, ErrEmptyFile, false},
		{"newer index, write", ourIndex(setVersion(SchemaVersion + 1)), false, ErrNewerIndex, false},
		{"newer index, read", ourIndex(setVersion(SchemaVersion + 1)), true, ErrNewerIndex, false},
		{"older index, read", ourIndex(setVersion(0)), true, ErrOlderIndex, false},
		{"older index, write", ourIndex(setVersion(0)), false, nil, true},
		{"current index, read", ourIndex(), true, nil, false},
		{"index before the mark, read", legacy, true, legacyWant, false},
		{"index before the mark, write", legacy, false, nil, SchemaVersion > 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.db")
			c.setup(t, path)
			before, _ := os.ReadFile(path)
			s, mig, err := openIndex(ctx, path, c.readOnly)
			if c.want != nil {
				after, _ := os.ReadFile(path)
				if !errors.Is(err, c.want) || mdsearch.KindOf(err) != mdsearch.KindInvalid {
					t.Fatalf("got %v, want %v", err, c.want)
				}
				if !bytes.Equal(before, after) {
					t.Errorf("a refused file was changed")
				}
				// Nothing is left beside a refused file: no WAL (a file in
				// WAL mode opened for reading would get -wal and -shm).
				for _, side := range []string{"-wal", "-shm", "-journal"} {
					if _, err := os.Stat(path + side); err == nil {
						t.Errorf("a refused file got a %s file", side)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if (mig != nil) != c.migrated {
				t.Errorf("migration %v, want %v", mig, c.migrated)
			}
			if c.readOnly {
				if _, err := s.w.Exec(`DELETE FROM documents`); err == nil {
					t.Errorf("a read-only store wrote")
				}
				return
			}
			var id int32
			s.w.QueryRow(`PRAGMA application_id`).Scan(&id)
			if id != ApplicationID {
				t.Errorf("application_id %#x after a writing open", id)
			}
		})
	}
}

func TestOpenCreatesOnlyWhenMissing(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "sub", "new.db")
	if _, err := OpenReadOnly(ctx, missing); mdsearch.KindOf(err) != mdsearch.KindNotFound {
		t.Errorf("read-only open of a missing index: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("a read-only open created the index")
	}
	s, mig, err := Open(ctx, missing)
	if err != nil || mig != nil {
		t.Fatalf("create: %v %v", mig, err)
	}
	var id int32
	s.w.QueryRow(`PRAGMA application_id`).Scan(&id)
	s.Close()
	if id != ApplicationID {
		t.Errorf("application_id %#x", id)
	}
	entries, _ := os.ReadDir(filepath.Dir(missing))
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if s, err := OpenReadOnly(ctx, missing); err != nil {
		t.Errorf("reopen read-only: %v", err)
	} else {
		s.Close()
	}
}

// TestOpenReadOnlyFolder: an index in a folder this process cannot write
// to (read-only media, a shared folder) is read as it stands, without the
// WAL files SQLite cannot make there, and still refuses writes.
func TestOpenReadOnlyFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddCollection(ctx, "notes", "/notes"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	defer func(w func(string) bool) { dirWritable = w }(dirWritable)
	dirWritable = func(string) bool { return false }
	before, _ := os.ReadDir(filepath.Dir(path))
	r, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("read-only folder: %v", err)
	}
	defer r.Close()
	if cs, err := r.Collections(ctx); err != nil || len(cs) != 1 || cs[0].Name != "notes" {
		t.Errorf("collections: %+v %v", cs, err)
	}
	if err := r.SetMeta(ctx, "x", "y"); err == nil {
		t.Error("a frozen index took a write")
	}
	after, _ := os.ReadDir(filepath.Dir(path))
	if len(after) != len(before) {
		t.Errorf("files made next to a frozen index: %v, before %v", after, before)
	}
}

// TestOpenTruncatedIndex: an index cut short (a failed copy, a crash of
// the disk) is called damaged, with what to do, not another program's
// file; nothing is left beside it.
func TestOpenTruncatedIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	ourIndex()(t, path)
	for _, side := range []string{"-wal", "-shm"} {
		os.Remove(path + side)
	}
	fi, _ := os.Stat(path)
	if err := os.Truncate(path, fi.Size()/3); err != nil {
		t.Fatal(err)
	}
	for _, readOnly := range []bool{true, false} {
		_, _, err := openIndex(ctx, path, readOnly)
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("read only %v: %v, want damaged", readOnly, err)
		}
	}
	for _, side := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + side); err == nil {
			t.Errorf("a %s file beside the damaged index", side)
		}
	}
}

// A device is not an index, and nothing is said of deleting it.
func TestOpenDevice(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip("no", os.DevNull)
	}
	for _, open := range []func() error{
		func() error { _, _, err := Open(ctx, os.DevNull); return err },
		func() error { _, err := OpenReadOnly(ctx, os.DevNull); return err },
	} {
		err := open()
		var me *mdsearch.Error
		if !errors.As(err, &me) || !strings.Contains(err.Error(), "not a regular file") || strings.Contains(me.Hint, "delete") {
			t.Errorf("open %s: %v", os.DevNull, err)
		}
	}
}

// TestForeignJournal: a file named as the index's rollback journal that is
// no SQLite journal is refused, by an index run and a search alike, and
// left as it is (SQLite would delete it); an empty one, or a journal,
// is SQLite's to handle.
func TestForeignJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	for _, tc := range []struct {
		name    string
		content []byte
		refused bool
	}{
		{"another program's", []byte("user journal"), true},
		{"empty", nil, false},
		{"a journal", append(slices.Clone(journalMagic), 0, 0, 0, 0), false},
		{"a journal before its first sync", make([]byte, 512), false},
		{"a zero, then text", append([]byte{0}, "user journal"...), true},
	} {
		if err := os.WriteFile(path+"-journal", tc.content, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := foreignJournal(path); (err != nil) != tc.refused {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if err := os.WriteFile(path+"-journal", []byte("user journal"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "index.db-journal is beside it and is no SQLite journal") {
		t.Fatalf("create beside it: %v", err)
	}
	if err := os.Remove(path + "-journal"); err != nil {
		t.Fatal(err)
	}
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.WriteFile(path+"-journal", []byte("user journal"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() error{
		"Open":         func() error { _, _, err := Open(ctx, path); return err },
		"OpenReadOnly": func() error { _, err := OpenReadOnly(ctx, path); return err },
	} {
		if err := open(); err == nil || mdsearch.KindOf(err) != mdsearch.KindUnavailable {
			t.Errorf("%s: %v", name, err)
		}
	}
	if b, _ := os.ReadFile(path + "-journal"); string(b) != "user journal" {
		t.Errorf("the file was changed: %q", b)
	}
}

// A path that ends with a slash names a folder: no index file is made
// under the folder's name.
func TestIndexPathFolder(t *testing.T) {
	dir := t.TempDir()
	for _, open := range []func(string) error{
		func(p string) error { _, _, err := Open(ctx, p); return err },
		func(p string) error { _, err := OpenReadOnly(ctx, p); return err },
	} {
		for _, p := range []string{filepath.Join(dir, "nd2") + "/", filepath.Join(dir, "nd2") + "/.", filepath.Join(dir, "nd2", "x") + "/..", "."} {
			if err := open(p); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "names a folder") {
				t.Errorf("%s: got %v", p, err)
			}
		}
		if _, err := os.Lstat(filepath.Join(dir, "nd2")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a file or folder was made: %v", err)
		}
	}
}

// An index file with another name (a hard link) is not written through
// either: two writers through two names would each keep their own log
// and damage it. It is still read.
func TestOpenHardLinked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	other := filepath.Join(dir, "other.db")
	if err := os.Link(path, other); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	for _, p := range []string{path, other} {
		if _, _, err := Open(ctx, p); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "2 names (hard links)") {
			t.Errorf("open %s for writing: %v", filepath.Base(p), err)
		}
		r, err := OpenReadOnly(ctx, p)
		if err != nil {
			t.Errorf("read %s: %v", filepath.Base(p), err)
			continue
		}
		r.Close()
	}
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	if s, _, err := Open(ctx, path); err != nil {
		t.Errorf("one name again: %v", err)
	} else {
		s.Close()
	}
}

// A file beside the index named as its write-ahead log or the log's index
// that is not SQLite's is refused, by a read as by a write, and left as
// it is: SQLite would rewrite or delete it. SQLite's own are used.
func TestForeignLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`INSERT INTO meta(key, value) VALUES ('x', 'y')`); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if b, err := os.ReadFile(path + suffix); err != nil || foreignLog(path) != nil {
			t.Fatalf("SQLite's own %s (%d bytes, %v): %v", suffix, len(b), err, foreignLog(path))
		}
	}
	s.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		other := "not sqlite " + suffix
		if err := os.WriteFile(path+suffix, []byte(other), 0o600); err != nil {
			t.Fatal(err)
		}
		for name, open := range map[string]func() error{
			"Open":         func() error { _, _, err := Open(ctx, path); return err },
			"OpenReadOnly": func() error { _, err := OpenReadOnly(ctx, path); return err },
		} {
			if err := open(); mdsearch.KindOf(err) != mdsearch.KindUnavailable || !strings.Contains(err.Error(), "index.db"+suffix+" is beside it and is not SQLite's") {
				t.Errorf("%s with a foreign %s: %v", name, suffix, err)
			}
		}
		if b, _ := os.ReadFile(path + suffix); string(b) != other {
			t.Errorf("the %s file was changed: %q", suffix, b)
		}
		for _, ok := range [][]byte{nil, make([]byte, 64)} { // empty, or zeros as SQLite leaves them first
			if err := os.WriteFile(path+suffix, ok, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := foreignLog(path); err != nil {
				t.Errorf("%s of %d zero bytes: %v", suffix, len(ok), err)
			}
		}
		os.Remove(path + suffix)
	}
}
