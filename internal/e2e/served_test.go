package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
)

// TestServedSearch: while `serve` runs on an index, `search` of that index
// answers as a search of its own would, byte for byte (the served engine
// and the local one read the same index with the same settings); serve
// leaves its rendezvous while it runs and takes it away when it stops.
func TestServedSearch(t *testing.T) {
	requireModel(t)
	f := newFixture(t)
	home, err := assets.Home(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	served := filepath.Join(home, "served")
	before, _ := os.ReadDir(served)

	p, _ := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch")
	after, _ := os.ReadDir(served)
	if len(after) != len(before)+1 {
		t.Fatalf("serve left no rendezvous in %s (%d files before, %d after)", served, len(before), len(after))
	}
	search := func(noServe bool, args ...string) string {
		cmd := exec.Command(bin, append([]string{"search", "--index", f.db}, args...)...)
		if noServe {
			cmd.Env = append(os.Environ(), "MDSEARCH_NO_SERVE=1")
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("search %v: %v", args, err)
		}
		return string(out)
	}
	for _, args := range [][]string{
		{"how long did the last restore take?"},
		{"-n", "3", "--brief", "--mode", "semantic", "sourdough starter"},
		{"--tag", "homelab", "--max-tokens", "300", "backups"},
	} {
		if got, want := search(false, args...), search(true, args...); got != want {
			t.Errorf("search %v while serve runs:\n%s\nsearched alone:\n%s", args, got, want)
		}
	}
	p.stop(t)
	if left, _ := os.ReadDir(served); len(left) != len(before) {
		t.Errorf("serve stopped and left its rendezvous: %d files, %d before", len(left), len(before))
	}
}

// TestServedSearchIsTheServes: a search that a running serve answers
// does not load the model itself. Serve and search read a private copy of
// the model; once the copy is gone, a hybrid search still answers (the
// serve's engine holds the model), while the same search told not to ask
// the serve falls back to keyword search, saying why.
func TestServedSearchIsTheServes(t *testing.T) {
	requireModel(t)
	f := newFixture(t)
	home, err := assets.Home(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	from := os.Getenv(sentenceencoder.EnvModelDir)
	if from == "" {
		from = filepath.Join(home, sentenceencoder.ModelDirName)
	}
	model := filepath.Join(t.TempDir(), "model")
	copyDir(t, from, model)
	env := append(os.Environ(), sentenceencoder.EnvModelDir+"="+model)

	serve := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch")
	serve.Env = env
	startCmd(t, "http://", serve)
	search := func(extra ...string) (string, error) {
		cmd := exec.Command(bin, "search", "--index", f.db, "-n", "1", "--brief", "how long did the last restore take?")
		cmd.Env = append(env, extra...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	want, err := search()
	if err != nil || !strings.Contains(want, "Restore") {
		t.Fatalf("search while serve runs: %v\n%s", err, want)
	}
	if err := os.RemoveAll(model); err != nil {
		t.Fatal(err)
	}
	if got, err := search(); err != nil || got != want {
		t.Errorf("with the model gone, a search serve answers gave (%v):\n%s\nwant:\n%s", err, got, want)
	}
	if out, _ := search("MDSEARCH_NO_SERVE=1"); !strings.Contains(out, "semantic search unavailable") {
		t.Errorf("with the model gone, a search of its own searched semantically:\n%s", out)
	}
}
