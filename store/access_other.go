//go:build !unix

package store

import "os"

// writable reports whether this process may write path (a file, or a folder
// to create files in); without a way to ask, it says yes and SQLite reports
// what it cannot do.
func writable(path string) bool { return true }

// linkCount is how many names the file fi describes has: 1 where that
// cannot be asked.
func linkCount(fi os.FileInfo) uint64 { return 1 }
