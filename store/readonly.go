package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch/internal/plural"
)

// An index SQLite may not write when it opens it (mode 444, an immutable
// file, a read-only -wal or -shm) is opened for reading alone, without a
// word, and the connection stays so: every write fails with
// SQLITE_READONLY even once the file is made writable. SQLite shares that
// state among all of a process's connections to the file (through its
// -shm), so only closing them all and opening new ones picks the fix up:
// Writable says when that would help, Reopen does it.

// fileWritable is writable, replaced in tests (root may write anywhere).
var fileWritable = writable

// canWrite reports whether SQLite may write path: fileWritable, and not
// append-only, which access(2) does not tell.
func canWrite(path string) bool { return fileWritable(path) && !appendOnly(path) }

// IsReadOnly reports whether err is SQLite refusing a write because the
// index, its -wal or -shm file, or its folder could not be written when
// it was opened.
func IsReadOnly(err error) bool { return sqliteCode(err) == sqliteReadOnly }

// Writable reports whether opening the index again would give a
// connection that can write: it is still the file opened, and it, its
// -wal and -shm files and, where SQLite must make those, its folder can
// be written. SQLite gave the -wal and -shm files the index's mode when
// it made them, read-only then; they get back the write permission the
// index has now, so making the index writable is all a user has to do.
func (s *Store) Writable() bool {
	if s.Replaced() != nil || !canWrite(s.path) {
		return false
	}
	restoreSidecars(s.path)
	return len(readOnlyFiles(s.path)) == 0 && !folderNeeded(s.path)
}

// Reopen closes every connection to the index and returns the store
// opened on it anew, which writes if Writable said so. Nothing else may
// use s meanwhile, nor after: it is closed. The file is the one opened
// (Replaced), so it is not inspected again.
func (s *Store) Reopen() (*Store, error) {
	if err := s.Replaced(); err != nil {
		return nil, err
	}
	// sql.Open connects on first use: the new connections come after
	// the old are closed, and a failure here leaves s as it was.
	w, err := openDB(s.path, false, false)
	if err != nil {
		return nil, err
	}
	pool, err := openDB(s.path, true, false)
	if err != nil {
		w.Close()
		return nil, err
	}
	w.SetMaxOpenConns(1)
	n := &Store{path: s.path, named: s.named, file: s.file, w: w, pool: pool, changeLog: s.changeLog}
	r := *s.Reader // the same file: the same columns and tables
	r.r, r.stmts = pool, newStmtCache(pool)
	n.Reader = &r
	s.Close()
	return n, nil
}

// sidecars are the files SQLite keeps beside the index in WAL mode.
func sidecars(path string) []string { return []string{path + "-wal", path + "-shm"} }

// restoreSidecars adds to the -wal and -shm files the write permission
// the index has and they lack; nothing else changes.
func restoreSidecars(path string) {
	idx, err := os.Stat(path)
	if err != nil {
		return
	}
	for _, p := range sidecars(path) {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if add := idx.Mode().Perm() & 0o222 &^ fi.Mode().Perm(); add != 0 {
			_ = os.Chmod(p, fi.Mode().Perm()|add) // not ours to change: the hint names it
		}
	}
}

// readOnlyFiles lists the index and those of its -wal and -shm files
// that exist and cannot be written.
func readOnlyFiles(path string) []string {
	var out []string
	for _, p := range append([]string{path}, sidecars(path)...) {
		if _, err := os.Stat(p); err == nil && !canWrite(p) {
			out = append(out, p)
		}
	}
	return out
}

// folderNeeded reports whether SQLite must make a -wal or -shm file in a
// folder it cannot write to.
func folderNeeded(path string) bool {
	for _, p := range sidecars(path) {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return !dirWritable(filepath.Dir(path))
		}
	}
	return false
}

// readOnlyHint says what to make writable for SQLite to write the index:
// the files and the folder that cannot be written now, or, when all can,
// that it was opened before they could.
func readOnlyHint(path string) string {
	files, folder := readOnlyFiles(path), folderNeeded(path)
	dir := filepath.Dir(path)
	switch {
	case len(files) > 0 && folder:
		return makeWritable(files) + ", and the folder " + dir + " too, or pass --index a path you can write to"
	case len(files) > 0:
		return makeWritable(files) + ", or pass --index a path you can write to"
	case folder:
		return "the folder " + dir + " is read-only, and SQLite keeps the index's -wal and -shm files there: " +
			"make it writable, or pass --index a path in a folder you can write to"
	}
	return "it can be written now, but could not when this process opened it: run the command again " +
		"(serve, mcp and watch open it anew at their next write)"
}

// makeWritable says to make files writable, the first named by its path
// and the rest (beside it) by their names, with what stops each: its
// mode, or what overrides the mode (notByMode).
func makeWritable(files []string) string {
	names := make([]string, len(files))
	why := make([]string, len(files))
	for i, p := range files {
		names[i] = filepath.Base(p)
		if i == 0 {
			names[i] = p
		}
		if why[i] = notByMode(p); why[i] == "" {
			if fi, err := os.Stat(p); err == nil {
				why[i] = "mode " + fi.Mode().Perm().String()
			}
		}
	}
	if slices.ContainsFunc(why, func(m string) bool { return m != why[0] }) {
		for i := range names {
			names[i] += " (" + why[i] + ")"
		}
		return "make " + plural.List(names) + " writable"
	}
	if mode, ok := strings.CutPrefix(why[0], "mode "); ok {
		its := plural.Noun(len(files), "its", "their")
		return "make " + plural.List(names) + " writable (" + its + " mode is " + mode + ")"
	}
	return "make " + plural.List(names) + " writable (" + plural.Noun(len(files), "it is ", "they are ") + why[0] + ")"
}
