package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// TestWatchInterrupted: a watch stopped by a signal (its context ends)
// while idle exits 0 and says nothing; stopped while a refresh runs, it
// exits 130, as an interrupted index does, saying what it left for the
// next run.
func TestWatchInterrupted(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	cases := []struct {
		name   string
		busy   bool // a refresh is waiting for the embedding server
		code   int
		stderr string
	}{
		{name: "idle", code: 0},
		{name: "in a refresh", busy: true, code: 130,
			stderr: "mdsearch: watch: interrupted: stopped with 2 windows not embedded; the next index or watch finishes them"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newOllamaServer(t, 8)
			vault, index := t.TempDir(), filepath.Join(t.TempDir(), "index.db")
			writeFile(t, filepath.Join(vault, "a.md"), "# A\n\nalpha\n")
			remote := []string{"--embedder", "ollama", "--embed-url", s.URL}
			if code, _, errOut := run(t, index, append([]string{"index", vault}, remote...)...); code != 0 {
				t.Fatalf("index: %d %s", code, errOut)
			}
			var out, errOut testenv.SyncBuffer
			env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: os.Getenv}
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			exit := make(chan int, 1)
			go func() {
				exit <- Main(ctx, env, append([]string{"watch", "--index", index, "--debounce", "20ms"}, remote...))
			}()
			waitFor(t, "the start's catch-up", func() bool { return strings.Contains(out.String(), "caught up") })
			if c.busy {
				s.set(hang)
				asked := s.requests.Load()
				writeFile(t, filepath.Join(vault, "b.md"), "# B\n\nbeta\n")
				waitFor(t, "the refresh's embedding request", func() bool { return s.requests.Load() > asked })
			}
			stop()
			var code int
			select {
			case code = <-exit:
			case <-time.After(10 * time.Second):
				t.Fatal("watch did not stop within 10 s")
			}
			said := errOut.String()
			if code != c.code || !strings.Contains(said, c.stderr) || c.stderr == "" && strings.Contains(said, "interrupted") {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant %q", code, c.code, errOut.String(), c.stderr)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond for 10 s at most.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 10 s", what)
		}
	}
}

// A watch says each collection's first catch-up, and later ones (a
// collection indexed while it runs makes it catch up with every one)
// only when they changed something; a collection it starts watching
// while it runs is named as the first ones were.
func TestWatchReport(t *testing.T) {
	var out, errOut strings.Builder
	r := newWatchReport(&Env{Stdout: &out, Stderr: &errOut, cmd: "watch"})
	none, some := &mdsearch.IndexStats{}, &mdsearch.IndexStats{Changed: 1}
	r.refreshed("v", nil, none, nil)
	r.watching([]string{"w"})
	r.refreshed("v", nil, none, nil)
	r.refreshed("w", nil, none, nil)
	r.refreshed("v", nil, some, nil)
	r.refreshed("v", []string{"a.md"}, none, nil)
	r.refreshed("w", nil, none, errors.New("failed"))
	want := []string{"v: caught up: 0 added, 0 changed", "w: caught up: 0 added, 0 changed", "v: caught up: 0 added, 1 changed", "v: 1 file (a.md): 0 added"}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("printed\n%s\nwant %d lines", out.String(), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want %q…", i+1, lines[i], w)
		}
	}
	if errOut.String() != "mdsearch: watch: watching w\n" {
		t.Errorf("stderr %q, want the new collection named", errOut.String())
	}
}
