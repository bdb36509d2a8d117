//go:build unix

package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mdsearch/mdsearch"
)

// lockPoll is how often a waiting run retries the lock.
const lockPoll = 100 * time.Millisecond

// lockIndex takes an exclusive advisory lock next to the index file, so two
// processes indexing the same file take turns instead of interleaving. When
// another process holds it, wait is told once, with the holder's process
// ID (the holder writes it into the lock file), and the run waits until the
// lock is free or ctx ends.
func lockIndex(ctx context.Context, indexPath string, wait func(string)) (unlock func(), err error) {
	path := indexPath + ".lock"
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "lock index", path, "", "%v", err)
	}
	for told := false; ; told = true {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			break
		}
		if !told && wait != nil {
			wait(waitMessage(indexPath, path))
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
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "lock index", path, "", "%v", err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		f.Truncate(0)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// waitMessage says what the run waits for.
func waitMessage(indexPath, lockPath string) string {
	who := "another mdsearch process"
	if b, err := os.ReadFile(lockPath); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			who = fmt.Sprintf("another mdsearch process (pid %d)", pid)
		}
	}
	return fmt.Sprintf("waiting for %s that is indexing %s to finish (lock %s)", who, indexPath, lockPath)
}
