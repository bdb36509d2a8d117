//go:build !unix

package search

import "context"

// lockIndex is a no-op where flock is unavailable; SQLite's own locking
// still keeps the file consistent.
func lockIndex(context.Context, string, func(string)) (func(), error) { return func() {}, nil }
