//go:build unix

package store

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// writable reports whether this process may write path: a file, or a
// folder to create files in.
func writable(path string) bool { return unix.Access(path, unix.W_OK) == nil }

// linkCount is how many names (hard links) the file fi describes has; 1
// where that cannot be told.
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
