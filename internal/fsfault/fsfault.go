// Package fsfault is where tests make the file system fail as it fails for
// a user without permission: tests may run as root, who lists any folder
// whatever its mode, so a chmod cannot make one unreadable.
//
// Outside the pipeline (docs/architecture.md): the vault lists folders
// through it, and tests of the vault and of what walks it set it.
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

// Deny makes the walk meet paths (absolute, symlinks resolved) as a user
// without permission meets them: listing a folder among them fails, and so
// does the stat of a file among them through its folder's listing. undo
// puts os.ReadDir back.
func Deny(paths ...string) (undo func()) {
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
	return func() { ReadDir = os.ReadDir }
}

// denied is a folder's entry whose stat fails for want of permission.
type denied struct{ os.DirEntry }

func (d denied) Info() (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "lstat", Path: d.Name(), Err: fs.ErrPermission}
}
