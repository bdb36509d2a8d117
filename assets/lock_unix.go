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
	"time"

	"github.com/mdsearch/mdsearch"
)

// lockName is the file in the cache root that setup runs lock in turn.
const lockName = ".setup.lock"

// locking says setups of one cache take turns here.
const locking = true

// lockPoll is how often a waiting setup retries the lock.
const lockPoll = 100 * time.Millisecond

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
	for told := false; ; told = true {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			break
		}
		if !told {
			log("%s is installing into %s; waiting", holder(f), home)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
	if err != nil {
		f.Close()
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "setup", path, "", "cannot lock the cache: %v", err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		f.Truncate(0)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
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
