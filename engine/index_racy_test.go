package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// countOpens counts the opens of files named base through the vault until
// the test ends.
func countOpens(t *testing.T, base string) *int {
	n := new(int)
	open := fsfault.OpenIn
	fsfault.OpenIn = func(root *os.Root, rel, abs string, flag int) (*os.File, error) {
		if filepath.Base(abs) == base {
			*n++
		}
		return open(root, rel, abs, flag)
	}
	t.Cleanup(func() { fsfault.OpenIn = open })
	return n
}

// setMTime sets a file's modification time.
func setMTime(t *testing.T, p string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

// TestRacyNote: index reads a note whose stamp matches but whose mtime is
// not safely before the last run began (saved again within the mtime's
// second, or its time restored), and finds the edit; status counts it
// stale first. A note whose mtime is well before that run is not read,
// whatever was done to it with its stamp kept: `index --full` reads it.
func TestRacyNote(t *testing.T) {
	for _, tc := range []struct {
		name    string
		age     time.Duration // of the note's mtime when first indexed
		edit    bool          // rewritten at its size, its mtime restored
		read    bool
		changed int
	}{
		{"saved again within its mtime", 0, true, true, 1},
		{"recent, unchanged", 0, false, true, 0},
		{"old, unchanged", time.Hour, false, false, 0},
		{"old, edited with its mtime restored", time.Hour, true, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vault := t.TempDir()
			write(t, vault, "other.md", "# Other\n\nokapi notes\n")
			setMTime(t, filepath.Join(vault, "other.md"), time.Now().Add(-time.Hour))
			p := filepath.Join(vault, "todo.md")
			write(t, vault, "todo.md", "# Todo\n\n- [x] buy milk\n")
			mtime := time.Now().Add(-tc.age)
			setMTime(t, p, mtime)
			e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
			index(t, e, vault, "v")
			if tc.edit {
				write(t, vault, "todo.md", "# Todo\n\n- [ ] buy kiwi\n") // the same size
				setMTime(t, p, mtime)
			}
			if s, err := e.Status(bg); err != nil || s.Stale != tc.changed {
				t.Errorf("status: %d stale, %v; want %d", s.Stale, err, tc.changed)
			}
			gen, _ := e.st.Generation(bg)
			opens := countOpens(t, "todo.md")
			st := index(t, e, vault, "v")
			if read := *opens > 0; read != tc.read || st.Changed != tc.changed || st.Unchanged != 2-tc.changed {
				t.Errorf("read %v, %+v; want read %v, %d changed", read, st, tc.read, tc.changed)
			}
			if now, _ := e.st.Generation(bg); tc.changed == 0 && now != gen {
				t.Errorf("a run that changed nothing committed (generation %d → %d)", gen, now)
			}
			found := strings.Contains(describe(search(t, e, mdsearch.SearchRequest{Query: "kiwi", Mode: mdsearch.ModeKeyword})), "todo.md")
			if found != (tc.changed == 1) {
				t.Errorf("the edit found: %v", found)
			}
		})
	}
}

// TestScanRecordedWhole: only a run that walked the whole vault and wrote
// all it read records when it began; a stopped run or a refresh leaves
// the moment as it was.
func TestScanRecordedWhole(t *testing.T) {
	vault := t.TempDir()
	for i := range 900 {
		write(t, vault, fmt.Sprintf("n%03d.md", i), fmt.Sprintf("# Note %d\n\nSome words about note %d.\n", i, i))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	scanned := func() string {
		t.Helper()
		v, err := e.st.Meta(bg, scannedKey("v"))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	testHookWritten = func(files int) {
		if files == 300 { // a batch of about 250 notes is committed by then
			cancel()
		}
	}
	st, err := e.Index(ctx, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
	testHookWritten = nil
	if err == nil || !st.Stopped || st.Added == 0 {
		t.Fatalf("the run was not stopped midway: %v, %+v", err, st)
	}
	if v := scanned(); v != "" {
		t.Errorf("a stopped run recorded %q", v)
	}

	before := time.Now().UnixNano()
	index(t, e, vault, "v")
	v := scanned()
	if at, err := strconv.ParseInt(v, 10, 64); err != nil || at < before || at > time.Now().UnixNano() {
		t.Fatalf("a complete run recorded %q, want a time during it", v)
	}
	if _, err := e.Refresh(bg, "v", []string{"n001.md"}); err != nil {
		t.Fatal(err)
	}
	if got := scanned(); got != v {
		t.Errorf("a refresh moved the moment: %q → %q", v, got)
	}
}
