package fileident

import (
	"os"
	"syscall"
)

// Of returns the identity of the regular file at path; ok is false when
// it cannot be read or is not a regular file.
func Of(path string) (id ID, ok bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return ID{}, false
	}
	return fromStat(&st), true
}

// OfInfo is Of for a file already opened and stated, so the identity is
// the opened file's even if the path is replaced meanwhile.
func OfInfo(fi os.FileInfo) (id ID, ok bool) {
	st, isStat := fi.Sys().(*syscall.Stat_t)
	if !isStat || !fi.Mode().IsRegular() {
		return ID{}, false
	}
	return fromStat(st), true
}

func fromStat(st *syscall.Stat_t) ID {
	return ID{
		Size:  st.Size,
		Mtime: st.Mtim.Nano(),
		Ctime: st.Ctim.Nano(),
		Ino:   st.Ino,
		Dev:   uint64(st.Dev),
	}
}
