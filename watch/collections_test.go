package watch

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// A collection indexed while the watcher runs is watched within a
// Recheck, and one dropped is no longer refreshed.
func TestCollectionsComeAndGo(t *testing.T) {
	root, second := t.TempDir(), t.TempDir()
	l := &lister{fake: &fake{root: root, calls: make(chan []string, 16)}}
	w, err := Start(context.Background(), l, Options{Debounce: 50 * time.Millisecond, Recheck: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	l.mu.Lock()
	l.second = second
	l.mu.Unlock()
	deadline := time.Now().Add(2 * time.Second)
	for !slices.Contains(w.Collections(), "w") {
		if time.Now().After(deadline) {
			t.Fatalf("collection w not watched: %v", w.Collections())
		}
		time.Sleep(10 * time.Millisecond)
	}
	write(t, filepath.Join(second, "n.md"), "# N\n")
	if got := next(t, l.fake); !slices.Equal(got, []string{"w:", "n.md"}) {
		t.Errorf("refreshed %v, want w: n.md", got)
	}
	l.mu.Lock()
	l.second = ""
	l.mu.Unlock()
	for slices.Contains(w.Collections(), "w") {
		time.Sleep(10 * time.Millisecond)
	}
	write(t, filepath.Join(second, "n.md"), "# N2\n")
	quiet(t, l.fake)
}

// lister is a fake that lists its collections cheaply (watch.Lister), and
// can hold a second one, w, indexed (and dropped) while the watcher runs.
type lister struct {
	*fake
	second  string // w's folder; "" until it is indexed
	listErr error  // Collections fails with it, when set
}

func (l *lister) Collections(ctx context.Context) ([]mdsearch.CollectionStatus, error) {
	st, _ := l.Status(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.listErr != nil {
		return nil, l.listErr
	}
	if l.second != "" {
		st.Collections = append(st.Collections, mdsearch.CollectionStatus{Name: "w", Root: l.second})
	}
	return st.Collections, nil
}

// Refresh reports the collection it refreshes before the paths.
func (l *lister) Refresh(_ context.Context, coll string, paths []string) (*mdsearch.IndexStats, error) {
	l.calls <- append([]string{coll + ":"}, paths...)
	return &mdsearch.IndexStats{Collection: coll}, nil
}

// A collection indexed while the watcher runs (or a whole index built
// again) is caught up when it is first watched: a note saved before its
// watch existed is not missed.
func TestNewCollectionCaughtUp(t *testing.T) {
	root := t.TempDir()
	l := &lister{fake: &fake{root: root, calls: make(chan []string, 10)}}
	var mu sync.Mutex
	var told [][]string
	onWatch := func(names []string) {
		mu.Lock()
		told = append(told, names)
		mu.Unlock()
	}
	w, err := Start(context.Background(), l, Options{Debounce: 50 * time.Millisecond, Recheck: 50 * time.Millisecond, OnWatch: onWatch})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	time.Sleep(200 * time.Millisecond)
	l.mu.Lock()
	if l.index != 0 {
		t.Errorf("%d catch-ups without CatchUp or a new collection", l.index)
	}
	l.second = t.TempDir()
	l.mu.Unlock()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		l.mu.Lock()
		reqs := slices.Clone(l.reqs)
		l.mu.Unlock()
		if slices.Contains(reqs, mdsearch.IndexRequest{Name: "w"}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new collection was not caught up: %+v", reqs)
		}
	}
	if got := w.Collections(); !slices.Equal(got, []string{"v", "w"}) {
		t.Errorf("watching %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 || !slices.Equal(told[0], []string{"w"}) {
		t.Errorf("OnWatch told %v; want [w] once: the start's collections are not news", told)
	}
}

// A listing that keeps failing (the index file gone, not built again yet)
// is logged once, not at every Recheck.
func TestListErrorLoggedOnce(t *testing.T) {
	var buf testenv.SyncBuffer
	l := &lister{fake: &fake{root: t.TempDir(), calls: make(chan []string, 10)}}
	w, err := Start(context.Background(), l, Options{Recheck: 20 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.listErr = errors.New("the index file was deleted")
	l.mu.Unlock()
	time.Sleep(300 * time.Millisecond)
	w.Close()
	if n := strings.Count(buf.String(), "cannot list collections"); n != 1 {
		t.Errorf("logged %d times:\n%s", n, buf.String())
	}
}
