//go:build unix

package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// TestLockIndex: the lock file is taken when it is new, empty or holds a
// process ID (one a crashed run left), and a file of that name that is not
// mdsearch's is refused untouched: a project's lock file, a symlink.
func TestLockIndex(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, content string
		ok            bool
	}{
		{"new", "", true},
		{"empty", "", true},
		{"crashed run", "mdsearch pid 12345\n", true},
		{"older crashed run", "12345\n", true},
		{"project lock", "version = 3\n[[package]]\nname = \"x\"\n", false},
		{"short foreign", "{}\n", false},
	} {
		index := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
		lock := index + ".lock"
		if tt.name != "new" {
			if err := os.WriteFile(lock, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		unlock, err := lockIndex(context.Background(), index, nil)
		if !tt.ok {
			b, _ := os.ReadFile(lock)
			if err == nil || mdsearch.KindOf(err) != mdsearch.KindInvalid || string(b) != tt.content {
				t.Errorf("%s: err %v, file now %q", tt.name, err, b)
			}
			if err == nil {
				unlock()
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if b, _ := os.ReadFile(lock); string(b) != "mdsearch pid "+strconv.Itoa(os.Getpid())+"\n" {
			t.Errorf("%s: lock holds %q while held", tt.name, b)
		}
		unlock()
		if b, _ := os.ReadFile(lock); len(b) != 0 {
			t.Errorf("%s: lock holds %q after release", tt.name, b)
		}
	}

	victim := filepath.Join(dir, "victim.txt")
	os.WriteFile(victim, []byte("important\n"), 0o644)
	os.Symlink(victim, filepath.Join(dir, "x.db.lock"))
	if _, err := lockIndex(context.Background(), filepath.Join(dir, "x.db"), nil); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("symlinked lock: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "important\n" {
		t.Errorf("symlink target changed: %q", b)
	}
}

// A second holder waits, told once, until the first lets go.
func TestLockIndexWaits(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	unlock, err := lockIndex(context.Background(), index, nil)
	if err != nil {
		t.Fatal(err)
	}
	told := make(chan string, 4)
	got := make(chan error, 1)
	go func() {
		u, err := lockIndex(context.Background(), index, func(msg string) { told <- msg })
		if err == nil {
			u()
		}
		got <- err
	}()
	select {
	case msg := <-told:
		if !strings.Contains(msg, "pid "+strconv.Itoa(os.Getpid())) {
			t.Errorf("wait message %q", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second holder was not told to wait")
	}
	unlock()
	if err := <-got; err != nil {
		t.Errorf("second holder: %v", err)
	}
}

// A new index whose lock file is not mdsearch's is refused before it is
// made: the run could never write it, and must leave nothing behind.
func TestNewIndexBesideForeignLock(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Cargo.lock"), []byte("version = 3\n"), 0o644)
	os.Symlink(filepath.Join(dir, "victim.txt"), filepath.Join(dir, "sym.db.lock"))
	for _, name := range []string{"Cargo", "sym.db"} {
		index := filepath.Join(dir, name)
		_, err := Open(context.Background(), Options{IndexPath: index})
		if err == nil || !strings.Contains(err.Error(), "is in the way") {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := os.Lstat(index); !os.IsNotExist(err) {
			t.Errorf("%s: an index was made beside a lock file not mdsearch's", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "Cargo.lock")); string(b) != "version = 3\n" {
		t.Errorf("Cargo.lock now %q", b)
	}
	// An index already there keeps opening: its lock is judged when taken.
	e, err := Open(context.Background(), Options{IndexPath: filepath.Join(dir, "fine.db")})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
}
