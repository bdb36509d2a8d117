package watch

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/mdsearch/mdsearch/vault"
)

// handle records one file system event.
func (w *Watcher) handle(ev fsnotify.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := filepath.Clean(ev.Name)
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			if !skipDir(fi.Name()) && w.collectionsOf(p) != nil {
				if err := w.addTree(p, true); err != nil {
					w.log.Warn("cannot watch folder", "path", p, "err", err)
				}
			}
			return
		}
	}
	if ev.Has(fsnotify.Chmod) && w.dirs[p] && !ev.Has(fsnotify.Remove) && !ev.Has(fsnotify.Rename) {
		w.modeChanged(p)
		return
	}
	if ev.Has(fsnotify.Chmod) && !w.dirs[p] && w.readable(p) {
		return
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		if w.dirs[p] {
			w.dropTree(p)
			return
		}
	}
	if filepath.Base(p) == vault.IgnoreFile { // a mode change too: it may be readable now, or no longer
		w.rulesChanged(p)
		return
	}
	// A note's mode change is refreshed too: one that could not be read
	// when it was saved (its refresh kept the old text) may be now.
	if !note(filepath.Base(p)) || !(ev.Has(fsnotify.Create) || ev.Has(fsnotify.Write) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) || ev.Has(fsnotify.Chmod)) {
		return
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		delete(w.files, p)
	} else {
		w.files[p] = true
	}
	w.enqueue(p)
}

// readable watches the folder p, whose mode changed, if it could not be
// watched before (it could not be read) and can be now, and then catches
// up: no event said what it holds, nor what it lost. It reports whether p
// is a folder of a collection. Call with mu held.
func (w *Watcher) readable(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() || skipDir(fi.Name()) || w.collectionsOf(p) == nil {
		return false
	}
	if err := w.addTree(p, false); err == nil && w.dirs[p] {
		w.log.Info("folder can be read now; catching up", "path", p)
		w.requestCatchUp()
	}
	return true
}

// modeChanged notes the mode change of a watched folder p: made
// unreadable, its watch stays but what is saved there cannot be read, so
// once it can be read again the watcher catches up. Call with mu held.
func (w *Watcher) modeChanged(p string) {
	f, err := os.Open(p)
	if err == nil {
		_, err = f.Readdirnames(1)
		f.Close()
	}
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		w.shut[p] = true
	case w.shut[p]:
		delete(w.shut, p)
		w.log.Info("folder can be read again; catching up", "path", p)
		w.requestCatchUp()
	}
}

// rulesChanged notes an edit of an ignore file: which notes are indexed may
// have changed anywhere below it, so once the changes settle the watcher
// catches up (an incremental index) rather than refreshing named notes.
// Call with mu held.
func (w *Watcher) rulesChanged(path string) {
	for _, rel := range w.collectionsOf(path) {
		if !inSkippedDir(rel) {
			w.rules = true
		}
	}
	if w.rules {
		w.touch()
	}
}

// dropTree forgets a folder that was removed or moved away, and queues
// every note known below it: no event will come for them.
func (w *Watcher) dropTree(dir string) {
	prefix := dir + string(filepath.Separator)
	for _, root := range w.roots {
		if root == dir {
			w.gone[root] = true
		}
	}
	for d := range w.dirs {
		if d == dir || strings.HasPrefix(d, prefix) {
			delete(w.dirs, d)
			delete(w.shut, d)
			_ = w.fw.Remove(d) // already gone when the folder was deleted
		}
	}
	for f := range w.files {
		if strings.HasPrefix(f, prefix) {
			delete(w.files, f)
			w.enqueue(f)
		}
	}
}

// enqueue queues path for refresh in each collection that holds it, unless
// it sits in a folder the indexer skips. Call with mu held.
func (w *Watcher) enqueue(path string) {
	for name, rel := range w.collectionsOf(path) {
		if inSkippedDir(rel) {
			continue
		}
		if w.pending[name] == nil {
			w.pending[name] = map[string]struct{}{}
		}
		w.pending[name][rel] = struct{}{}
	}
	if len(w.pending) > 0 {
		w.touch()
	}
}

func inSkippedDir(rel string) bool {
	parts := strings.Split(rel, "/")
	return slices.ContainsFunc(parts[:len(parts)-1], skipDir)
}
