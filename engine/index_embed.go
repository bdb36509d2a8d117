package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/store"
)

// embed is phase 2: embed every chunk text in the index that has no vector
// for the current model, one committed transaction per batch.
func (r *run) embed() error {
	if r.model == 0 {
		return nil
	}
	e := r.e
	var pend []store.Pending
	if r.global {
		var err error
		if pend, err = e.st.MissingVectors(r.ctx, r.model); err != nil {
			return err
		}
		r.judge(pend)
		r.markEarlier(pend)
		pend = r.withZeroed(pend)
	} else {
		for _, p := range r.pending {
			pend = append(pend, p)
		}
		sort.Slice(pend, func(i, j int) bool { return string(pend[i].Key) < string(pend[j].Key) })
	}
	pend, err := r.withFull(pend)
	if err == nil {
		pend, err = r.zeroUnread(pend)
	}
	if err != nil {
		return err
	}
	switch {
	case len(pend) > 0:
		// The index becomes this model's at the first batch stored: a run
		// that fails before (a server that answered the dimension probe
		// with vectors of another length than the texts') leaves it, and
		// so every search, as it was, and says of no change.
		r.claim = true
	case r.global:
		// A global run owing nothing has this model's vector for every
		// window still: the index is this model's again (after a stopped
		// switch to another, whose vectors finish drops), and says so.
		if err := e.st.SetMeta(r.ctx, "model", e.emb.ModelID()); err != nil {
			return err
		}
	}
	// Similar lengths in one batch waste less padding in models that pad;
	// longest first keeps the early ETA pessimistic rather than hopeful.
	sort.SliceStable(pend, func(i, j int) bool { return len(pend[i].EmbedText) > len(pend[j].EmbedText) })
	r.prog.WindowsToEmbed, r.prog.TokensToEmbed = len(pend), pendingTokens(pend)
	r.publish()
	return r.embedAll(pend)
}

// modelChange says, when this run embeds with another model than the
// index's, which: its vectors of the other are deleted once every window
// has one of this, a cost (and for a paid server, a bill) a forgotten
// setting must not incur unsaid.
func (r *run) modelChange(windows int) error {
	had, err := r.e.st.Meta(r.ctx, "model")
	if err != nil || had == "" || had == r.e.emb.ModelID() {
		return err
	}
	keep := "index with the settings it was built with to keep them"
	if name, _, ok := strings.Cut(had, "@"); ok && strings.HasPrefix(r.e.emb.ModelID(), name+"@") {
		// Same server and model name, another dimension: no setting of
		// this run names the old one.
		keep = "the server's model answers vectors of another length now; if that was a passing fault of the server, " +
			"stop this run (Ctrl-C) and index again once it answers as before: until a run completes, the old vectors are kept"
	}
	addNotice(&r.stats.Notice, fmt.Sprintf("the embedding model changed from %s to %s: %s embedded "+
		"with it, and the vectors of %s deleted once all are (%s)",
		had, r.e.emb.ModelID(), plural.Count(windows, "window is", "windows are"), had, keep))
	return nil
}

// embedded is one Embed call's answer for a batch of pending windows.
type embedded struct {
	batch []store.Pending
	vecs  [][]float32
	err   error
}

// embedAll embeds pend in batches and commits them in order. Up to
// embedAhead calls run at once, so the model works on the next batch while
// this one is written.
func (r *run) embedAll(pend []store.Pending) error {
	e := r.e
	start := time.Now()
	pend, err := r.probe(pend, start)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(r.ctx)
	inflight := make(chan chan embedded, embedAhead(e.emb)-1)
	go func() {
		defer close(inflight)
		for i := 0; i < len(pend); i += e.opts.EmbedBatch {
			batch := pend[i:min(i+e.opts.EmbedBatch, len(pend))]
			done := make(chan embedded, 1)
			select {
			case inflight <- done:
			case <-ctx.Done():
				return
			}
			go func() {
				vecs, err := e.emb.Embed(ctx, embedTexts(batch))
				done <- embedded{batch, vecs, err}
			}()
		}
	}()
	defer func() {
		cancel()
		for done := range inflight { // calls still running finish first
			<-done
		}
	}()
	for done := range inflight {
		res := <-done
		if res.err != nil {
			return embedError(e.emb.ModelID(), res.err)
		}
		if err := r.commit(res.batch, res.vecs, start); err != nil {
			return err
		}
	}
	return r.ctx.Err()
}

// commit stores one batch's vectors and reports the progress; start is
// when the embedding began.
func (r *run) commit(batch []store.Pending, vecs [][]float32, start time.Time) error {
	if err := r.storeVectors(batch, vecs); err != nil {
		return err
	}
	if r.claim {
		if err := r.modelChange(r.prog.WindowsToEmbed); err != nil {
			return err
		}
		if err := r.e.st.SetMeta(r.ctx, "model", r.e.emb.ModelID()); err != nil {
			return err
		}
		r.claim = false
	}
	r.countEmbedded(batch)
	r.prog.WindowsEmbedded += len(batch)
	r.prog.TokensEmbedded += pendingTokens(batch)
	r.prog.EmbedsPerSecond = float64(r.prog.WindowsEmbedded) / time.Since(start).Seconds()
	r.publish()
	return nil
}

// embedTexts are the texts the model reads of a batch.
func embedTexts(batch []store.Pending) []string {
	texts := make([]string, len(batch))
	for j, p := range batch {
		texts[j] = p.EmbedText
	}
	return texts
}

// pendingTokens is the length of texts, at least a token each: the model's
// time for a text never drops to nothing.
func pendingTokens(pend []store.Pending) int {
	n := 0
	for _, p := range pend {
		n += max(p.Tokens, 1)
	}
	return n
}

// zeroUnread stores the zero vector for the pending windows the model
// cannot read (Pending.Zero) and returns the others. The model would give
// such windows all about one vector, and so rank a note of Chinese first
// for an English question as readily as for a Chinese one.
func (r *run) zeroUnread(pend []store.Pending) ([]store.Pending, error) {
	var unread []store.Pending
	readable := pend[:0:0]
	for _, p := range pend {
		if p.Zero {
			unread = append(unread, p)
		} else {
			readable = append(readable, p)
		}
	}
	if len(unread) == 0 {
		return pend, nil
	}
	zero := make([][]float32, len(unread))
	for i := range zero {
		zero[i] = make([]float32, r.e.emb.Dim())
	}
	if err := r.storeVectors(unread, zero); err != nil {
		return nil, err
	}
	r.countEmbedded(unread)
	return readable, nil
}

// countEmbedded counts the texts of a batch stored, those earlier runs
// left apart (IndexStats.EmbeddedEarlier): the first of `mdsearch index`'s
// runs embeds every collection's, which its summary must not call its own.
func (r *run) countEmbedded(batch []store.Pending) {
	r.stats.Embedded += len(batch)
	for _, p := range batch {
		if p.Earlier {
			r.stats.EmbeddedEarlier++
		}
	}
}

// judge sets Zero on the texts of a list the scan did not make (every
// text missing a vector, or every text of a --full run) that the model
// cannot read, taking the scan's verdict on the windows it wrote.
func (r *run) judge(pend []store.Pending) {
	for i := range pend {
		if p, ok := r.pending[string(pend[i].Key)]; ok {
			pend[i].Zero = p.Zero
		} else {
			pend[i].Zero = Unreadable(r.e.emb, pend[i].EmbedText)
		}
	}
}

// markEarlier marks the texts of a global run's list that it did not
// write (Pending.Earlier).
func (r *run) markEarlier(pend []store.Pending) {
	for i := range pend {
		_, ours := r.pending[string(pend[i].Key)]
		pend[i].Earlier = !ours
	}
}

// withZeroed adds to a list of texts missing a vector the windows the scan
// found unreadable that have one, from an older mdsearch: they need the
// zero vector too.
func (r *run) withZeroed(pend []store.Pending) []store.Pending {
	listed := make(map[string]bool, len(pend))
	for _, p := range pend {
		listed[string(p.Key)] = true
	}
	for k, p := range r.pending {
		if p.Zero && !listed[k] {
			pend = append(pend, p)
		}
	}
	return pend
}

// embedAhead is how many Embed calls the engine keeps in flight: one more
// than a concurrent embedder runs at once, to cover the writes, else one
// (an embedder that is not Concurrent may not be safe for concurrent use).
func embedAhead(emb embed.Embedder) int {
	if _, ok := emb.(embed.Concurrent); ok {
		return embed.ConcurrencyOf(emb) + 1
	}
	return 1
}

func (r *run) storeVectors(batch []store.Pending, vecs [][]float32) error {
	dim := r.e.emb.Dim()
	if len(vecs) != len(batch) {
		return mdsearch.Errorf(mdsearch.KindInternal, "embed", r.e.emb.ModelID(), "",
			"model returned %d vectors for %d texts", len(vecs), len(batch))
	}
	tx, err := r.e.st.Begin(r.ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, p := range batch {
		if len(vecs[i]) != dim {
			return mdsearch.Errorf(mdsearch.KindInternal, "embed", r.e.emb.ModelID(), "",
				"model returned a vector of %d dimensions, want %d", len(vecs[i]), dim)
		}
		if err := tx.PutVector(r.model, p.Key, vecs[i]); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// embedError keeps typed errors (missing assets, server down) as they are.
func embedError(model string, err error) error {
	if mdsearch.KindOf(err) != mdsearch.KindInternal {
		return err
	}
	return mdsearch.Errorf(mdsearch.KindInternal, "embed", model, "", "%w", err)
}

// finish drops vectors nothing refers to any more (and, after a global
// run, other models' vectors, now that this model covers every chunk) and
// gives free pages back.
func (r *run) finish() error {
	e := r.e
	var n int64
	var err error
	switch {
	case r.global:
		n, err = e.st.GCVectors(r.ctx, r.model, true)
	case len(r.removed) > 0:
		n, err = e.st.DeleteOrphans(r.ctx, r.removed)
	}
	if err != nil {
		return err
	}
	if n > 0 {
		r.dirty = true
	}
	if r.model != 0 || e.opts.KeywordOnly { // keyword only: no vectors are owed
		if err := e.st.SetMeta(r.ctx, metaPending, ""); err != nil {
			return err
		}
	}
	if r.model == 0 && e.opts.KeywordOnly {
		if err := r.dropVectors(n); err != nil {
			return err
		}
	}
	if err := r.mergeKeywords(); err != nil {
		return err
	}
	if r.dirty {
		if err := e.st.Vacuum(r.ctx); err != nil {
			return err
		}
	}
	return e.st.SetIndexed(r.ctx, r.coll.ID, r.sig, time.Now())
}

// dropVectors makes a keyword-only run (no embedder, chosen on purpose)
// drop semantic search for the whole index, as the refusal without it
// says: vectors the windows no longer match would otherwise still answer
// semantic queries with what the status reports as absent. orphans is
// how many this run's re-cut deleted already: the notice counts them too.
func (r *run) dropVectors(orphans int64) error {
	had, err := r.e.st.Meta(r.ctx, "model")
	if err != nil {
		return err
	}
	n, err := r.e.st.DropVectors(r.ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		n += orphans
	}
	if n > 0 {
		r.dirty = true
		what := "vectors"
		if had != "" {
			what += " of " + had
		}
		addNotice(&r.stats.Notice, fmt.Sprintf("semantic search dropped: deleted %d %s (one for each distinct window text) from every collection of this index; `mdsearch index` with a model embeds again", n, what))
	}
	return nil
}
