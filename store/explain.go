package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	sqlite "modernc.org/sqlite"

	"github.com/mdsearch/mdsearch"
)

// ErrDamaged is why an index that mdsearch wrote cannot be read: SQLite
// found its pages malformed. The notes it was built from are not affected.
var ErrDamaged = errors.New("the index file is damaged")

// SQLite's primary result codes that a user can act on.
const (
	sqliteBusy     = 5
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// sqliteCode is the primary result code of the SQLite error in err's
// chain, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// corrupt reports whether SQLite found the file's pages malformed.
func corrupt(err error) bool {
	c := sqliteCode(err)
	return c == sqliteCorrupt || c == sqliteNotADB
}

// Explain turns a failure of the index file at path that the user can act
// on (a damaged file, a full disk, a file or folder that cannot be
// written) into an *mdsearch.Error naming the file, what is wrong and what
// to do. It is for an index known to be mdsearch's: the advice to delete a
// damaged file is given only then. An error that already says what to do
// (an *mdsearch.Error of a kind other than internal) and any other error
// come back as they are; each of joined errors is explained alone.
func Explain(path string, err error) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Explain(path, e))
		}
		return errors.Join(out...)
	}
	var me *mdsearch.Error
	if errors.As(err, &me) && (me.Kind != mdsearch.KindInternal || errors.Is(me, ErrDamaged)) {
		return err
	}
	switch sqliteCode(err) {
	case sqliteCorrupt, sqliteNotADB:
		return damaged("read index", path, err)
	case sqliteFull:
		return mdsearch.Errorf(mdsearch.KindUnavailable, "write index", path,
			"free space on "+filepath.Dir(path)+"'s filesystem, or pass --index a path on another; what was committed before is kept",
			"the disk is full: %v", err)
	case sqliteReadOnly:
		return mdsearch.Errorf(mdsearch.KindUnavailable, "write index", path, readOnlyHint(path),
			"the index cannot be written: %v", err)
	case sqliteBusy:
		// mdsearch's own writers queue on the index's lock file first
		// (engine_lock_unix.go): what holds SQLite's lock past its 10 s
		// wait is another program.
		return mdsearch.Errorf(mdsearch.KindUnavailable, "write index", path,
			"another program holds the index file open in a write (a SQLite browser, a backup or sync tool): close it, then run again; what was committed before is kept",
			"the index stayed locked for 10 s: %v", err)
	case sqliteCantOpen, sqliteIOErr:
		return mdsearch.Errorf(mdsearch.KindUnavailable, "open index", path,
			"check that "+filepath.Dir(path)+" exists, is writable, has free space and is not on a read-only mount; SQLite keeps "+
				filepath.Base(path)+"-wal and -shm beside the index",
			"cannot read or write the index or its -wal/-shm files: %v", err)
	}
	return err
}

// damaged is the error for an index whose pages SQLite cannot read, met
// while doing op.
func damaged(op, path string, err error) error {
	return mdsearch.Errorf(mdsearch.KindUnavailable, op, path,
		"your notes are not affected: delete the index file, with its -wal and -shm files, and run `mdsearch index DIR` to rebuild it",
		"%w: %v", ErrDamaged, err)
}

// Replaced reports, as an error, that the index path no longer names the
// file Open opened: it was deleted or replaced (a new index built at the
// same path) while this process had it open. SQLite shares the -wal and
// -shm files by path, so this process must not touch the index again.
func (s *Store) Replaced() error {
	if s.file == nil {
		return nil
	}
	// Through the path as given: a symlink repointed at another index
	// replaces it as surely as a file moved over it.
	for _, p := range []string{s.path, s.named} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err != nil || !os.SameFile(fi, s.file) {
			return mdsearch.Errorf(mdsearch.KindUnavailable, "index", s.path,
				"if it was deleted, delete "+filepath.Base(s.path)+"-wal and -shm too before indexing again; a running serve, mcp or watch switches to the new index",
				"%w; this process no longer reads or writes it", mdsearch.ErrIndexReplaced)
		}
	}
	return nil
}

// Check reads the whole index file for damage: SQLite's quick_check (the
// integrity check without the cross-checks of indexes against tables).
func (s *Store) Check(ctx context.Context) error {
	lines, err := column[string](s.r.QueryContext(ctx, `PRAGMA quick_check`))
	switch {
	case err != nil:
		return err
	case len(lines) == 1 && lines[0] == "ok":
		return nil
	}
	return damaged("check index", s.path, errors.New(checkFindings(lines)))
}

// checkFindings is quick_check's first three findings on one line, as
// every message of mdsearch is. A row may hold several lines, the first
// naming the database ("*** in database main ***"), which says nothing.
func checkFindings(rows []string) string {
	var out []string
	for _, r := range rows {
		for l := range strings.Lines(r) {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "*** in database ") && len(out) < 3 {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "; ")
}

// fileError explains the usual ways a file given as an index cannot be
// used, by SQLite's result code. It is for a file not known to be ours: a
// malformed one is "not an index", where Explain, for ours, says damaged.
func fileError(path string, err error) error {
	var me *mdsearch.Error
	if errors.As(err, &me) {
		return err
	}
	switch sqliteCode(err) {
	case sqliteReadOnly:
		return mdsearch.Errorf(mdsearch.KindUnavailable, "open index", path,
			readOnlyHint(path), "the index or its folder is read-only: %v", err)
	case sqliteFull, sqliteCantOpen, sqliteIOErr:
		return Explain(path, err)
	case sqliteCorrupt, sqliteNotADB:
		return mdsearch.Errorf(mdsearch.KindInvalid, "open index", path,
			"pass another --index path, or delete this file to start over", "%w: %v", ErrNotIndex, err)
	}
	return mdsearch.Errorf(mdsearch.KindInternal, "open index", path, "", "%v", err)
}
