package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// buildIndex indexes dir as collection name into a new index at path.
func buildIndex(t *testing.T, path, dir, name string) {
	t.Helper()
	e, err := Open(bg, Options{IndexPath: path, Embedder: newBow("bow")})
	if err != nil {
		t.Fatal(err)
	}
	index(t, e, dir, name)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}

// deleteIndex deletes an index file as a user would: with its -wal and -shm.
func deleteIndex(t *testing.T, path string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

// An index deleted and built again under a following engine (serve, mcp,
// watch): calls fail, saying to build it, while nothing is there, then
// use the new index; searches running meanwhile never see a mix.
func TestFollowRebuiltIndex(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	write(t, first, "alpha.md", "# Alpha\n\nThe zebra grazes on the plain.\n")
	write(t, second, "beta.md", "# Beta\n\nThe giraffe eats acacia leaves.\n")
	path := filepath.Join(t.TempDir(), "index.db")
	buildIndex(t, path, first, "first")

	f, notes := openFollowing(t, path, "now using the new one")
	if got := paths(search(t, f, mdsearch.SearchRequest{Query: "zebra"})); !strings.Contains(got, "alpha.md") {
		t.Fatalf("before: %s", got)
	}

	// Searches in flight while the index goes and comes back.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := f.Search(bg, mdsearch.SearchRequest{Query: "zebra giraffe"})
				if err == nil && strings.Contains(paths(resp), "alpha.md") && strings.Contains(paths(resp), "beta.md") {
					t.Error("one answer from both indexes")
				}
			}
		}()
	}

	deleteIndex(t, path)
	var err error
	// A search that finds the old index still held by those in flight is
	// told to try again in a moment; trying again must reach "build it".
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		_, err = f.Search(bg, mdsearch.SearchRequest{Query: "zebra"})
		if !errors.Is(err, mdsearch.ErrIndexReplaced) || time.Now().After(deadline) {
			break
		}
	}
	if err == nil || errors.Is(err, mdsearch.ErrIndexReplaced) || mdsearch.KindOf(err) != mdsearch.KindUnavailable ||
		!strings.Contains(err.Error(), "build it again") || strings.Contains(err.Error(), "-wal") {
		t.Fatalf("deleted with its -wal and -shm: got %v", err) // none left to delete: none named
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a following engine made a file at the path: %v", err)
	}

	buildIndex(t, path, second, "second")
	got := paths(search(t, f, mdsearch.SearchRequest{Query: "giraffe"}))
	close(stop)
	wg.Wait()
	if !strings.Contains(got, "beta.md") {
		t.Errorf("after the rebuild: %s", got)
	}
	st, err := f.Status(bg)
	if err != nil || len(st.Collections) != 1 || st.Collections[0].Name != "second" {
		t.Errorf("status after the rebuild: %+v, %v", st, err)
	}
	if n := notes.Load(); n != 1 {
		t.Errorf("%d notices of the switch, want 1", n)
	}
	// The new index is written through the engine, as a watcher does.
	write(t, second, "beta.md", "# Beta\n\nThe okapi hides in the forest.\n")
	if _, err := f.Refresh(bg, "second", []string{"beta.md"}); err != nil {
		t.Fatal(err)
	}
	if got := paths(search(t, f, mdsearch.SearchRequest{Query: "okapi"})); !strings.Contains(got, "beta.md") {
		t.Errorf("after a refresh: %s", got)
	}
}

// An engine that does not follow (an index run, a CLI search) keeps
// refusing a replaced index, naming why.
func TestNoFollowReplacedIndex(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	write(t, first, "alpha.md", "# Alpha\n\nzebra\n")
	write(t, second, "beta.md", "# Beta\n\ngiraffe\n")
	path := filepath.Join(t.TempDir(), "index.db")
	buildIndex(t, path, first, "first")
	e, err := Open(bg, Options{IndexPath: path, Existing: true, Embedder: newBow("bow")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Status(bg); err != nil { // it has the file open now
		t.Fatal(err)
	}
	deleteIndex(t, path)
	buildIndex(t, path, second, "second")
	for name, call := range map[string]func() error{
		"search": func() error { _, err := e.Search(bg, mdsearch.SearchRequest{Query: "giraffe"}); return err },
		"status": func() error { _, err := e.Status(bg); return err },
		"index":  func() error { _, err := e.Index(bg, mdsearch.IndexRequest{Name: "second"}, nil); return err },
	} {
		if err := call(); !errors.Is(err, mdsearch.ErrIndexReplaced) {
			t.Errorf("%s: got %v, want the index replaced", name, err)
		}
	}
}

// A following engine's call that meets the replacement midway (an index
// run at its next batch) fails with an error a watcher retries after, not
// with ErrIndexReplaced, which would stop it for good.
func TestFollowReplacedMidCall(t *testing.T) {
	vault := t.TempDir()
	for i := range 40 {
		write(t, vault, fmt.Sprintf("n%02d.md", i), fmt.Sprintf("# Note %d\n\nText of note %d about zebras.\n", i, i))
	}
	path := filepath.Join(t.TempDir(), "index.db")
	buildIndex(t, path, t.TempDir(), "empty")
	emb := newBow("bow")
	emb.delay = 100 * time.Millisecond
	f, err := Open(bg, Options{IndexPath: path, Existing: true, Follow: true, Embedder: emb, EmbedBatch: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	done := make(chan error, 1)
	go func() {
		_, err := f.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
		done <- err
	}()
	for emb.calls.Load() < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	deleteIndex(t, path)
	err = <-done
	if err == nil || errors.Is(err, mdsearch.ErrIndexReplaced) || mdsearch.KindOf(err) != mdsearch.KindUnavailable {
		t.Fatalf("index run: %v", err)
	}
}

// openFollowing opens the index at path as serve does (Existing, Follow),
// counting the notices that hold phrase; it is closed when the test ends.
func openFollowing(t *testing.T, path, phrase string) (*Engine, *atomic.Int32) {
	t.Helper()
	var notes atomic.Int32
	e, err := Open(bg, Options{IndexPath: path, Existing: true, Follow: true, Embedder: newBow("bow"),
		Notify: func(msg string) {
			if strings.Contains(msg, phrase) {
				notes.Add(1)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, &notes
}
