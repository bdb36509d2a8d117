//go:build unix

package assets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/flock"
)

// lockName is the file in the cache root that setup runs lock in turn.
const lockName = ".setup.lock"

// locking says setups of one cache take turns here.
const locking = true

// lockHome takes an exclusive lock on the cache root, so two setups take
// turns: the second waits (saying so once on log), then finds installed
// what the first installed, instead of deleting the first's temporary
// files as leftovers. It waits until the lock is free or ctx ends.
func lockHome(ctx context.Context, home string, log func(string, ...any)) (unlock func(), err error) {
	path := filepath.Join(home, lockName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, homeHint, "cannot lock the cache: %v", errors.Unwrap(err))
	}
	err = flock.Wait(ctx, f, func() { log("%s is installing into %s; waiting", holder(f), home) })
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		f.Close()
		return nil, err
	}
	if err != nil {
		f.Close()
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, "", "cannot lock the cache: %v", err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		f.Truncate(0)
		flock.Unlock(f)
		f.Close()
	}, nil
}

// holder names the setup that holds the lock, by the process ID it wrote.
func holder(f *os.File) string {
	b := make([]byte, 16)
	n, _ := f.ReadAt(b, 0)
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil && pid > 0 {
		return fmt.Sprintf("another mdsearch setup (pid %d)", pid)
	}
	return "another mdsearch setup"
}
