package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSharedPathHeader: where two collections hold one path, a search
// result's header names the note as COLLECTION:PATH, and `read` takes
// what the header shows; a path one collection holds stays bare.
func TestSharedPathHeader(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, "homelab"), 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, text := range map[string]string{
		"homelab/Backups.md": "# Backups\n\nThe work laptop has a restore drill every month.\n",
		"Drills.md":          "# Drills\n\nA restore drill checklist.\n",
	} {
		if err := os.WriteFile(filepath.Join(work, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"index", "../sample-vault", "--name", "home"}, {"index", work, "--name", "work"}} {
		if code, _, errOut := run(t, index, args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	code, out, errOut := run(t, index, "search", "restore drill", "--mode", "keyword", "-n", "10", "--brief")
	if code != 0 {
		t.Fatalf("search: %d %s", code, errOut)
	}
	headers := regexp.MustCompile(`(?m)^\d+\. \*\*([^*]+)\*\*`).FindAllStringSubmatch(out, -1)
	seen := map[string]bool{}
	for _, h := range headers {
		seen[h[1]] = true
	}
	for _, want := range []string{"home:homelab/Backups.md", "work:homelab/Backups.md", "Drills.md"} {
		if !seen[want] {
			t.Errorf("no header names %q:\n%s", want, out)
		}
	}
	if seen["homelab/Backups.md"] {
		t.Errorf("a header names the shared path bare:\n%s", out)
	}
	for _, p := range []string{"home:homelab/Backups.md", "work:homelab/Backups.md"} {
		if code, out, errOut := run(t, index, "read", p); code != 0 || !strings.HasPrefix(out, "# Backups") {
			t.Errorf("read %s: %d %s%s", p, code, out, errOut)
		}
	}
}
