//go:build !unix

package store

// writable reports whether this process may write path (a file, or a folder
// to create files in); without a way to ask, it says yes and SQLite reports
// what it cannot do.
func writable(path string) bool { return true }
