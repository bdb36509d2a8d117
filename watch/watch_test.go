package watch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/mdsearch/mdsearch"
)

// fake records Refresh calls; the engine-backed watch test is in
// internal/e2e.
type fake struct {
	mdsearch.Searcher
	root    string
	calls   chan []string
	mu      sync.Mutex
	index   int
	reqs    []mdsearch.IndexRequest
	dropped bool // collection v is no longer in the index
	gone    bool // the index file was deleted or replaced
	down    int  // Index calls left that cannot reach the embedding model
	// keywordOnly: Index calls left that index a new index for keyword
	// search only, its server out of reach (IndexStats.NoVectors).
	keywordOnly int
	// refreshDown: every Refresh cannot reach it.
	refreshDown bool
}

func (f *fake) Status(context.Context) (*mdsearch.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dropped {
		return &mdsearch.Status{}, nil
	}
	return &mdsearch.Status{Collections: []mdsearch.CollectionStatus{{Name: "v", Root: f.root}}}, nil
}

func (f *fake) Refresh(_ context.Context, coll string, paths []string) (*mdsearch.IndexStats, error) {
	if coll != "v" {
		panic(coll)
	}
	f.calls <- paths
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dropped {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "collection", coll, "", "no such collection")
	}
	if f.gone {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "index", "/x/index.db", "", "%w", mdsearch.ErrIndexReplaced)
	}
	if f.refreshDown {
		return &mdsearch.IndexStats{Collection: coll, Stopped: true}, mdsearch.Errorf(mdsearch.KindUnavailable, "embed", "http://127.0.0.1:11434/api/embed", "start it", "cannot reach the server")
	}
	return &mdsearch.IndexStats{Collection: coll}, nil
}

func (f *fake) Index(_ context.Context, req mdsearch.IndexRequest, _ func(mdsearch.IndexProgress)) (*mdsearch.IndexStats, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.index++
	f.reqs = append(f.reqs, req)
	if f.gone {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "index", "/x/index.db", "", "%w", mdsearch.ErrIndexReplaced)
	}
	if f.down > 0 {
		f.down--
		return &mdsearch.IndexStats{Stopped: true}, mdsearch.Errorf(mdsearch.KindUnavailable, "embed", "http://127.0.0.1:11434/api/embed", "start it", "cannot reach the server")
	}
	if f.keywordOnly > 0 {
		f.keywordOnly--
		return &mdsearch.IndexStats{NoVectors: "cannot reach the server"}, nil
	}
	return &mdsearch.IndexStats{}, nil
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// next waits for the next Refresh and returns its paths.
func next(t *testing.T, f *fake) []string {
	t.Helper()
	select {
	case p := <-f.calls:
		return p
	case <-time.After(2 * time.Second):
		t.Fatal("no refresh within 2 s")
		return nil
	}
}

func quiet(t *testing.T, f *fake) {
	t.Helper()
	select {
	case p := <-f.calls:
		t.Errorf("unexpected refresh of %v", p)
	case <-time.After(400 * time.Millisecond):
	}
}

// startIn watches root, whose notes the fake indexes, with no catch-up
// at the start and no recheck: what runs is what the test sets off.
func startIn(t *testing.T, root string) (*fake, *Watcher) {
	t.Helper()
	f := &fake{root: root, calls: make(chan []string, 16)}
	w, err := Start(context.Background(), f, Options{Debounce: 50 * time.Millisecond, Recheck: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return f, w
}

func start(t *testing.T) (*fake, string) {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "a.md"), "# A\n")
	write(t, filepath.Join(root, "deep/er/b.md"), "# B\n")
	write(t, filepath.Join(root, ".obsidian/c.md"), "# C\n")
	f := &fake{root: root, calls: make(chan []string, 16)}
	w, err := Start(context.Background(), f, Options{Debounce: 50 * time.Millisecond, CatchUp: true, Recheck: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return f, root
}

func TestWatch(t *testing.T) {
	f, root := start(t)
	var gap time.Duration // the longest between two writes of the burst
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"edit", func() { write(t, filepath.Join(root, "a.md"), "# A\nnew\n") }, []string{"a.md"}},
		{"burst is one refresh", func() {
			last := time.Now()
			for i := 0; i < 5; i++ {
				write(t, filepath.Join(root, "a.md"), strings.Repeat("x", i))
				write(t, filepath.Join(root, "deep/er/b.md"), strings.Repeat("y", i))
				gap = max(gap, time.Since(last))
				last = time.Now()
			}
		}, []string{"a.md", "deep/er/b.md"}},
		{"new folder", func() { write(t, filepath.Join(root, "new/sub/n.md"), "# N\n") }, []string{"new/sub/n.md"}},
		{"note in new folder", func() { write(t, filepath.Join(root, "new/sub/n.md"), "# N2\n") }, []string{"new/sub/n.md"}},
		{"rename", func() {
			if err := os.Rename(filepath.Join(root, "a.md"), filepath.Join(root, "a2.markdown")); err != nil {
				t.Fatal(err)
			}
		}, []string{"a.md", "a2.markdown"}},
		{"folder moved out", func() {
			if err := os.Rename(filepath.Join(root, "new"), filepath.Join(t.TempDir(), "gone")); err != nil {
				t.Fatal(err)
			}
		}, []string{"new/sub/n.md"}},
		{"folder deleted", func() {
			if err := os.RemoveAll(filepath.Join(root, "deep")); err != nil {
				t.Fatal(err)
			}
		}, []string{"deep/er/b.md"}},
	}
	for _, st := range steps {
		st.do()
		var got []string
		calls := 0
		deadline := time.After(2 * time.Second)
		for !containsAll(got, st.want) {
			select {
			case p := <-f.calls:
				got = append(got, p...)
				calls++
			case <-deadline:
				t.Fatalf("%s: refreshed %v, want %v", st.name, got, st.want)
			}
		}
		// A burst is one refresh where its writes came well within the
		// debounce of each other; a loaded machine may space them out.
		if strings.HasPrefix(st.name, "burst") && calls != 1 && gap < 25*time.Millisecond {
			t.Errorf("%s: %d refreshes of writes at most %v apart", st.name, calls, gap)
		}
		quiet(t, f)
	}
	f.mu.Lock()
	if f.index != 1 || f.reqs[0] != (mdsearch.IndexRequest{Name: "v"}) {
		t.Errorf("catch-up indexed %d times (%+v), want once, by name only", f.index, f.reqs)
	}
	f.mu.Unlock()
}

// A collection dropped from the index while it is watched: the first
// refresh fails, and then its notes are no longer refreshed.
func TestDroppedCollection(t *testing.T) {
	f, root := start(t)
	f.mu.Lock()
	f.dropped = true
	f.mu.Unlock()
	write(t, filepath.Join(root, "a.md"), "# A\nedited after the drop\n")
	if got := next(t, f); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("refreshed %v, want a.md", got)
	}
	time.Sleep(100 * time.Millisecond) // the failed refresh syncs
	write(t, filepath.Join(root, "a.md"), "# A\nedited again\n")
	quiet(t, f)
}

// The index file deleted under a running watcher: the first refresh
// fails, and watching stops rather than fail (and log) on every save.
func TestIndexFileGone(t *testing.T) {
	f, root := start(t)
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		f.mu.Lock()
		caught := f.index > 0 // the start's catch-up, before the index goes
		f.mu.Unlock()
		if caught || time.Now().After(deadline) {
			break
		}
	}
	f.mu.Lock()
	f.gone = true
	f.mu.Unlock()
	write(t, filepath.Join(root, "a.md"), "# A\nedited after the index was deleted\n")
	if got := next(t, f); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("refreshed %v, want a.md", got)
	}
	write(t, filepath.Join(root, "a.md"), "# A\nedited again\n")
	quiet(t, f)
}

// The same from a catch-up: watching ends, and Done and Err say why.
func TestIndexFileGoneCatchUp(t *testing.T) {
	root := t.TempDir()
	f := &fake{root: root, calls: make(chan []string, 10), gone: true}
	w, err := Start(context.Background(), f, Options{Debounce: 50 * time.Millisecond, CatchUp: true, Recheck: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	select {
	case <-w.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("watching did not stop")
	}
	if !errors.Is(w.Err(), mdsearch.ErrIndexReplaced) {
		t.Errorf("Err: %v", w.Err())
	}
	if err := w.Sync(context.Background()); err != nil {
		t.Errorf("Sync after the end: %v", err)
	}
}

func TestIgnored(t *testing.T) {
	f, root := start(t)
	write(t, filepath.Join(root, "notes.txt"), "x")
	write(t, filepath.Join(root, ".obsidian/c.md"), "x")
	write(t, filepath.Join(root, ".hidden/new/d.md"), "x")
	write(t, filepath.Join(root, "node_modules/e.md"), "x")
	write(t, filepath.Join(root, "a.md.swp"), "x")
	write(t, filepath.Join(root, ".hidden.md"), "x")
	if err := os.Symlink("user@host.1234:1700000000", filepath.Join(root, ".#a.md")); err != nil { // Emacs's lock
		t.Fatal(err)
	}
	quiet(t, f)
	write(t, filepath.Join(root, "a.md"), "changed")
	if got := next(t, f); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("refreshed %v", got)
	}
}

func containsAll(got, want []string) bool {
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}

// indexed waits until the fake has run n catch-up indexes.
func indexed(t *testing.T, f *fake, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		f.mu.Lock()
		got := f.index
		f.mu.Unlock()
		if got >= n {
			if got > n {
				t.Errorf("%d catch-up indexes, want %d", got, n)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d catch-up indexes within 2 s, want %d", got, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A vault folder deleted and made anew (a re-clone) is watched again: the
// watcher catches up on what the new folder holds and sees later edits.
func TestRootRecreated(t *testing.T) {
	f, root := start(t)
	indexed(t, f, 1) // the start's catch-up
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	var got []string
	for !containsAll(got, []string{"a.md", "deep/er/b.md"}) {
		got = append(got, next(t, f)...)
	}
	write(t, filepath.Join(root, "a.md"), "# A\nback\n")
	indexed(t, f, 2)
	write(t, filepath.Join(root, "z.md"), "# Z\n")
	if got := next(t, f); !slices.Equal(got, []string{"z.md"}) {
		t.Errorf("refreshed %v after the folder came back, want z.md", got)
	}
}

// Editing an ignore file changes which notes are indexed anywhere below it:
// the watcher catches up once the edits settle, and names no notes.
func TestIgnoreFileEdited(t *testing.T) {
	f, root := start(t)
	indexed(t, f, 1)
	for i := range 3 {
		write(t, filepath.Join(root, "deep", ".mdsearchignore"), strings.Repeat("er/\n", i+1))
	}
	indexed(t, f, 2)
	write(t, filepath.Join(root, ".obsidian", ".mdsearchignore"), "*\n") // a folder never indexed
	quiet(t, f)
	indexed(t, f, 2)
}

// An ignore file whose mode changed may have become readable, or stopped
// being: the watcher catches up, as for an edit, so that notes saved while
// it could not be read (whose refresh failed) are indexed once it can be.
func TestIgnoreFileModeChanged(t *testing.T) {
	f, root := start(t)
	indexed(t, f, 1)
	ignore := filepath.Join(root, "deep", ".mdsearchignore")
	write(t, ignore, "er/\n")
	indexed(t, f, 2)
	if err := os.Chmod(ignore, 0); err != nil {
		t.Fatal(err)
	}
	indexed(t, f, 3)
	if err := os.Chmod(ignore, 0o644); err != nil {
		t.Fatal(err)
	}
	indexed(t, f, 4)
}

// Moving the folder above a vault sends no event for the vault itself:
// the watcher notices at a Recheck, and takes up what is at the path now.
func TestParentMoved(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "p", "vault")
	write(t, filepath.Join(root, "a.md"), "# A\n")
	f := &fake{root: root, calls: make(chan []string, 16)}
	w, err := Start(context.Background(), f, Options{Debounce: 50 * time.Millisecond, Recheck: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := os.Rename(filepath.Join(parent, "p"), filepath.Join(parent, "q")); err != nil {
		t.Fatal(err)
	}
	if got := next(t, f); !slices.Equal(got, []string{"a.md"}) { // the old notes, dropped
		t.Errorf("refreshed %v, want a.md", got)
	}
	write(t, filepath.Join(root, "c.md"), "# C\n")
	indexed(t, f, 1) // caught up with the new folder
	write(t, filepath.Join(root, "c.md"), "# C2\n")
	if got := next(t, f); !slices.Equal(got, []string{"c.md"}) {
		t.Errorf("refreshed %v after the path came back, want c.md", got)
	}
	write(t, filepath.Join(parent, "q", "vault", "a.md"), "# A moved\n") // the moved folder is no longer watched
	quiet(t, f)
}

// A folder that could not be watched (it could not be read) is watched
// once its mode changes and it can be, and the watcher catches up: no
// event said what it holds now. Root can watch any folder, so the test
// takes the watch away instead of the permission.
func TestFolderReadableAgain(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "sub/s.md"), "# S\n")
	f, w := startIn(t, root)
	sub := filepath.Join(root, "sub")
	w.mu.Lock()
	w.fw.Remove(sub)
	delete(w.dirs, sub)
	w.mu.Unlock()
	if err := os.Chmod(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	indexed(t, f, 1)
	write(t, filepath.Join(sub, "new.md"), "# New\n")
	if got := next(t, f); !slices.Equal(got, []string{"sub/new.md"}) {
		t.Errorf("refreshed %v, want sub/new.md: the folder is watched again", got)
	}
}

// slow is a fake whose Refresh runs until its context ends.
type slow struct {
	*fake
	started chan struct{}
}

func (s *slow) Refresh(ctx context.Context, coll string, paths []string) (*mdsearch.IndexStats, error) {
	close(s.started)
	<-ctx.Done()
	return &mdsearch.IndexStats{Collection: coll, Stopped: true}, ctx.Err()
}

// Stopped says whether Close cut a refresh short: a watch stopped then
// left work for the next run; one stopped while idle did not.
func TestStopped(t *testing.T) {
	for _, busy := range []bool{false, true} {
		root := t.TempDir()
		write(t, filepath.Join(root, "a.md"), "# A\n")
		f := &slow{fake: &fake{root: root, calls: make(chan []string, 16)}, started: make(chan struct{})}
		w, err := Start(context.Background(), f, Options{Debounce: 20 * time.Millisecond, Recheck: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		if busy {
			write(t, filepath.Join(root, "a.md"), "# A\nedited\n")
			select {
			case <-f.started:
			case <-time.After(2 * time.Second):
				t.Fatal("no refresh within 2 s")
			}
		}
		if w.Stopped() {
			t.Errorf("busy %v: stopped before Close", busy)
		}
		w.Close()
		if w.Stopped() != busy {
			t.Errorf("busy %v: Stopped() = %v after Close", busy, w.Stopped())
		}
	}
}

// TestRetryWhenModelIsBack: a catch-up that could not reach the embedding
// model is tried again, later each time, until one reaches it; then no
// more are. So is one that indexed a new index for keyword search only,
// which fails nothing but owes every window its vector.
func TestRetryWhenModelIsBack(t *testing.T) {
	for _, keywordOnly := range []bool{false, true} {
		f := &fake{root: t.TempDir(), calls: make(chan []string, 16), down: 2}
		if keywordOnly {
			f.down, f.keywordOnly = 0, 2
		}
		w, err := Start(context.Background(), f, Options{CatchUp: true, Retry: 30 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(3 * time.Second)
		for {
			f.mu.Lock()
			n, down := f.index, f.down+f.keywordOnly
			f.mu.Unlock()
			if n == 3 && down == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("keyword only %v: %d catch-ups in 3 s, %d still without the model; want 3", keywordOnly, n, down)
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // past every retry a failure would arm
		f.mu.Lock()
		if f.index != 3 {
			t.Errorf("keyword only %v: %d catch-ups once the model answered, want 3", keywordOnly, f.index)
		}
		f.mu.Unlock()
		w.Close()
	}
}

// TestRetryNotPutOff: saves that fail while the embedding model is down
// neither put the retry off nor lengthen its wait.
func TestRetryNotPutOff(t *testing.T) {
	root := t.TempDir()
	f := &fake{root: root, calls: make(chan []string, 64), down: 1, refreshDown: true}
	w, err := Start(context.Background(), f, Options{Debounce: 10 * time.Millisecond, MaxDelay: 20 * time.Millisecond, CatchUp: true, Retry: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := time.Now()
	for i := range 8 { // a save every 40 ms, each refresh failing
		write(t, filepath.Join(root, "a.md"), strings.Repeat("x", i+1))
		time.Sleep(40 * time.Millisecond)
	}
	for {
		f.mu.Lock()
		n := f.index
		f.mu.Unlock()
		if n >= 2 {
			break
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("no retry within 2 s of the first failure (a 200 ms wait)")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Events lost (the kernel's queue overflowed) start a catch-up that also
// watches the folders made meanwhile: later saves in them are refreshed.
func TestOverflowWatchesNewFolders(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a.md"), "# A\n")
	f, w := startIn(t, root)
	// A folder made while events were lost: as if it had no watch.
	late := filepath.Join(root, "late")
	write(t, filepath.Join(late, "n1.md"), "# N1\n")
	next(t, f)
	w.mu.Lock()
	w.fw.Remove(late)
	delete(w.dirs, late)
	w.mu.Unlock()
	quiet(t, f)
	w.fw.Errors <- fsnotify.ErrEventOverflow
	indexed(t, f, 1)
	write(t, filepath.Join(late, "n2.md"), "# N2\n")
	if got := next(t, f); !slices.Equal(got, []string{"late/n2.md"}) {
		t.Errorf("refreshed %v, want late/n2.md: the folder made while events were lost is watched", got)
	}
}

// A watched folder made unreadable and readable again is caught up, as
// what was saved there meanwhile could not be read; a note's mode change
// refreshes it. (As root no mode keeps a folder from being read: its
// unreadable spell is recorded as a mode change would record it.)
func TestModeChanged(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "sub/s.md"), "# S\n")
	f, w := startIn(t, root)
	sub := filepath.Join(root, "sub")
	w.mu.Lock()
	w.shut[sub] = true
	w.mu.Unlock()
	if err := os.Chmod(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	indexed(t, f, 1)
	if err := os.Chmod(filepath.Join(sub, "s.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := next(t, f); !slices.Equal(got, []string{"sub/s.md"}) {
		t.Errorf("refreshed %v, want sub/s.md after its mode changed", got)
	}
}
