//go:build unix

package flock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWait: a second lock of a held file waits, says so once, and takes
// the lock once it is released; a context that ends first stops the wait.
func TestWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	first, second := open(), open()
	if err := Wait(context.Background(), first, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*Poll)
	defer cancel()
	told := 0
	if err := Wait(ctx, second, func() { told++ }); !errors.Is(err, context.DeadlineExceeded) || told != 1 {
		t.Fatalf("held: %v, told %d times", err, told)
	}
	go func() { time.Sleep(2 * Poll); Unlock(first) }()
	if err := Wait(context.Background(), second, nil); err != nil {
		t.Fatalf("after release: %v", err)
	}
}
