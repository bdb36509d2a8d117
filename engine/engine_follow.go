package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// Following a rebuilt index. serve, mcp and watch run for hours, and a user
// may delete the index and build it again meanwhile (the hint for a damaged
// index says to). An engine opened with Options.Follow then switches to the
// index now at the path instead of refusing every call until it is
// restarted. The switch waits for the calls using the old file to end; they
// fail at their next write, as the old file is no longer the index.

// followWait bounds how long a call waits for the calls still using a
// replaced index to end before it gives up for now; a later call tries
// again. Searches end in milliseconds; an index run ends at its next batch.
const followWait = 3 * time.Second

// enter starts an exported call. It fails when the index path no longer
// names the open file, unless the engine follows it and can switch to the
// new one. On success it holds the read lock that keeps the store from
// being switched until leave is called.
//
// Once one call has seen the file replaced, later calls of a following
// engine skip the read lock until the switch: their brief holds, back to
// back on a busy server, would otherwise keep the switch from ever finding
// the lock free.
func (e *Engine) enter(ctx context.Context) (leave func(), err error) {
	if err := e.awaitReopen(ctx); err != nil {
		return nil, err
	}
	for {
		if !e.opts.Follow || !e.switching.Load() {
			e.mu.RLock()
			err = e.st.Replaced()
			if err == nil {
				return e.mu.RUnlock, nil
			}
			e.mu.RUnlock()
			if !e.opts.Follow {
				return nil, err
			}
			e.switching.Store(true)
		}
		if err := e.follow(ctx); err != nil {
			return nil, err
		}
	}
}

// follow switches to the index now at the path, once no call uses the old
// one.
func (e *Engine) follow(ctx context.Context) error {
	if _, err := os.Stat(e.opts.IndexPath); errors.Is(err, fs.ErrNotExist) {
		// Nothing to switch to: no lock to wait for (calls still using
		// the old file would hold it up, a busy server's every moment).
		return followError(e.opts.IndexPath, err)
	}
	locked, err := e.lockStore(ctx, e.switching.Load)
	switch {
	case errors.Is(err, errStoreBusy):
		return mdsearch.Errorf(mdsearch.KindUnavailable, "index", e.opts.IndexPath,
			"try again in a moment: this process switches to the new index once the work using the old one ends",
			"the index file was replaced while this process had it open")
	case err != nil || !locked:
		return err // !locked: another call switched
	}
	defer e.mu.Unlock()
	if e.st.Replaced() == nil {
		e.switching.Store(false)
		return nil // another call switched already
	}
	st, mig, err := openStore(ctx, e.opts)
	if err != nil {
		return followError(e.opts.IndexPath, err)
	}
	old := e.st
	e.st, e.migration = st, mig
	e.snap.Store(nil) // the old index's vectors
	e.switching.Store(false)
	_ = old.Close() // the old file only: SQLite sees it was moved or deleted
	e.notify("the index file " + e.opts.IndexPath + " was replaced; now using the new one")
	if mig != nil && len(mig.Collections) > 0 {
		e.notify(mig.String() + "; run `mdsearch index` to fill it")
	}
	return nil
}

// errStoreBusy is why lockStore gave up: calls used the store throughout
// followWait.
var errStoreBusy = errors.New("the index is in use")

// lockStore takes e.mu, to change the store, once no call uses it. It
// gives up when due reports the change made meanwhile by another call
// (locked false), or after followWait (errStoreBusy). TryLock, not Lock:
// a waiting writer would hold up every new call behind an index run that
// waits for another process's lock.
func (e *Engine) lockStore(ctx context.Context, due func() bool) (locked bool, err error) {
	deadline := time.Now().Add(followWait)
	for !e.mu.TryLock() {
		if !due() {
			return false, nil
		}
		if time.Now().After(deadline) {
			return false, errStoreBusy
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return true, nil
}

// followError says why a replaced index could not be followed: most often
// it was deleted and is not built again yet.
func followError(path string, err error) error {
	var me *mdsearch.Error
	reason := err.Error()
	if errors.As(err, &me) && me.Err != nil {
		reason = me.Err.Error()
	}
	hint := "build it again with `mdsearch index DIR --index " + path + "`: this process switches to it"
	var left []string // the deleted index's, which a new one may not start beside
	for _, f := range []string{path + "-wal", path + "-shm"} {
		if _, err := os.Lstat(f); err == nil {
			left = append(left, f)
		}
	}
	if len(left) > 0 {
		hint = "delete " + strings.Join(left, " and ") + " (the deleted index's), then " + hint
	}
	return mdsearch.Errorf(mdsearch.KindUnavailable, "index", path, hint,
		"the index file was deleted or replaced, and the path holds no index it can open now (%s)", reason)
}

// replacedDuring is the error of a call whose index file was deleted or
// replaced while it ran, in an engine that follows it: the next call
// switches to the index then at the path, or says to build one.
func replacedDuring(path string) error {
	return mdsearch.Errorf(mdsearch.KindUnavailable, "index", path,
		"try again: the next call uses the index at the path (if it was deleted, build it again with `mdsearch index DIR --index "+path+"`)",
		"the index file was deleted or replaced during this call")
}

// notify tells the user, when the engine has a way to.
func (e *Engine) notify(msg string) {
	if e.opts.Notify != nil {
		e.opts.Notify(msg)
	}
}

// Collection finds a collection by name; nil when there is none.
func (e *Engine) Collection(ctx context.Context, name string) (_ *store.Collection, err error) {
	defer e.explain(&err)
	leave, err := e.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return e.st.Collection(ctx, name)
}
