// Package fsfault is where tests make the file system fail as it fails for
// a user without permission: tests may run as root, who lists any folder
// and reads any file whatever its mode, so a chmod cannot make one
// unreadable.
//
// Outside the pipeline (docs/architecture.md): the vault lists folders and
// opens notes and ignore files through it, setup checks through it that
// the cache can be written, and tests of the vault, of what walks it and
// of setup set it.
package fsfault

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// ReadDir lists a folder for the vault's walk: os.ReadDir, unless Deny
// put a failing one in its place.
var ReadDir = os.ReadDir

// OpenFile opens a file the vault reads (a note, an ignore file):
// os.OpenFile, unless DenyRead put a failing one in its place.
var OpenFile = os.OpenFile

// OpenIn opens rel inside root for reading, as the vault opens a note, so
// a folder swapped for a symlink after the path was checked cannot lead
// out of it; abs is the same file's absolute path, which Deny and
// DenyRead match. root.OpenFile, unless one of them put a failing one in
// its place.
var OpenIn = openIn

func openIn(root *os.Root, rel, abs string, flag int) (*os.File, error) {
	return root.OpenFile(rel, flag, 0)
}

// Stat stats a note search checks for edits since it was indexed:
// os.Stat, unless Deny put a failing one in its place.
var Stat = os.Stat

// Lstat stats a path the vault must tell apart from a missing one (an
// ignore file it could not open): os.Lstat, unless Deny put a failing one
// in its place.
var Lstat = os.Lstat

// Deny makes the walk meet paths (absolute, symlinks resolved) as a user
// without permission meets them: listing a folder among them fails, and so
// does the stat of a file among them through its folder's listing, and
// opening or stating anything inside a folder among them. undo puts
// os.ReadDir, os.OpenFile and os.Lstat back.
func Deny(paths ...string) (undo func()) {
	within := func(name string) bool {
		for dir := filepath.Dir(name); ; dir = filepath.Dir(dir) {
			if slices.Contains(paths, dir) {
				return true
			}
			if dir == filepath.Dir(dir) {
				return false
			}
		}
	}
	OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		if within(name) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return os.OpenFile(name, flag, perm)
	}
	OpenIn = func(root *os.Root, rel, abs string, flag int) (*os.File, error) {
		if within(abs) {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: fs.ErrPermission}
		}
		return root.OpenFile(rel, flag, 0)
	}
	Lstat = func(name string) (fs.FileInfo, error) {
		if within(name) {
			return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrPermission}
		}
		return os.Lstat(name)
	}
	Stat = func(name string) (fs.FileInfo, error) {
		if within(name) {
			return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrPermission}
		}
		return os.Stat(name)
	}
	ReadDir = func(dir string) ([]os.DirEntry, error) {
		if slices.Contains(paths, dir) {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrPermission}
		}
		entries, err := os.ReadDir(dir)
		for i, e := range entries {
			if slices.Contains(paths, filepath.Join(dir, e.Name())) {
				entries[i] = denied{e}
			}
		}
		return entries, err
	}
	return func() { ReadDir, OpenFile, OpenIn, Lstat, Stat = os.ReadDir, os.OpenFile, openIn, os.Lstat, os.Stat }
}

// DenyRead makes the files at paths (absolute, symlinks resolved) fail to
// open, as a file of mode 000 does for a user: it is listed and its stat
// works, but it cannot be read. undo puts os.OpenFile back.
func DenyRead(paths ...string) (undo func()) {
	OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		if slices.Contains(paths, name) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return os.OpenFile(name, flag, perm)
	}
	OpenIn = func(root *os.Root, rel, abs string, flag int) (*os.File, error) {
		if slices.Contains(paths, abs) {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: fs.ErrPermission}
		}
		return root.OpenFile(rel, flag, 0)
	}
	return func() { OpenFile, OpenIn = os.OpenFile, openIn }
}

// denied is a folder's entry whose stat fails for want of permission.
type denied struct{ os.DirEntry }

func (d denied) Info() (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "lstat", Path: d.Name(), Err: fs.ErrPermission}
}

// CreateTemp makes a file in a folder, for setup's check that the cache
// can be written: os.CreateTemp, unless DenyWrite put a failing one in its
// place.
var CreateTemp = os.CreateTemp

// DenyWrite makes creating a file in the folders dirs fail as it fails
// for a user without write permission on them. undo puts os.CreateTemp
// back.
func DenyWrite(dirs ...string) (undo func()) {
	CreateTemp = func(dir, pattern string) (*os.File, error) {
		if slices.Contains(dirs, dir) {
			return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: fs.ErrPermission}
		}
		return os.CreateTemp(dir, pattern)
	}
	return func() { CreateTemp = os.CreateTemp }
}
