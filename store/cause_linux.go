package store

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// notByMode says why path cannot be written when its mode would let this
// process write it: "" when the mode is the reason, or none is known.
// chattr's immutable or append-only attribute and a read-only mount stop
// root too, whatever the mode says.
func notByMode(path string) string {
	var fs unix.Statfs_t
	if unix.Statfs(path, &fs) == nil && fs.Flags&unix.ST_RDONLY != 0 {
		return "on a read-only file system"
	}
	st, ok := statx(path)
	switch set := st.Attributes & st.Attributes_mask; {
	case !ok:
		return ""
	case set&unix.STATX_ATTR_IMMUTABLE != 0:
		return "immutable: `chattr -i` clears it"
	case set&unix.STATX_ATTR_APPEND != 0:
		return "append-only: `chattr -a` clears it"
	}
	if uid := os.Geteuid(); uid != 0 && int(st.Uid) != uid {
		return fmt.Sprintf("owned by another user (uid %d), mode %v", st.Uid, os.FileMode(st.Mode).Perm())
	}
	return ""
}

// appendOnly reports whether path has chattr's append-only attribute:
// access(2) says such a file can be written, but SQLite, which writes in
// place, may not.
func appendOnly(path string) bool {
	st, ok := statx(path)
	return ok && st.Attributes&st.Attributes_mask&unix.STATX_ATTR_APPEND != 0
}

// statx is path's statx(2) answer, with its attributes (chattr's).
func statx(path string) (unix.Statx_t, bool) {
	var st unix.Statx_t
	return st, unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_BASIC_STATS, &st) == nil
}
