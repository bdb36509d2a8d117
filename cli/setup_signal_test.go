//go:build unix

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// TestSetupStopsOnSIGPIPE: a reader gone from setup's pipe stops it as
// Ctrl-C does (it then cleans up), rather than being ignored or killing it.
func TestSetupStopsOnSIGPIPE(t *testing.T) {
	home := t.TempDir()
	// Another setup holds the cache: this one waits, which a signal ends.
	f, err := os.OpenFile(filepath.Join(home, ".setup.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var errOut testenv.SyncBuffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: &testenv.SyncBuffer{}, Stderr: &errOut,
		Getenv: func(k string) string { return map[string]string{"MDSEARCH_HOME": home}[k] }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- Main(ctx, e, []string{"setup"}) }()
	for !strings.Contains(errOut.String(), "waiting") {
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(os.Getpid(), syscall.SIGPIPE)
	select {
	case code := <-done:
		if code != 130 {
			t.Errorf("exit %d after SIGPIPE, want 130 (interrupted):\n%s", code, errOut.String())
		}
	case <-time.After(5 * time.Second):
		cancel()
		<-done
		t.Fatalf("setup went on after SIGPIPE:\n%s", errOut.String())
	}
}
