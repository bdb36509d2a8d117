package engine

import (
	"context"
	"errors"

	"github.com/mdsearch/mdsearch/store"
)

// Reopening an index opened read-only. SQLite opens an index it may not
// write (mode 444, an immutable file) for reading alone, and keeps its
// connections so after the user has made the file writable: every write
// of a serve, mcp or watch would fail, for hours, until restarted. A
// write refused so marks the engine; the next call that writes opens the
// index anew first, once it can be written (store.Store.Writable), so
// the fix is picked up at the next refresh or retry. Reads go on through
// the read-only connections meanwhile.

// noteReadOnly marks the index to be opened anew when err is SQLite
// refusing a write for its connection being read-only.
func (e *Engine) noteReadOnly(err error) {
	if !e.opts.ReadOnly && store.IsReadOnly(err) {
		e.reopenDue.Store(true)
	}
}

// enterWrite is enter for a call that writes: an index opened read-only
// and writable now is opened anew first.
func (e *Engine) enterWrite(ctx context.Context) (leave func(), err error) {
	if e.reopenDue.Load() {
		if err := e.reopen(ctx); err != nil {
			return nil, err
		}
	}
	return e.enter(ctx)
}

// reopen opens the index anew, once no call uses it: all of its
// connections, as SQLite shares a file's read-only state among them. An
// index still read-only is left as it is: the write fails again, and its
// error says what to make writable.
func (e *Engine) reopen(ctx context.Context) error {
	e.mu.RLock()
	st := e.st
	e.mu.RUnlock()
	if !st.Writable() {
		return nil
	}
	done := make(chan struct{})
	if !e.reopening.CompareAndSwap(nil, &done) {
		return e.awaitReopen(ctx) // another call opens it anew
	}
	defer func() { e.reopening.Store(nil); close(done) }()
	locked, err := e.lockStore(ctx, e.reopenDue.Load)
	switch {
	case errors.Is(err, errStoreBusy):
		return nil // the write fails as before; the next one tries again
	case err != nil || !locked:
		return err
	}
	defer e.mu.Unlock()
	e.reopenDue.Store(false)
	if e.st != st {
		return nil // replaced by the index now at the path (follow)
	}
	fresh, err := st.Reopen()
	if err != nil {
		return nil // replaced meanwhile: enter follows it
	}
	e.st = fresh
	e.notify("the index file " + fresh.Path() + " can be written now; opened it anew")
	return nil
}

// awaitReopen holds a call back while the index is opened anew: its read
// lock, one of many back to back on a busy server, would otherwise keep
// the reopen from ever finding the lock free. The wait is bounded by
// lockStore's.
func (e *Engine) awaitReopen(ctx context.Context) error {
	done := e.reopening.Load()
	if done == nil {
		return nil
	}
	select {
	case <-*done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
