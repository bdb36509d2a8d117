package store

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// leftoverPrefix starts the name of the file createFile makes an index in
// before linking it into place: ".NAME.db.new-PID-RANDOM".
func leftoverPrefix(abs string) string { return "." + filepath.Base(abs) + ".new-" }

// removeLeftovers deletes what a creation of the index at abs killed
// midway (kill -9, a crash) left beside it: the file it was being made in
// and that file's journal. A file goes only when it is provably such a
// leftover: named as createFile names them, with the ID of a process that
// no longer runs, its lock free, and empty or SQLite. Anything else is
// left as it is; failures are ignored, as the next run tries again.
func removeLeftovers(abs string) {
	prefix := leftoverPrefix(abs)
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(abs), globEscape(prefix)+"*"))
	for _, name := range names {
		pid, ok := leftoverPID(filepath.Base(name), prefix)
		if ok && pid != os.Getpid() && !processRuns(pid) && leftoverFile(name) {
			for _, side := range []string{"-journal", "-wal", "-shm"} {
				os.Remove(name + side)
			}
			os.Remove(name)
		}
	}
}

// leftoverPID is the process ID in the name of a file createFile made
// ("PID-RANDOM" after prefix); false for its journal and other names.
func leftoverPID(base, prefix string) (int, bool) {
	pid, rnd, ok := strings.Cut(strings.TrimPrefix(base, prefix), "-")
	if !ok || rnd == "" || strings.Trim(rnd, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(pid)
	return n, err == nil && n > 0
}

// leftoverFile reports whether name is a regular file, empty or SQLite,
// whose lock no process holds.
func leftoverFile(name string) bool {
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	if n != 0 && !bytes.Equal(head[:n], []byte("SQLite format 3\x00")) {
		return false
	}
	return lockFree(f)
}

// globEscape escapes the characters filepath.Glob reads as a pattern.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	return r.Replace(s)
}
