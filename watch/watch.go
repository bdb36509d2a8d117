package watch

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// Options configure a Watcher. Zero values mean the defaults.
type Options struct {
	// Debounce is how long a folder must be quiet before its changes are
	// refreshed. Default 200 ms.
	Debounce time.Duration
	// MaxDelay bounds how long a change waits while events keep coming.
	// Default 1 s.
	MaxDelay time.Duration
	// CatchUp runs an incremental index of every collection when the
	// watcher starts, for changes made while nothing was watching.
	CatchUp bool
	// Recheck is how often a collection whose folder vanished is looked
	// for again, so that a vault deleted and made anew (a re-clone, a sync
	// tool replacing it) is watched again. Default 2 s.
	Recheck time.Duration
	// Retry is how long after a refresh or catch-up that failed for want
	// of what may come back (an error of KindUnavailable: the embedding
	// server down, a full disk, an index that could not be written) a
	// catch-up tries again, doubling up to 5 minutes while it still
	// cannot; the windows left without vectors get them once the model
	// answers, the notes left unwritten once the index takes them.
	// Default 15 s.
	Retry time.Duration
	// Logger receives errors and skipped folders; nil discards them.
	Logger *slog.Logger
	// OnRefresh, when set, is told about every Refresh the watcher makes.
	OnRefresh func(collection string, paths []string, stats *mdsearch.IndexStats, err error)
	// OnWatch, when set, is told the collections the watcher starts to
	// watch after Start (indexed while it runs), by name.
	OnWatch func(collections []string)
}

// Watcher watches the collections of one index.
type Watcher struct {
	s    mdsearch.Searcher
	opts Options
	log  *slog.Logger
	fw   *fsnotify.Watcher

	mu      sync.Mutex
	roots   map[string]string              // collection name → root folder
	dirs    map[string]bool                // watched folders
	shut    map[string]bool                // watched folders a mode change made unreadable: caught up once readable
	gone    map[string]bool                // collection folders that vanished, looked for again
	ident   map[string]os.FileInfo         // each watched collection folder as it was when watched
	files   map[string]bool                // markdown files seen, for folders that vanish whole
	pending map[string]map[string]struct{} // collection → vault-relative paths to refresh
	rules   bool                           // a .mdsearchignore changed: catch up after the debounce
	first   time.Time                      // when the oldest pending change arrived
	last    time.Time                      // when the newest one arrived

	kick   chan struct{} // a change arrived: re-arm the timer
	catch  chan struct{} // run a catch-up index
	cancel context.CancelFunc
	done   chan struct{}
	err    error // why watching stopped on its own; set before done closes
	// stopped is set, before done closes, when Close stopped a refresh
	// or catch-up before it finished.
	stopped bool
	// unavailable: the last refresh or catch-up failed for want of what
	// may come back (the embedding model, room on the disk), so a
	// catch-up is due after retryWait (the loop's alone, as flush and
	// catchUp run in it).
	unavailable bool
	retryAfter  error // why the retry is due: named when it runs
	retryWait   time.Duration
	retryArmed  bool // a retry is due: its timer runs
}

// Start watches every collection s reports and returns once the watches
// are in place; changes are refreshed in the background until Close.
func Start(ctx context.Context, s mdsearch.Searcher, opts Options) (*Watcher, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = 200 * time.Millisecond
	}
	if opts.Recheck <= 0 {
		opts.Recheck = 2 * time.Second
	}
	if opts.Retry <= 0 {
		opts.Retry = 15 * time.Second
	}
	if opts.MaxDelay < opts.Debounce {
		opts.MaxDelay = max(time.Second, opts.Debounce)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "watch", "", "", "%v", err)
	}
	w := &Watcher{
		s: s, opts: opts, log: opts.Logger, fw: fw,
		roots: map[string]string{}, dirs: map[string]bool{}, shut: map[string]bool{}, gone: map[string]bool{}, ident: map[string]os.FileInfo{}, files: map[string]bool{},
		pending: map[string]map[string]struct{}{},
		kick:    make(chan struct{}, 1), catch: make(chan struct{}, 1), done: make(chan struct{}),
	}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if err := w.sync(ctx, false); err != nil { // Options.CatchUp decides
		fw.Close()
		return nil, err
	}
	ctx, w.cancel = context.WithCancel(context.WithoutCancel(ctx))
	if opts.CatchUp {
		w.catch <- struct{}{}
	}
	go w.loop(ctx)
	return w, nil
}

// Close stops watching and waits for a refresh in progress to end.
func (w *Watcher) Close() error {
	w.cancel()
	<-w.done
	return nil
}

// Done is closed when watching ends: after Close, or on its own when the
// index file was deleted or replaced (then Err says so).
func (w *Watcher) Done() <-chan struct{} { return w.done }

// Err is why watching stopped on its own, once Done is closed; nil after
// Close.
func (w *Watcher) Err() error {
	select {
	case <-w.done:
		return w.err
	default:
		return nil
	}
}

// Stopped reports, once Done is closed, whether Close stopped a refresh
// or catch-up before it finished: the index keeps what it did, and the
// next index run (or watcher's catch-up) does the rest.
func (w *Watcher) Stopped() bool {
	select {
	case <-w.done:
		return w.stopped
	default:
		return false
	}
}

// Collections lists the collections being watched, by name.
func (w *Watcher) Collections() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	names := make([]string, 0, len(w.roots))
	for n := range w.roots {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lister is what a Searcher may offer to list its collections (names and
// roots) cheaply: the watcher asks every Recheck, to watch collections
// indexed while it runs. Without it, Status is asked, at Start and after
// a failed refresh only.
type Lister interface {
	Collections(ctx context.Context) ([]mdsearch.CollectionStatus, error)
}

func (w *Watcher) collections(ctx context.Context) ([]mdsearch.CollectionStatus, error) {
	if l, ok := w.s.(Lister); ok {
		return l.Collections(ctx)
	}
	st, err := w.s.Status(ctx)
	if err != nil {
		return nil, err
	}
	return st.Collections, nil
}

// Sync watches collections added to the index since the last call, and
// forgets those no longer in it (dropped): their notes are not refreshed.
func (w *Watcher) Sync(ctx context.Context) error { return w.sync(ctx, true) }

// sync is Sync; catchUp asks for a catch-up of the collections it adds:
// notes saved between their indexing and their watch had none.
func (w *Watcher) sync(ctx context.Context, catchUp bool) error {
	select {
	case <-w.done:
		return nil // watching has ended: nothing to add or drop
	default:
	}
	colls, err := w.collections(ctx)
	if err != nil {
		return err
	}
	added, err := w.add(colls)
	if len(added) > 0 && catchUp {
		w.requestCatchUp() // the run that added it may be a rebuild of the whole index too
		if w.opts.OnWatch != nil {
			w.opts.OnWatch(added)
		}
	}
	return err
}

// add watches the collections of colls not watched yet, forgets those
// no longer among them, and names those it added. Call without mu held.
func (w *Watcher) add(colls []mdsearch.CollectionStatus) ([]string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	dropped := false
	for name := range w.roots {
		if !slices.ContainsFunc(colls, func(c mdsearch.CollectionStatus) bool { return c.Name == name }) {
			w.log.Info("collection dropped; no longer watched", "collection", name)
			delete(w.roots, name)
			delete(w.pending, name)
			dropped = true
		}
	}
	if dropped { // not every Recheck: it visits every watched folder
		w.unwatchOrphans()
	}
	var added []string
	for _, c := range colls {
		if c.Root == "" || w.roots[c.Name] == c.Root {
			continue
		}
		root, err := filepath.Abs(c.Root)
		if err != nil {
			return added, err
		}
		added = append(added, c.Name)
		w.roots[c.Name] = root
		if err := w.addTree(root, false); err != nil {
			w.log.Warn("cannot watch collection", "collection", c.Name, "root", root, "err", err)
			w.gone[root] = errors.Is(err, fs.ErrNotExist)
		}
		w.remember(root)
	}
	return added, nil
}

// unwatchOrphans stops watching folders no collection holds any more.
// Call with mu held.
func (w *Watcher) unwatchOrphans() {
	for d := range w.dirs {
		if w.collectionsOf(d) == nil {
			delete(w.dirs, d)
			delete(w.shut, d)
			_ = w.fw.Remove(d)
		}
	}
}

// addTree watches dir and every folder below it that the indexer walks.
// With enqueue, the notes found are queued for refresh: a folder that just
// appeared may have been filled before its watch existed. Call with mu held.
func (w *Watcher) addTree(dir string, enqueue bool) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			w.log.Warn("cannot watch folder", "path", p, "err", err)
			return nil
		}
		if d.IsDir() {
			if p != dir && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			if !w.dirs[p] {
				if err := w.fw.Add(p); err != nil {
					w.log.Warn("cannot watch folder", "path", p, "err", err)
					return filepath.SkipDir
				}
				w.dirs[p] = true
			}
			return nil
		}
		if d.Type().IsRegular() && note(d.Name()) {
			w.files[p] = true
			if enqueue {
				w.enqueue(p)
			}
		}
		return nil
	})
}

// skipDir matches the folders the indexer never walks.
func skipDir(name string) bool {
	return name == "node_modules" || vault.Hidden(name)
}

// note reports whether the indexer walks a file of this name: markdown,
// and not hidden (an editor's lock or backup file, ".#a.md").
func note(name string) bool { return vault.IsMarkdown(name) && !vault.Hidden(name) }

func (w *Watcher) loop(ctx context.Context) {
	defer close(w.done)
	defer w.fw.Close()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	recheck := time.NewTicker(w.opts.Recheck)
	defer recheck.Stop()
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	w.retryWait = w.opts.Retry
	listErr := "" // the last error listing the collections, logged once
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.log.Warn("watch error", "err", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.requestCatchUp() // events were lost: let the indexer find what changed
			}
		case <-w.kick:
			timer.Reset(w.wait())
		case <-timer.C:
			if d := w.wait(); d > 0 {
				timer.Reset(d)
				continue
			}
			if w.flush(ctx) {
				return
			}
			timer.Reset(w.wait()) // changes that came during the refresh
			w.scheduleRetry(retry)
		case <-w.catch:
			if w.catchUp(ctx) {
				return
			}
			w.scheduleRetry(retry)
		case <-retry.C:
			w.retryArmed = false
			// Not only a model: a full disk, a locked index or one made
			// writable again (the engine then opens it anew) also waits
			// for something outside to change.
			w.log.Info("catching up again after a failed refresh", "error", w.retryAfter)
			w.requestCatchUp()
		case <-recheck.C:
			if _, ok := w.s.(Lister); ok {
				err := w.Sync(ctx)
				if err != nil && ctx.Err() == nil && err.Error() != listErr {
					w.log.Warn("cannot list collections", "err", err) // once, not every Recheck
				}
				if listErr = ""; err != nil {
					listErr = err.Error()
				}
			}
			w.checkRoots()
			w.rewatchRoots()
		}
	}
}

// scheduleRetry arms retry when the last refresh or catch-up failed for
// want of what may come back (unavailable: the embedding model, room on
// the disk, an index locked or made read-only), each time waiting twice
// as long (at most 5 minutes); once one succeeds, the wait starts over.
func (w *Watcher) scheduleRetry(retry *time.Timer) {
	if !w.unavailable {
		if !w.retryArmed { // a catch-up reached it: the wait starts over
			w.retryWait = w.opts.Retry
		}
		return
	}
	w.unavailable = false
	if w.retryArmed {
		return // saves failing meanwhile neither put it off nor lengthen the wait
	}
	w.retryArmed = true
	retry.Reset(w.retryWait)
	w.retryWait = min(2*w.retryWait, 5*time.Minute)
}

func (w *Watcher) requestCatchUp() {
	select {
	case w.catch <- struct{}{}:
	default:
	}
}

// remember records which folder root is now, to notice it replaced later.
// Call with mu held.
func (w *Watcher) remember(root string) {
	if fi, err := os.Stat(root); err == nil {
		w.ident[root] = fi
	}
}

// checkRoots notices a collection folder that is no longer the folder
// watched, though no event said so: a folder above it was moved or deleted
// (events come only for the watched folders themselves). It is dropped as
// if deleted, so rewatchRoots takes up whatever is at its path now.
func (w *Watcher) checkRoots() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for name, root := range w.roots {
		was, ok := w.ident[root]
		if !ok || w.gone[root] || !w.dirs[root] {
			continue
		}
		if fi, err := os.Stat(root); err != nil || !os.SameFile(fi, was) {
			w.log.Info("collection folder moved or replaced; watching its path again", "collection", name, "root", root)
			delete(w.ident, root)
			w.dropTree(root)
		}
	}
}

// rewatchRoots watches again each collection folder that lost its watch
// (deleted or moved away) and exists once more, and catches up, since
// nothing reported what the new folder holds.
func (w *Watcher) rewatchRoots() {
	w.mu.Lock()
	defer w.mu.Unlock()
	back := false
	for name, root := range w.roots {
		if !w.gone[root] || w.dirs[root] {
			continue
		}
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			continue
		}
		delete(w.gone, root) // once: a folder that is back but cannot be watched is logged once
		if err := w.addTree(root, false); err != nil || !w.dirs[root] {
			w.log.Warn("cannot watch collection", "collection", name, "root", root, "err", err)
			continue
		}
		w.remember(root)
		w.log.Info("collection folder is back; watching it again", "collection", name, "root", root)
		back = true
	}
	if back {
		w.requestCatchUp()
	}
}

// collectionsOf names the collections whose root holds path.
func (w *Watcher) collectionsOf(path string) map[string]string {
	var out map[string]string
	for name, root := range w.roots {
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = filepath.ToSlash(rel)
	}
	return out
}

// touch starts or extends the debounce of pending work. Call with mu held.
func (w *Watcher) touch() {
	w.last = time.Now()
	if w.first.IsZero() {
		w.first = w.last
	}
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// wait is how long to hold pending changes: until Debounce after the last
// event, but no later than MaxDelay after the first. 0 means flush now.
func (w *Watcher) wait() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 && !w.rules {
		return time.Hour
	}
	return max(0, min(time.Until(w.last.Add(w.opts.Debounce)), time.Until(w.first.Add(w.opts.MaxDelay))))
}
