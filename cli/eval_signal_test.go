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

// cancelAt is a stderr that stops the run (as Ctrl-C does) at the first
// line holding at.
type cancelAt struct {
	testenv.SyncBuffer
	at     string
	cancel context.CancelFunc
}

func (c *cancelAt) Write(b []byte) (int, error) {
	if strings.Contains(string(b), c.at) {
		c.cancel()
	}
	return c.SyncBuffer.Write(b)
}

// An interrupted eval says what it wrote before it stopped: the queries
// of --write-queries, the vectors of --embed-cache.
func TestEvalInterruptedSaysWhatWasWritten(t *testing.T) {
	dir := t.TempDir()
	gen, cache := dir+"/gen.jsonl", dir+"/vectors.gob"
	for _, c := range []struct {
		name  string
		args  []string
		model bool
		want  string
	}{
		{"nothing", []string{"--generate", "--embedder", "none", "--config", "sections-keyword"}, false, "interrupted: nothing was written"},
		{"queries", []string{"--generate", "--write-queries", gen, "--embedder", "none", "--config", "sections-keyword"}, false,
			"interrupted: no report; it wrote the queries to " + gen + "\n"},
		{"cache", []string{"--generate", "--embed-cache", cache, "--config", "sections-hybrid"}, true,
			"interrupted: no report; it wrote the vectors computed so far to the embedding cache " + cache + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.model {
				needModel(t)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			errOut := &cancelAt{at: "indexed", cancel: cancel}
			e := &Env{Stdin: strings.NewReader(""), Stdout: &testenv.SyncBuffer{}, Stderr: errOut, Getenv: os.Getenv}
			code := Main(ctx, e, append([]string{"eval", "--vault", "../sample-vault", "--tmp", dir}, c.args...))
			if code != 130 || !strings.Contains(errOut.String(), c.want) {
				t.Errorf("%q: exit %d, want 130 and %q:\n%s", c.args, code, c.want, errOut.String())
			}
		})
	}
}
