//go:build unix

package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes f's advisory lock, held until f is closed, so removeLeftovers
// leaves the file alone while it is being made. (flock locks are apart
// from the fcntl locks SQLite takes.)
func lockFile(f *os.File) { _ = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) }

// lockFree reports whether no one holds f's lock, taking and releasing it.
func lockFree(f *os.File) bool {
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return false
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return true
}

// processRuns reports whether a process of this ID exists (one of another
// user's included).
func processRuns(pid int) bool {
	err := unix.Kill(pid, 0)
	return !errors.Is(err, unix.ESRCH)
}
