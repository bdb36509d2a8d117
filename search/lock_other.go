//go:build !unix

package search

// lockIndex is a no-op where flock is unavailable; SQLite's own locking
// still keeps the file consistent.
func lockIndex(string) (func(), error) { return func() {}, nil }
