//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIndexSaysWhenItWaits: an index run on an index another process is
// indexing says on stderr what it waits for, then proceeds.
func TestIndexSaysWhenItWaits(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", "../sample-vault"); code != 0 {
		t.Fatal(errOut)
	}
	f, err := os.OpenFile(index+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	f.WriteString("4242\n")
	go func() {
		time.Sleep(400 * time.Millisecond)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}()
	code, _, errOut := run(t, index, "index", "../sample-vault")
	for _, want := range []string{"waiting for another mdsearch process (pid 4242)", index, index + ".lock", "is done; this one goes on"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not name %q:\n%s", want, errOut)
		}
	}
	if code != 0 {
		t.Errorf("exit %d after the lock was freed:\n%s", code, errOut)
	}
}
