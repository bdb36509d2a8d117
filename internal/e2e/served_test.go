package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch/assets"
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
