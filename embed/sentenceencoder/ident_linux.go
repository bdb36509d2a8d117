package sentenceencoder

import "syscall"

// identify returns what a stamp memo compares of the regular file at path;
// ok is false when it cannot be read or is not a regular file.
func identify(path string) (fileIdent, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return fileIdent{}, false
	}
	return fileIdent{
		Size:  st.Size,
		Mtime: st.Mtim.Nano(),
		Ctime: st.Ctim.Nano(),
		Ino:   st.Ino,
		Dev:   uint64(st.Dev),
	}, true
}
