package fileident

import "syscall"

// Of returns the identity of the regular file at path; ok is false when
// it cannot be read or is not a regular file.
func Of(path string) (id ID, ok bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return ID{}, false
	}
	return ID{
		Size:  st.Size,
		Mtime: st.Mtim.Nano(),
		Ctime: st.Ctim.Nano(),
		Ino:   st.Ino,
		Dev:   uint64(st.Dev),
	}, true
}
