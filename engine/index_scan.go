package engine

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// batchRows bounds a phase-1 transaction: documents plus chunks written.
// Small enough that an interrupted run loses little, big enough that
// commits do not dominate.
const batchRows = 1000

type scanJob struct {
	seq int // position in the walk: results are written in this order
	f   vault.File
	old *store.DocInfo
}

type scanResult struct {
	scanJob
	skip   string // why the file cannot be indexed
	size   int64  // its size, where that is why (over the size limit)
	keep   bool   // it could not be read: an indexed note stays as it was
	gone   bool   // deleted since the walk
	touch  bool   // content unchanged: record the new mtime only, if any
	hash   []byte
	doc    *sections.Document
	chunks []mdsearch.Chunk
}

// scan is phase 1: compare files with the stored documents, re-chunk the
// changed ones and delete the gone ones. walked says files is the whole
// vault, so stored documents missing from it are gone.
func (r *run) scan(files []vault.File, gone []string, walked bool) error {
	began := time.Now() // before any note is read
	old, err := r.e.st.DocInfos(r.ctx, r.coll.ID)
	if err != nil {
		return err
	}
	scanned, err := r.e.scannedAt(r.ctx, r.coll.Name)
	if err != nil {
		return err
	}
	r.stats.Files = len(files)
	r.prog.FilesTotal = len(files)
	seen := make(map[string]bool, len(files))
	var jobs []scanJob
	for _, f := range files {
		seen[f.Path] = true
		o, ok := old[f.Path]
		if ok && !r.force && !r.verify && o.MTime == f.ModTime && o.Size == f.Size && !racy(o.MTime, scanned) {
			r.stats.Unchanged++
			r.prog.FilesDone++
			continue
		}
		j := scanJob{seq: len(jobs), f: f}
		if ok {
			j.old = &o
		}
		jobs = append(jobs, j)
	}
	for p := range old {
		switch {
		case seen[p]:
		case r.keep(p): // where the walk could not look: not known to be gone
		case walked:
			gone = append(gone, p)
		}
	}
	r.countKept()
	r.publish()
	if r.model != 0 && (len(jobs) > 0 || len(gone) > 0) {
		if err := r.e.st.SetMeta(r.ctx, metaPending, "1"); err != nil {
			return err
		}
	}

	w := newBatchWriter(r)
	defer w.rollback()
	for _, p := range gone {
		if o, ok := old[p]; ok {
			if err := w.delete(o.ID); err != nil {
				return err
			}
			r.stats.Deleted++
		}
	}
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	// Workers finish out of order; writing in walk order gives the same
	// rows for the same vault on every run.
	pending := map[int]scanResult{}
	next := 0
	for res := range r.process(ctx, jobs) {
		pending[res.seq] = res
		for {
			res, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if err := w.write(res); err != nil {
				return err
			}
		}
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	// A run that read no note leaves the moment as it was: every note
	// was safely before it already.
	if walked && len(jobs) > 0 {
		if err := w.recordScan(began); err != nil {
			return err
		}
	}
	return w.flush()
}

// process reads, hashes, parses and chunks files on every core.
func (r *run) process(ctx context.Context, jobs []scanJob) <-chan scanResult {
	in := make(chan scanJob)
	out := make(chan scanResult, 16)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range in {
				select {
				case out <- r.prepare(j):
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case in <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func (r *run) prepare(j scanJob) scanResult {
	res := scanResult{scanJob: j}
	data, f, err := r.v.ReadStamped(j.f)
	if err != nil {
		var se *vault.SkipError
		switch {
		case errors.As(err, &se) && se.Gone:
			res.gone = true // deleted since the walk: as if the walk had not met it
		case errors.As(err, &se):
			res.skip, res.keep, res.size = se.Reason, se.Unreadable, se.Size
		default:
			res.skip = err.Error()
		}
		return res
	}
	res.f = f
	res.hash = contentHash(data)
	if j.old != nil && !r.force && bytes.Equal(j.old.Hash, res.hash) {
		res.touch = true
		return res
	}
	res.doc = sections.Parse(j.f.Path, data)
	res.chunks = r.e.split(res.doc, r.opts, r.custom)
	return res
}

// batchWriter groups phase-1 writes into transactions of about batchRows.
type batchWriter struct {
	r    *run
	tx   *store.Tx
	rows int
	// kept is the run's statistics as of the last commit: a batch rolled
	// back kept nothing, so a stopped run reports these.
	kept mdsearch.IndexStats
}

// testHookWritten, when set by a test, runs as each note's result comes
// to be written, with the count so far.
var testHookWritten func(files int)

// newBatchWriter starts writing r's notes, nothing kept yet.
func newBatchWriter(r *run) *batchWriter {
	w := &batchWriter{r: r}
	w.keep()
	return w
}

// keep records the statistics as committed.
func (w *batchWriter) keep() {
	w.kept = *w.r.stats
	w.kept.Skipped = slices.Clone(w.kept.Skipped)
	w.kept.Warnings = slices.Clone(w.kept.Warnings)
}

func (w *batchWriter) begin() error {
	if w.tx != nil {
		return nil
	}
	tx, err := w.r.e.st.Begin(w.r.ctx)
	w.tx = tx
	return err
}

func (w *batchWriter) delete(id int64) error {
	if err := w.begin(); err != nil {
		return err
	}
	w.r.dirty = true
	if err := w.tx.DeleteDocument(id); err != nil {
		return err
	}
	return w.count(1)
}

func (w *batchWriter) write(res scanResult) error {
	r := w.r
	r.prog.FilesDone++
	if testHookWritten != nil {
		testHookWritten(r.prog.FilesDone)
	}
	if res.touch && res.old.MTime == res.f.ModTime && res.old.Size == res.f.Size {
		// Read to be sure (racy, or named by a watch), and as recorded:
		// nothing to write, no commit for readers to notice.
		r.stats.Unchanged++
		return nil
	}
	if err := w.begin(); err != nil {
		return err
	}
	tx := w.tx
	switch {
	case res.keep && res.old != nil:
		// Edited, but unreadable: its old text stays searchable (shown
		// stale) until it can be read, as for a folder that cannot be.
		r.stats.Unchanged++
		r.stats.Skipped = append(r.stats.Skipped, mdsearch.FileIssue{Path: res.f.Path, Reason: res.skip + keptClause(res.f.Path, 1)})
		return w.count(1)
	case res.skip != "" || res.gone:
		r.stats.Files-- // not a note after all (binary, unreadable, gone): status will not count it
		if !res.gone {
			r.stats.Skipped = append(r.stats.Skipped, mdsearch.FileIssue{Path: res.f.Path, Reason: res.skip, Size: res.size})
		}
		if res.old != nil {
			r.dirty = true
			r.stats.Deleted++
			if err := tx.DeleteDocument(res.old.ID); err != nil {
				return err
			}
		}
		return w.count(1)
	case res.touch:
		r.stats.Unchanged++
		if err := tx.TouchDocument(res.old.ID, res.f.ModTime, res.f.Size); err != nil {
			return err
		}
		return w.count(1)
	}
	for _, warn := range res.doc.Warnings {
		r.stats.Warnings = append(r.stats.Warnings, mdsearch.FileIssue{Path: res.f.Path, Reason: warn})
	}
	switch {
	case res.old != nil && bytes.Equal(res.old.Hash, res.hash):
		r.stats.Recut++ // same bytes, cut again: --full or new chunker settings
		r.dirty = true
	case res.old != nil:
		r.stats.Changed++
		r.dirty = true
	default:
		r.stats.Added++
	}
	d := res.doc
	if _, err := tx.PutDocument(store.Document{CollectionID: r.coll.ID, Path: res.f.Path, Title: d.Title,
		MTime: res.f.ModTime, Size: res.f.Size, Hash: res.hash, WordCount: chunks.NoteWords(d),
		Frontmatter: d.Frontmatter, Tags: d.Tags, Warnings: d.Warnings}, res.chunks); err != nil {
		return err
	}
	r.stats.Chunks += len(res.chunks)
	r.prog.ChunksTotal += len(res.chunks)
	for i := range res.chunks {
		r.prog.WindowsTotal += len(res.chunks[i].Windows)
	}
	rows := 1 + len(res.chunks)
	for i := range res.chunks {
		rows += len(res.chunks[i].Windows)
		r.stats.Windows += len(res.chunks[i].Windows)
		if r.model == 0 {
			continue
		}
		for j := range res.chunks[i].Windows {
			win := &res.chunks[i].Windows[j]
			key := store.WindowKey(win)
			if _, ok := r.pending[string(key)]; ok {
				continue
			}
			if Unreadable(r.e.emb, win.EmbedText) {
				// The zero vector, whatever an older run stored.
				r.pending[string(key)] = store.Pending{Key: key, EmbedText: win.EmbedText, Tokens: win.TokenCount, Zero: true}
				continue
			}
			ok, err := tx.HasVector(r.model, key)
			switch {
			case err != nil:
				return err
			case ok:
				r.stats.Reused++
			default:
				r.pending[string(key)] = store.Pending{Key: key, EmbedText: win.EmbedText, Tokens: win.TokenCount}
			}
		}
	}
	r.prog.WindowsNew = len(r.pending)
	if r.full { // --full embeds the texts that have a vector too (withFull)
		r.prog.WindowsNew += r.stats.Reused
	}
	return w.count(rows)
}

func (w *batchWriter) count(rows int) error {
	w.rows += rows
	if w.rows >= batchRows {
		return w.flush()
	}
	return nil
}

// flush commits the open batch.
func (w *batchWriter) flush() error {
	if w.tx == nil {
		return nil
	}
	removed := w.tx.Removed()
	err := w.tx.Commit()
	if err == nil {
		w.r.removed = append(w.r.removed, removed...)
		w.keep()
	} else {
		w.unkeep()
	}
	w.tx, w.rows = nil, 0
	w.r.publish()
	return err
}

// rollback drops the open batch, and with it the statistics of its notes
// (the files the walk found stay counted).
func (w *batchWriter) rollback() {
	if w.tx != nil {
		w.tx.Rollback()
		w.unkeep()
	}
}

// unkeep puts the statistics back as of the last commit.
func (w *batchWriter) unkeep() {
	files := w.r.stats.Files
	*w.r.stats = w.kept
	w.r.stats.Files = files
}
