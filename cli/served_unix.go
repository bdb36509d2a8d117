//go:build unix

package cli

import (
	"errors"
	"syscall"
)

// alive reports whether a process of that ID runs (signal 0 checks
// without sending anything).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
