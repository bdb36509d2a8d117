//go:build unix

package flock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// Poll is how often a waiting process retries the lock.
const Poll = 100 * time.Millisecond

// Wait takes an exclusive lock on f, retrying every Poll while another
// process holds it; waiting is called once, on the first refusal. It
// returns ctx's error when ctx ends first, and the system's error when the
// lock cannot be taken at all. f stays open either way.
func Wait(ctx context.Context, f *os.File, waiting func()) error {
	for told := false; ; told = true {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if !told && waiting != nil {
			waiting()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(Poll):
		}
	}
}

// Unlock releases the lock Wait took on f.
func Unlock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
