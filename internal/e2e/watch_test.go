package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatch runs `mdsearch watch` on an index and checks, with separate
// `mdsearch search` processes, that an edit is found within 2 s and a
// deleted note is gone as fast.
func TestWatch(t *testing.T) {
	f := newFixture(t)
	startServer(t, "watching", "watch", "--index", f.db)

	// hit reports whether a keyword search for word finds the new text;
	// err means the search itself failed.
	hit := func(word string) (bool, string, error) {
		out, err := exec.Command(bin, "search", word, "--mode", "keyword", "--json", "--index", f.db).Output()
		if err != nil {
			return false, string(out), err
		}
		var resp struct {
			Results []struct{ Path, Text string }
		}
		if err := json.Unmarshal(out, &resp); err != nil {
			return false, string(out), fmt.Errorf("search --json: %v", err)
		}
		for _, r := range resp.Results {
			if r.Path == "kitchen/Knife Care.md" && strings.Contains(r.Text, "xylophonic edge") {
				return true, string(out), nil
			}
		}
		return false, string(out), nil
	}
	note := filepath.Join(f.vault, "kitchen", "Knife Care.md")
	old, err := os.ReadFile(note)
	if err != nil {
		t.Fatal(err)
	}
	writeNote(t, note, string(old)+"\n## Honing\n\nA ceramic rod realigns the xylophonic edge between sharpenings.\n")
	took := eventually(t, 2*time.Second, "edited note found", func() (bool, string) {
		ok, out, err := hit("xylophonic")
		return ok && err == nil, fmt.Sprint(out, err)
	})
	t.Logf("edit found after %v", took)

	if err := os.Remove(note); err != nil {
		t.Fatal(err)
	}
	took = eventually(t, 2*time.Second, "deleted note gone", func() (bool, string) {
		ok, out, err := hit("xylophonic")
		return !ok && err == nil, fmt.Sprint(out, err)
	})
	t.Logf("deletion applied after %v", took)
}
