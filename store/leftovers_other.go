//go:build !unix

package store

import "os"

// lockFile does nothing where flock is not available.
func lockFile(*os.File) {}

// lockFree says no: without a lock to ask, a file may be in use.
func lockFree(*os.File) bool { return false }

// processRuns says yes: without a way to ask, the process may run.
func processRuns(int) bool { return true }
