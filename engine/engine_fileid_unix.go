//go:build unix

package engine

import (
	"os"
	"strconv"
	"syscall"
)

// fileIdentity names the file fi describes by device and inode.
func fileIdentity(fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10), true
}
