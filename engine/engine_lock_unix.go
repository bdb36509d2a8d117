//go:build unix

package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/flock"
)

// lockIndex takes an exclusive advisory lock next to the index file, so two
// processes indexing the same file take turns instead of interleaving. When
// another process holds it, wait is told once, with the holder's process
// ID (the holder writes it into the lock file), and the run waits until the
// lock is free or ctx ends.
//
// The lock file is opened without following a symlink, and used only when
// it is empty or holds what mdsearch writes there ("mdsearch pid N", or
// the bare ID older versions wrote): a file of
// that name that is someone else's (a project's Cargo.lock next to an
// index named Cargo) is left as it is, and the run refused.
func lockIndex(ctx context.Context, indexPath string, wait func(string)) (unlock func(), err error) {
	path := indexPath + ".lock"
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, foreignLock(path, "a symlink")
	}
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "lock index", path, "", "%v", err)
	}

	waited := false
	err = flock.Wait(ctx, f, func() {
		if wait != nil {
			waited = true
			wait(waitMessage(indexPath, path))
		}
	})
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		f.Close()
		return nil, err
	}
	if err != nil {
		f.Close()
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "lock index", path, "", "%v", err)
	}
	// Checked while held: only a holder writes the file, so what it holds
	// now is a past holder's, or not mdsearch's at all.
	if why := notOurLock(f); why != "" {
		flock.Unlock(f)
		f.Close()
		return nil, foreignLock(path, why)
	}
	f.Truncate(0)
	f.WriteAt([]byte(lockMark+strconv.Itoa(os.Getpid())+"\n"), 0)
	if waited { // the wait was said; so is its end, or it reads as hung
		wait("the other index run on " + indexPath + " is done; this one goes on")
	}
	return func() {
		f.Truncate(0)
		flock.Unlock(f)
		f.Close()
	}, nil
}

// lockUsable is the error lockIndex would give for a lock file that is
// not mdsearch's (a symlink, another program's file), or nil, without
// creating or locking it.
func lockUsable(indexPath string) error {
	path := indexPath + ".lock"
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return foreignLock(path, "a symlink")
	case err != nil:
		return nil // none yet, or unreadable: lockIndex says
	}
	defer f.Close()
	if why := notOurLock(f); why != "" {
		return foreignLock(path, why)
	}
	return nil
}

// indexHeld reports, without touching the lock, whether a live process
// holds the index's lock: an index run is writing it now (this process's
// own included). Its holder writes its process ID into the lock file and
// empties it when done; a probe of the lock itself could make a waiting
// run see a holder that is not there.
func indexHeld(indexPath string) bool {
	b, err := os.ReadFile(indexPath + ".lock")
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(b), lockMark)))
	if err != nil || pid <= 0 {
		return false
	}
	err = syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// lockMark starts what a holder writes into the lock file, before its
// process ID (older versions wrote the ID alone).
const lockMark = "mdsearch pid "

// notOurLock says why an open lock file is not one mdsearch wrote, or "".
func notOurLock(f *os.File) string {
	fi, err := f.Stat()
	switch {
	case err != nil:
		return err.Error()
	case !fi.Mode().IsRegular():
		return "not a regular file"
	case fi.Size() == 0:
		return ""
	case fi.Size() > 32:
		return "a file mdsearch did not write"
	}
	b := make([]byte, fi.Size())
	n, err := f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return err.Error()
	}
	if n > 0 && lockPID(string(b[:n])) <= 0 {
		return "a file mdsearch did not write"
	}
	return ""
}

// lockPID is the process ID a lock file's text names, or 0.
func lockPID(text string) int {
	pid, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSuffix(text, "\n"), lockMark))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// foreignLock is the error for a lock file mdsearch will not touch.
func foreignLock(path, what string) error {
	return mdsearch.Errorf(mdsearch.KindInvalid, "lock index", path,
		"mdsearch keeps its lock there and left this one as it is: move it, or pass --index another path",
		"%s is in the way", what)
}

// waitMessage says what the run waits for.
func waitMessage(indexPath, lockPath string) string {
	who := "another mdsearch process"
	if b, err := os.ReadFile(lockPath); err == nil {
		if pid := lockPID(string(b)); pid > 0 {
			who = fmt.Sprintf("another mdsearch process (pid %d)", pid)
		}
	}
	return fmt.Sprintf("waiting for %s that is indexing %s to finish (lock %s)", who, indexPath, lockPath)
}
