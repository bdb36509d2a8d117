package testenv

import (
	"os"
	"sync"
	"testing"
)

// ReadOnly makes the file at path one this process cannot open for
// writing, as a user's chmod 444 does, and returns what makes it writable
// again (run at the test's end too). Root writes whatever the mode says:
// as root the file is made immutable instead (Linux's chattr +i, which
// stops root too), and the test is skipped where that cannot be done.
func ReadOnly(tb testing.TB, path string) (restore func()) {
	tb.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	lock, unlock := func() error { return os.Chmod(path, 0o444) }, func() error { return os.Chmod(path, fi.Mode().Perm()) }
	if os.Geteuid() == 0 {
		lock, unlock = func() error { return setImmutable(path, true) }, func() error { return setImmutable(path, false) }
	}
	if err := lock(); err != nil && os.Geteuid() == 0 {
		tb.Skipf("running as root, which ignores file modes, and %s cannot be made immutable here: %v", path, err)
	} else if err != nil {
		tb.Fatal(err)
	}
	restore = sync.OnceFunc(func() {
		if err := unlock(); err != nil {
			tb.Errorf("make %s writable again: %v", path, err)
		}
	})
	tb.Cleanup(restore) // before t.TempDir's removal, which an immutable file would stop
	return restore
}
