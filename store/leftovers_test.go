//go:build unix

package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// deadPID is the ID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no `true` to run:", err)
	}
	return cmd.Process.Pid
}

// What a creation killed midway leaves is removed by the next writing
// open, and only that: anything not provably such a leftover stays.
func TestOpenRemovesCreationLeftovers(t *testing.T) {
	dead, live := strconv.Itoa(deadPID(t)), strconv.Itoa(os.Getppid())
	sqlite := []byte("SQLite format 3\x00rest of a half-made file")
	cases := []struct {
		name    string
		file    string // beside x.db
		content []byte
		locked  bool // a process holds its lock
		removed bool
	}{
		{"killed creation", ".x.db.new-" + dead + "-123", sqlite, false, true},
		{"killed before the first write", ".x.db.new-" + dead + "-124", nil, false, true},
		{"creator still runs", ".x.db.new-" + live + "-125", sqlite, false, false},
		{"lock held", ".x.db.new-" + dead + "-126", sqlite, true, false},
		{"no process ID in the name", ".x.db.new-127", sqlite, false, false},
		{"not SQLite", ".x.db.new-" + dead + "-128", []byte("my notes"), false, false},
		{"another index's", ".y.db.new-" + dead + "-129", sqlite, false, false},
		{"name goes on", ".x.db.new-" + dead + "-130.bak", sqlite, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			left := filepath.Join(dir, c.file)
			for _, p := range []string{left, left + "-journal"} {
				if err := os.WriteFile(p, c.content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.locked {
				f, _ := os.Open(left)
				defer f.Close()
				if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
					t.Fatal(err)
				}
			}
			s, _, err := Open(ctx, filepath.Join(dir, "x.db"))
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			for _, p := range []string{left, left + "-journal"} {
				if _, err := os.Lstat(p); (err != nil) != c.removed {
					t.Errorf("%s: removed %v, want %v", filepath.Base(p), err != nil, c.removed)
				}
			}
		})
	}
}

// A symlink named as a leftover is not followed or removed.
func TestOpenLeavesLeftoverSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious.db")
	os.WriteFile(target, []byte("SQLite format 3\x00"), 0o644)
	link := filepath.Join(dir, ".x.db.new-"+strconv.Itoa(deadPID(t))+"-1")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	s, _, err := Open(ctx, filepath.Join(dir, "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, p := range []string{link, target} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s removed", filepath.Base(p))
		}
	}
}
