//go:build !unix

package engine

import "context"

// lockIndex is a no-op where flock is unavailable; SQLite's own locking
// still keeps the file consistent.
func lockIndex(context.Context, string, func(string)) (func(), error) { return func() {}, nil }

// indexHeld cannot tell without flock's lock file: no run is writing.
func indexHeld(string) bool { return false }

// lockUsable has no lock file to check where flock is unavailable.
func lockUsable(string) error { return nil }
