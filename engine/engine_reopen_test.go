package engine

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// An index a serve, mcp or watch opened while it could not be written is
// written once it can be: the refused write says what to make writable,
// and the next write opens the index anew (SQLite kept its connections
// read-only), whether a watcher's refresh or its catch-up, while searches
// go on answering; nothing indexed before or since is lost.
func TestReopenAfterReadOnly(t *testing.T) {
	cases := []struct {
		name  string
		retry func(e *Engine) error
	}{
		{"refresh", func(e *Engine) error { _, err := e.Refresh(bg, "notes", []string{"beta.md"}); return err }},
		{"catch-up", func(e *Engine) error { _, err := e.Index(bg, mdsearch.IndexRequest{Name: "notes"}, nil); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, path := oneNoteIndex(t)
			writable := testenv.ReadOnly(t, path)

			e, reopened := openFollowing(t, path, "can be written now")
			stop := searching(t, e, "zebra", "alpha.md")
			defer stop() // before Close (a cleanup)

			write(t, dir, "beta.md", "# Beta\n\nThe giraffe eats acacia leaves.\n")
			err := c.retry(e)
			if mdsearch.KindOf(err) != mdsearch.KindUnavailable || !strings.Contains(err.Error(), "make "+path) {
				t.Fatalf("a write to the read-only index: %v; want it refused, naming the file to make writable", err)
			}
			writable()
			if err := c.retry(e); err != nil {
				t.Fatalf("once writable: %v", err)
			}
			stop()
			if got := paths(search(t, e, mdsearch.SearchRequest{Query: "giraffe"})); !strings.Contains(got, "beta.md") {
				t.Errorf("the note written after the fix: %s", got)
			}
			if n := reopened.Load(); n != 1 {
				t.Errorf("opened anew %d times, want once", n)
			}
			if got, err := e.Store().IntegrityCheck(bg); got != "ok" || err != nil {
				t.Errorf("integrity: %s, %v", got, err)
			}
		})
	}
}

// An index made writable before a serve, mcp or watch that opened it
// read-only first writes is written at that first write: no refusal is
// logged for a problem already fixed.
func TestReopenFixedBeforeWrite(t *testing.T) {
	dir, path := oneNoteIndex(t)
	writable := testenv.ReadOnly(t, path)
	e, reopened := openFollowing(t, path, "can be written now")
	writable()
	write(t, dir, "beta.md", "# Beta\n\nThe giraffe eats acacia leaves.\n")
	if _, err := e.Refresh(bg, "notes", []string{"beta.md"}); err != nil {
		t.Fatalf("the first write once writable: %v", err)
	}
	if got := paths(search(t, e, mdsearch.SearchRequest{Query: "giraffe"})); !strings.Contains(got, "beta.md") || reopened.Load() != 1 {
		t.Errorf("after the write: %s, opened anew %d times", got, reopened.Load())
	}
}

// The index stays read-only: each write is refused with what to make
// writable, and the store is not opened anew for nothing.
func TestStillReadOnly(t *testing.T) {
	dir, path := oneNoteIndex(t)
	testenv.ReadOnly(t, path)
	e, _ := openFollowing(t, path, "")
	first := e.Store()
	write(t, dir, "beta.md", "# Beta\n\nThe giraffe eats acacia leaves.\n")
	for range 2 {
		_, err := e.Refresh(bg, "notes", []string{"beta.md"})
		if !strings.Contains(fmtErr(err), "make "+path) {
			t.Errorf("refresh: %v", err)
		}
	}
	if e.Store() != first {
		t.Error("a store still read-only was opened anew")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// oneNoteIndex indexes a vault of one note (alpha.md, "zebra") as
// collection notes, returning the vault and the index to make read-only.
func oneNoteIndex(t *testing.T) (dir, path string) {
	dir = t.TempDir()
	write(t, dir, "alpha.md", "# Alpha\n\nThe zebra grazes on the plain.\n")
	path = filepath.Join(t.TempDir(), "index.db")
	buildIndex(t, path, dir, "notes")
	return dir, path
}

// searching searches e for query until stopped, failing the test on an
// error or an answer without want: a reopen must not be seen.
func searching(t *testing.T, e *Engine, query, want string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				resp, err := e.Search(bg, mdsearch.SearchRequest{Query: query})
				if err != nil || !strings.Contains(paths(resp), want) {
					t.Errorf("search %q meanwhile: %v, %v", query, resp, err)
					return
				}
			}
		}()
	}
	return sync.OnceFunc(func() { close(done); wg.Wait() })
}

// fmtErr is err's message, or "" for none.
func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// An index written before commit stamps, made read-only, is served as
// before (the table it lacks cannot be added), and gains the table at its
// first write once writable.
func TestReadOnlyWithoutStamps(t *testing.T) {
	dir, path := oneNoteIndex(t)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP TABLE commit_stamps`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	writable := testenv.ReadOnly(t, path)
	e, _ := openFollowing(t, path, "")
	if got := paths(search(t, e, mdsearch.SearchRequest{Query: "zebra"})); !strings.Contains(got, "alpha.md") {
		t.Fatalf("search of the read-only index: %s", got)
	}
	writable()
	write(t, dir, "beta.md", "# Beta\n\nThe giraffe eats acacia leaves.\n")
	if _, err := e.Refresh(bg, "notes", []string{"beta.md"}); err != nil {
		t.Fatalf("the first write once writable: %v", err)
	}
	db, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM commit_stamps`).Scan(&n); err != nil || n == 0 {
		t.Errorf("stamps after the write: %d, %v", n, err)
	}
}
