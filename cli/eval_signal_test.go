//go:build unix

package cli

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// pipeGone is a stderr whose reader leaves at the first line: it raises
// SIGPIPE, as writing to a closed pipe does, and gives the signal time
// to land.
type pipeGone struct {
	testenv.SyncBuffer
	once bool
}

func (p *pipeGone) Write(b []byte) (int, error) {
	if !p.once {
		p.once = true
		syscall.Kill(os.Getpid(), syscall.SIGPIPE)
		time.Sleep(200 * time.Millisecond)
	}
	return p.SyncBuffer.Write(b)
}

// TestEvalStopsOnSIGPIPE: eval whose reader leaves the pipe (`mdsearch
// eval ... 2>&1 | head -1`) stops as Ctrl-C does, and removes its
// throwaway indexes (SIGPIPE killed it and left them).
func TestEvalStopsOnSIGPIPE(t *testing.T) {
	tmp := t.TempDir()
	q := writeQueries(t, `{"query": "restore drill", "expected_path_contains": "Backups"}`)
	e := &Env{Stdin: strings.NewReader(""), Stdout: &testenv.SyncBuffer{}, Stderr: &pipeGone{}, Getenv: func(string) string { return "" }}
	code := Main(context.Background(), e, []string{"eval", "--vault", "../sample-vault", "--queries", q, "--tmp", tmp,
		"--embedder", "none", "--config", "sections-keyword,paragraph-keyword"})
	left, _ := os.ReadDir(tmp)
	if code != 130 || len(left) > 0 {
		t.Errorf("exit %d, want 130; left %d folders in the temporary folder", code, len(left))
	}
}
