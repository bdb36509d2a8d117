package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// ApplicationID marks an SQLite file as an mdsearch index: PRAGMA
// application_id, bytes 68–71 of the file header. It reads "mdsx" in ASCII.
// Open changes no file that lacks it, except an index written before the
// mark existed (schema version 1), which it recognises by its tables.
const ApplicationID = 0x6d647378

// Why Open refuses a file. Each is wrapped in an *mdsearch.Error that names
// the file and says what to do; test with errors.Is.
var (
	ErrNotIndex   = errors.New("not an mdsearch index")
	ErrEmptyFile  = errors.New("an empty file, not an mdsearch index")
	ErrNewerIndex = errors.New("written by a newer mdsearch")
	ErrOlderIndex = errors.New("written by an older mdsearch")
)

// Open opens the index file at path for writing, creating it (and its
// folder) when the path does not exist. An index of an older schema version
// is rebuilt empty and reported by the Migration; a file that is not an
// mdsearch index, or an index of a newer version, is refused untouched.
func Open(ctx context.Context, path string) (*Store, *Migration, error) {
	return openIndex(ctx, path, false)
}

// OpenExisting is Open for an index that must exist already: a missing
// file is refused, with a hint, rather than created. Commands that serve
// or watch an index use it, so a mistyped path leaves no empty index
// behind.
func OpenExisting(ctx context.Context, path string) (*Store, *Migration, error) {
	return openFile(ctx, path, false, false)
}

// OpenReadOnly opens an existing index for reading and changes nothing:
// a missing file, a file that is not an index and an index of another
// schema version are all refused, with a hint.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	s, _, err := openIndex(ctx, path, true)
	return s, err
}

// openIndex opens the index at path: for writing, creating it when
// missing, or for reading only.
func openIndex(ctx context.Context, path string, readOnly bool) (*Store, *Migration, error) {
	return openFile(ctx, path, readOnly, !readOnly)
}

// openFile is openIndex; create says whether a missing index is made.
func openFile(ctx context.Context, path string, readOnly, create bool) (*Store, *Migration, error) {
	abs, err := resolve(path)
	if err != nil {
		return nil, nil, err
	}
	named, _ := filepath.Abs(path)
	if named == abs {
		named = "" // no symlink: Replaced looks at abs alone
	}
	if err := ensureFile(ctx, abs, create); err != nil {
		return nil, nil, err
	}
	if err := oneName(abs, readOnly); err != nil {
		return nil, nil, err
	}
	frozen := readOnly && frozenFile(abs)
	f, err := inspect(ctx, abs, frozen)
	if err != nil {
		return nil, nil, err
	}
	if err := f.check(abs, readOnly); err != nil {
		return nil, nil, err
	}
	s := &Store{path: abs, named: named}
	if s.file, err = os.Stat(abs); err != nil {
		return nil, nil, mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs, "", "%v", err)
	}
	if s.w, err = openDB(abs, readOnly, frozen); err != nil {
		return nil, nil, err
	}
	s.w.SetMaxOpenConns(1)
	var mig *Migration
	if !readOnly {
		if mig, err = s.upgrade(ctx, f); err != nil {
			s.w.Close()
			if corrupt(err) { // the file is ours: damaged, not foreign
				return nil, nil, damaged("open index", abs, err)
			}
			return nil, nil, fileError(abs, err)
		}
		s.changeLog = true
	}
	if s.pool, err = openDB(abs, true, frozen); err != nil {
		s.w.Close()
		return nil, nil, err
	}
	s.Reader = &Reader{r: s.pool, stmts: newStmtCache(s.pool)}
	for _, c := range addedColumns {
		if *c.has(s.Reader), err = hasColumn(ctx, s.pool, c.table, c.column); err != nil {
			break
		}
	}
	if err != nil {
		s.Close()
		return nil, nil, fileError(abs, err)
	}
	// A writer has the vocabulary tables: made with the file, or added by upgrade.
	s.vocab = !readOnly || f.hasVocab()
	return s, mig, nil
}

// resolve is the absolute path of the index file that path names, through
// symlinks: SQLite keeps the -wal and -shm files beside that file, so the
// lock and the checks for leftovers must look there too. A symlink to
// nothing is refused rather than replaced by a new index.
func resolve(path string) (string, error) {
	if last := path[strings.LastIndexAny(path, "/"+string(filepath.Separator))+1:]; last == "" || last == "." || last == ".." {
		// Abs would drop the slash, and a file be made where a folder was meant.
		return "", mdsearch.Errorf(mdsearch.KindInvalid, "open index", path, "pass the path of a file with --index, e.g. "+filepath.Join(path, "index.db"),
			"ends with a slash, . or .., so names a folder, not an index file")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", mdsearch.Errorf(mdsearch.KindInvalid, "open index", path, "", "%v", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	if fi, lerr := os.Lstat(abs); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(abs)
		return "", mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs,
			"point the link at an index, or pass another --index path", "a symlink to %s, which does not exist", target)
	}
	return abs, nil
}

// ensureFile creates a missing index (when create) and refuses an empty
// file: SQLite would take it for an empty database and write into it.
func ensureFile(ctx context.Context, abs string, create bool) error {
	if create {
		removeLeftovers(abs)
	}
	if err := foreignJournal(abs); err != nil {
		return err
	}
	if err := foreignLog(abs); err != nil {
		return err
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !create:
		return noIndex(abs)
	case errors.Is(err, fs.ErrNotExist):
		if err := orphans(abs); err != nil {
			return err
		}
		return createFile(ctx, abs)
	case err != nil:
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs, "", "%v", err)
	case fi.IsDir():
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs, "pass the path of a file with --index", "a folder, not an index file")
	case !fi.Mode().IsRegular():
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs, "pass the path of a file with --index",
			"not a regular file (a device, pipe or socket), so not an index file")
	case fi.Size() == 0:
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs,
			"pass another --index path, or delete this file to start over", "%w", ErrEmptyFile)
	}
	return nil
}

// oneName refuses to write an index file that has other names (hard
// links): SQLite keeps the write-ahead log and its lock beside the name
// it opened, and so does mdsearch its own lock, so two processes writing
// through two names would each miss the other's log and damage the file.
// A read through another name cannot damage it.
func oneName(abs string, readOnly bool) error {
	fi, err := os.Stat(abs)
	if err != nil || readOnly {
		return nil
	}
	if n := linkCount(fi); n > 1 {
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs,
			"keep one name for it: remove its other links (`find / -xdev -samefile "+abs+"` lists them), or copy it (`cp`) to a file of its own",
			"the index file has %d names (hard links), and two processes writing through two names would each miss the other's changes and damage it", n)
	}
	return nil
}

// orphans refuses to create an index beside the -wal or -shm file of one
// that was deleted: a process may still have it open (mdsearch serve, mcp
// or watch), and SQLite would read those files as the new index's, mixing
// the two into a damaged file. They are not provably mdsearch's to delete.
func orphans(abs string) error {
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Lstat(abs + suffix); err == nil {
			return mdsearch.Errorf(mdsearch.KindUnavailable, "create index", abs,
				"delete "+filepath.Base(abs)+"-wal and "+filepath.Base(abs)+"-shm and run this again (a serve, mcp or watch "+
					"still using the deleted index keeps what it holds open and switches to the new index)",
				"%s is here without %s (an index deleted while in use, or after a crash), and SQLite would read it as the new index's",
				filepath.Base(abs)+suffix, filepath.Base(abs))
		}
	}
	return nil
}

// foreignJournal refuses an index with a file beside it named as its
// rollback journal that is no SQLite journal: SQLite would delete it, or
// read it as the index's and write it into the index. An index is kept in
// WAL mode, so it has a journal only while an upgrade rebuilds it (or
// after a crash then, which SQLite must roll back): such a file, one
// being written (empty yet, or its header's first bytes still zero, as
// SQLite writes them until its first sync), is left to SQLite.
func foreignJournal(abs string) error { return foreignBeside(abs, journalFile) }

// foreignLog refuses an index with a file beside it named as its
// write-ahead log (-wal) or that log's index (-shm) that is neither:
// SQLite would take it for the index's, then rewrite or delete it, a
// read-only command's open included. A file of either kind starts with a
// known number (the log's magic, either byte order; the index's version,
// 3007000), or zeros, as SQLite leaves them before it writes one; an
// empty one is SQLite's to fill.
func foreignLog(abs string) error { return foreignBeside(abs, walFile, shmFile) }

// sideFile is a file SQLite keeps beside an index: its name's suffix, how
// its header starts, and what the refusal of another program's says.
type sideFile struct {
	suffix string
	head   int               // bytes of header ok reads
	ok     func([]byte) bool // whether a whole header is SQLite's
	what   string            // "%s is beside it and " + what
}

var (
	journalFile = sideFile{"-journal", len(journalMagic), func(h []byte) bool { return bytes.Equal(h, journalMagic) },
		"is no SQLite journal: SQLite would take it for the index's journal and delete it"}
	walFile = sideFile{"-wal", 4, func(h []byte) bool {
		m := binary.BigEndian.Uint32(h)
		return m == 0x377f0682 || m == 0x377f0683
	}, "is not SQLite's: SQLite would take it for the index's and rewrite or delete it"}
	shmFile = sideFile{"-shm", 4, func(h []byte) bool {
		return binary.LittleEndian.Uint32(h) == 3007000 || binary.BigEndian.Uint32(h) == 3007000
	}, walFile.what}
)

// journalMagic starts every SQLite rollback journal's header.
var journalMagic = []byte{0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7}

// foreignBeside refuses the first of files beside abs whose header is
// not SQLite's: one that is empty, or whose first bytes are all zero (as
// SQLite leaves them until it writes the header), is SQLite's to fill.
func foreignBeside(abs string, files ...sideFile) error {
	for _, k := range files {
		f, err := os.Open(abs + k.suffix)
		if err != nil {
			continue
		}
		head := make([]byte, k.head)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if bytes.Count(head[:n], []byte{0}) == n || n == k.head && k.ok(head) {
			continue
		}
		name := filepath.Base(abs + k.suffix)
		return mdsearch.Errorf(mdsearch.KindUnavailable, "open index", abs,
			"move "+name+" away (or delete it, if it is no one's) and run this again, or pass another --index path",
			"%s is beside it and "+k.what, name)
	}
	return nil
}

// noIndex is the error for a missing index that is not to be created.
func noIndex(abs string) error {
	return mdsearch.Errorf(mdsearch.KindNotFound, "open index", abs,
		"run `mdsearch index DIR` first, or name another index with --index", "no index here")
}

// createFile builds a new index beside abs and links it into place, so no
// other process ever sees a half-made file, and an index another process
// created meanwhile wins.
func createFile(ctx context.Context, abs string) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs, "", "%v", err)
	}
	// Named with this process's ID and locked while made, so a later run
	// can tell a crash's leftover from a file being made (removeLeftovers).
	tmp, err := os.CreateTemp(filepath.Dir(abs), leftoverPrefix(abs)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs, "", "%v", err)
	}
	defer tmp.Close()
	defer os.Remove(tmp.Name())
	lockFile(tmp)
	db, err := openDB(tmp.Name(), false, false)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	err = create(ctx, db)
	if err == nil {
		// In WAL mode before it appears at the path: no two processes
		// opening the new index (an index run, a server following it)
		// then race to switch its journal, which one loses as "locked".
		_, err = db.ExecContext(ctx, `PRAGMA journal_mode = WAL`)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fileError(abs, err)
	}
	if err := os.Link(tmp.Name(), abs); err != nil && !errors.Is(err, fs.ErrExist) {
		return mdsearch.Errorf(mdsearch.KindInvalid, "create index", abs, "", "%v", err)
	}
	return nil
}

// fileInfo is what inspect learns about a file without changing it.
type fileInfo struct {
	appID   int32
	version int // 0 when unknown
	tables  map[string]bool
}

// inspect reads the header and the tables of an existing file through a
// read-only connection that sets no pragma that could write.
//
// Another program's file is refused by its header's application ID before
// SQLite opens it. Without a -wal file beside it, the file is read as
// immutable: a read-only connection to a file in WAL mode would otherwise
// leave -wal and -shm files beside it, which a later index at that path
// takes for a crash's leftovers (and with no -wal file there is no
// newer content to miss).
func inspect(ctx context.Context, abs string, frozen bool) (*fileInfo, error) {
	headID, err := checkMagic(abs)
	if err != nil {
		return nil, err
	}
	f := &fileInfo{appID: headID, tables: map[string]bool{}}
	if headID != 0 && headID != ApplicationID {
		return f, nil // not ours: check refuses it
	}
	immutable := readImmutable(abs, frozen)
	err = f.read(ctx, abs, immutable)
	if _, walNow := os.Lstat(abs + "-wal"); err != nil && immutable && !frozen && corrupt(err) && walNow == nil {
		// A writer opened the file since (its -wal is here now), and
		// read without locks the file may have changed under the read:
		// read it again with them before calling it damaged.
		f.tables = map[string]bool{}
		err = f.read(ctx, abs, false)
	}
	if err != nil {
		if headID == ApplicationID && (corrupt(err) || errors.Is(err, errVersion)) { // ours, cut short or overwritten
			return nil, damaged("open index", abs, err)
		}
		return nil, fileError(abs, err)
	}
	return f, nil
}

// read fills f from the file through a read-only connection, immutable or
// not.
func (f *fileInfo) read(ctx context.Context, abs string, immutable bool) error {
	db, err := sql.Open("sqlite", readDSN(abs, immutable))
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&f.appID); err != nil {
		return err
	}
	return f.readTables(ctx, db)
}

// readTables reads the file's tables and schema version. A version that
// cannot be read in a file marked as an index is damage, not an older
// index: Open would rebuild an older one empty.
func (f *fileInfo) readTables(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		f.tables[name] = true
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	if !f.tables["meta"] {
		return nil
	}
	var v string
	err = db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows) && f.appID != ApplicationID:
		return nil // a foreign meta table
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%w is missing", errVersion)
	case err != nil:
		return err
	}
	if _, err := fmt.Sscan(v, &f.version); err != nil && f.appID == ApplicationID {
		return fmt.Errorf("%w %q is not a number", errVersion, v)
	}
	return nil
}

// errVersion is an index's unreadable schema version: damage.
var errVersion = errors.New("its schema version")

// checkMagic refuses a file that is not SQLite before SQLite opens it, and
// returns the application ID its header holds.
func checkMagic(abs string) (appID int32, err error) {
	fh, err := os.Open(abs)
	if err != nil {
		return 0, mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs, "", "%v", err)
	}
	defer fh.Close()
	head := make([]byte, 100) // the database header
	if n, _ := io.ReadFull(fh, head); n < 16 || string(head[:16]) != "SQLite format 3\x00" {
		return 0, mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs,
			"pass another --index path", "%w: not an SQLite file", ErrNotIndex)
	}
	return int32(binary.BigEndian.Uint32(head[68:72])), nil // 0 in a header cut short
}

// check refuses what Open must not touch: a file that is not ours, a newer
// index, and (when reading only) an older one.
func (f *fileInfo) check(abs string, readOnly bool) error {
	switch {
	case f.notOurs() != "":
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs,
			"pass another --index path; mdsearch changes no file it did not write",
			"%w: %s", ErrNotIndex, f.notOurs())
	case f.version > SchemaVersion:
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs,
			"use a newer mdsearch, or pass another --index path",
			"%w: index schema version %d, this mdsearch reads %d", ErrNewerIndex, f.version, SchemaVersion)
	case f.version < SchemaVersion && readOnly:
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", abs,
			"run `mdsearch index` to rebuild it from its folders",
			"%w: index schema version %d, this mdsearch reads %d", ErrOlderIndex, f.version, SchemaVersion)
	}
	return nil
}

// dirWritable is writable, replaced in tests (root may write anywhere).
var dirWritable = writable

// frozenFile reports whether nothing can write the index at abs, so it is
// read as it stands: its folder is not writable (read-only media, a shared
// folder), which also means SQLite could not make the shared-memory file a
// WAL reader needs, and no WAL file waits to be read with it.
func frozenFile(abs string) bool {
	if _, err := os.Stat(abs + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return !dirWritable(filepath.Dir(abs))
}

// openDB opens the index; frozen opens it immutable (see frozenFile),
// without the locking and WAL files SQLite would otherwise need.
func openDB(path string, readOnly, frozen bool) (*sql.DB, error) {
	q := url.Values{}
	// ensureFile made the file. A connection the pool opens later must
	// never make it again: after the index is deleted under a running
	// serve, that would leave an empty SQLite file at the path.
	q.Set("mode", "rw")
	if frozen {
		q.Set("mode", "ro")
		q.Set("immutable", "1")
	}
	q.Add("_pragma", "busy_timeout(10000)")
	if !frozen {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Set("_txlock", "immediate")
	}
	dsn := (&url.URL{Scheme: "file", Path: path}).String() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fileError(path, err)
	}
	return db, nil
}

// writeSchema creates this version's tables in tx and marks the file as
// an mdsearch index.
func writeSchema(ctx context.Context, tx *sql.Tx) error {
	for _, stmt := range schema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
	}
	_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID))
	return err
}

// create writes the current schema, marked with ApplicationID, into an
// empty database.
func create(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, stmt := range layout {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("set up index file: %w", err)
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := writeSchema(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}
