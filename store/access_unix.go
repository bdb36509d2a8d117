//go:build unix

package store

import "golang.org/x/sys/unix"

// writable reports whether this process may create files in dir.
func writable(dir string) bool { return unix.Access(dir, unix.W_OK) == nil }
