package engine

import (
	"context"
	"strconv"
	"time"
)

// A note saved again after an index run read it, within the same mtime
// (a second, on some filesystems; or a tool that restores the time) and at
// the same size, matches the stamp the run stored: git calls such an entry
// racily clean. So a run that walked the whole vault records when it began
// reading it, and the next one reads every note whose stored mtime is not
// safely before that moment and compares its hash. Unchanged, it cost a
// read; the moment moves on with each run, so the reads stay few.

// racyMargin is how far before the recorded moment a stored mtime must be
// to be trusted: coarse mtimes are rounded down (a second; two on FAT).
const racyMargin = 2 * time.Second

// scannedKey is the meta key of when the last complete run of collection
// name that walked its vault began reading it (Unix nanoseconds).
func scannedKey(name string) string { return "scanned_at/" + name }

// scannedAt is that moment, or 0 when no run recorded one (a new
// collection, an index written before the key): every note is then racy,
// read once.
func (e *Engine) scannedAt(ctx context.Context, name string) (int64, error) {
	s, err := e.st.Meta(ctx, scannedKey(name))
	if err != nil || s == "" {
		return 0, err
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n, nil
}

// racy reports whether a note stored with mtime may have been saved again
// unseen after the run that read it, one that began at scanned or later.
func racy(mtime, scanned int64) bool {
	return mtime >= scanned-racyMargin.Nanoseconds()
}

// recordScan writes, with the run's last batch, when the run began
// reading the vault: a run stopped before the end never records it, since
// it did not read every racy note. With no batch open (nothing was
// written, or all was committed) it is a write of its own, which readers
// need not notice as a commit.
func (w *batchWriter) recordScan(began time.Time) error {
	key, value := scannedKey(w.r.coll.Name), strconv.FormatInt(began.UnixNano(), 10)
	if w.tx == nil {
		return w.r.e.st.SetMeta(w.r.ctx, key, value)
	}
	return w.tx.SetMeta(key, value)
}
