package engine

import (
	"context"
	"time"

	"github.com/mdsearch/mdsearch"
)

// DropStats is what Drop removed.
type DropStats struct {
	Collection string  `json:"collection"`
	Root       string  `json:"root"`
	Notes      int     `json:"notes"`   // documents removed from the index
	Vectors    int64   `json:"vectors"` // vectors no other window shares, removed
	TookMS     float64 `json:"took_ms"`
}

// Drop removes collection name from the index, in one transaction: its
// notes, passages, windows, the vectors no other collection shares, and
// its size limit. The
// files in its folder are not touched. It waits for an index run in
// another process, as Index does.
func (e *Engine) Drop(ctx context.Context, name string) (_ *DropStats, err error) {
	defer e.explain(&err)
	leave, err := e.enterWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	start := time.Now()
	unlock, err := e.lockWrites(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	c, err := e.collectionByName(ctx, name)
	if err != nil {
		return nil, err
	}
	tx, err := e.st.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	n, err := tx.DeleteCollection(c.ID)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "drop", name, "", "%w", err)
	}
	vectors, err := tx.DeleteOrphans(tx.Removed())
	if err == nil {
		err = tx.DeleteMeta(maxSizeKey(c.Name))
	}
	if err == nil {
		err = tx.DeleteMeta(skippedKey(c.Name))
	}
	if err == nil {
		err = tx.DeleteMeta(scannedKey(c.Name))
	}
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "drop", name, "", "%w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	st := &DropStats{Collection: c.Name, Root: c.Root, Notes: n, Vectors: vectors}
	if err := e.st.Vacuum(ctx); err != nil {
		return st, err
	}
	st.TookMS = msSince(start)
	return st, nil
}
