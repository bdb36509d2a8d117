package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The hint of a refused write on an immutable or append-only index says
// so, not that its mode (which lets its owner write) is to blame, nor that
// it can be written now.
func TestReadOnlyHintImmutable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("chattr +i needs root and a file system that keeps the attribute: %v %s", err, out)
	}
	defer exec.Command("chattr", "-i", path).Run()
	got := readOnlyHint(path)
	if !strings.Contains(got, "index.db writable (it is immutable: `chattr -i` clears it)") || strings.Contains(got, "mode") {
		t.Errorf("hint %q", got)
	}
	// Append-only: access(2) says it can be written; SQLite may not.
	exec.Command("chattr", "-i", path).Run()
	if out, err := exec.Command("chattr", "+a", path).CombinedOutput(); err != nil {
		t.Fatalf("chattr +a: %v %s", err, out)
	}
	defer exec.Command("chattr", "-a", path).Run()
	if got := readOnlyHint(path); !strings.Contains(got, "index.db writable (it is append-only: `chattr -a` clears it)") {
		t.Errorf("append-only hint %q", got)
	}
	if why := notByMode(filepath.Dir(path)); why != "" {
		t.Errorf("a writable folder: %q", why)
	}
}
