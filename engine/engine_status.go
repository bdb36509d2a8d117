package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// Status describes the index: collections, counts, stale files, the model
// and, while an Index call runs in this process, its progress.
func (e *Engine) Status(ctx context.Context) (_ *mdsearch.Status, err error) {
	defer e.explain(&err)
	leave, err := e.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	model, err := e.st.Meta(ctx, "model")
	if err != nil {
		return nil, err
	}
	modelID, err := e.st.ModelID(ctx, model)
	if err != nil {
		return nil, err
	}
	s := &mdsearch.Status{IndexPath: e.st.Path(), SchemaVersion: store.SchemaVersion, ModelID: model,
		Collections: []mdsearch.CollectionStatus{}, Indexing: e.progress.Load(), Scores: e.Scores(mdsearch.ModeHybrid)}
	if model == "" {
		if s.WantedModel, err = e.st.Meta(ctx, wantedKey); err != nil {
			return nil, err
		}
		if err := e.owedEmbedding(ctx, s); err != nil {
			return nil, err
		}
	}
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range colls {
		cs, err := e.st.CollectionStats(ctx, c.ID, modelID)
		if err != nil {
			return nil, err
		}
		st := mdsearch.CollectionStatus{Name: c.Name, Root: c.Root, Files: cs.Files, Chunks: cs.Chunks, Windows: cs.Windows, Vectors: cs.Vectors,
			Profile: e.storedProfile(c.Chunking), Outdated: cutByOlder(c.Chunking), RecutStopped: strings.HasSuffix(c.Chunking, " "+recutMark),
			Unfinished: unfinished(c.Chunking)}
		if !c.IndexedAt.IsZero() {
			st.IndexedAt = c.IndexedAt.UTC().Format(time.RFC3339)
		}
		if st.Stale, st.RootMissing, st.Unreadable, err = e.stale(ctx, c.ID, c.Name, c.Root); err != nil {
			return nil, err
		}
		if st.Warnings, err = e.st.Warnings(ctx, c.ID); err != nil {
			return nil, err
		}
		if st.Skipped, err = e.skippedOf(ctx, c.Name); err != nil {
			return nil, err
		}
		s.Collections = append(s.Collections, st)
		s.Files += st.Files
		s.Chunks += st.Chunks
		s.Windows += st.Windows
		s.Vectors += st.Vectors
		s.Stale += st.Stale
	}
	s.SizeBytes = e.st.SizeBytes()
	s.Notice = e.statusNotice(model)
	if s.Notice == "" && s.Vectors < s.Windows {
		s.Notice = e.pendingNotice(ctx, fmt.Sprintf("%d of %s %s vectors", s.Vectors, plural.Count(s.Windows, "window", "windows"), plural.Noun(s.Vectors, "has", "have")), true)
	}
	return s, nil
}

// owedEmbedding sets, for an index without vectors, the model a run that
// wrote windows was to embed them with (WindowKey): as EmbedRunning while
// a run goes on, here or in another process, else as EmbedStopped, where
// it stopped before its first vector. Without them the index would read
// as keyword-only by choice.
func (e *Engine) owedEmbedding(ctx context.Context, s *mdsearch.Status) error {
	if !e.owesVectors(ctx) {
		return nil
	}
	w, err := e.st.Meta(ctx, WindowKey)
	model, _, _ := strings.Cut(w, " ")
	if e.progress.Load() != nil || indexHeld(e.st.Path()) {
		s.EmbedRunning = model
	} else {
		s.EmbedStopped = model
	}
	return err
}

// Unembedded counts the windows of the index without a vector of the
// engine's model: what a stopped run left for the next one to embed. It
// is 0 without an embedder, and cheap beside Status, which walks every
// vault.
func (e *Engine) Unembedded(ctx context.Context) (_ int, err error) {
	defer e.explain(&err)
	if e.emb == nil {
		return 0, nil
	}
	leave, err := e.enter(ctx)
	if err != nil {
		return 0, err
	}
	defer leave()
	modelID, err := e.st.ModelID(ctx, e.emb.ModelID())
	if err != nil {
		return 0, err
	}
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range colls {
		cs, err := e.st.CollectionStats(ctx, c.ID, modelID)
		if err != nil {
			return 0, err
		}
		n += cs.Windows - cs.Vectors
	}
	return n, nil
}

// stale counts notes added, changed or deleted on disk since indexing,
// and reports whether the collection's folder is gone (every note is then
// stale) or why an index run would stop before reading it (an ignore file
// it cannot read, a root it may not list: the count is then not known,
// 0). A file the index run would skip (over the size limit the collection
// was indexed with, binary, unreadable) is not a note, so it is never
// stale; nor is a note whose time changed but not its bytes, nor one in a
// folder that cannot be listed (an index run keeps it as it was). A racy
// note, one whose stamp matches but its time is too recent to trust, is
// read, as an index run reads it.
func (e *Engine) stale(ctx context.Context, collID int64, name, root string) (_ int, missing bool, unreadable string, _ error) {
	docs, err := e.st.DocInfos(ctx, collID)
	if err != nil {
		return 0, false, "", err
	}
	scanned, err := e.scannedAt(ctx, name)
	if err != nil {
		return 0, false, "", err
	}
	v, err := e.vaultOf(ctx, name, root)
	var l *vault.Listing
	if err == nil {
		l, err = v.List(ctx)
	}
	var gone *mdsearch.Error
	switch {
	case errors.As(err, &gone) && gone.Kind == mdsearch.KindNotFound:
		return len(docs), true, "", nil // the folder is gone
	case errors.As(err, &gone):
		return 0, false, gone.Error(), nil // an index run stops on it: what it would say
	case err != nil:
		return 0, false, "", err
	}
	n := 0
	for _, f := range l.Files {
		d, ok := docs[f.Path]
		switch {
		case ok && d.MTime == f.ModTime && d.Size == f.Size && !racy(d.MTime, scanned):
		case ok && d.Size == f.Size && sameContent(v, f, d.Hash):
			// Touched, not edited (a checkout, a sync tool), or racy and
			// as read: the next index run records the new time, if any.
		case !ok && skipped(v, f):
		default:
			n++
		}
		delete(docs, f.Path)
	}
	for p := range docs {
		if slices.ContainsFunc(l.Unseen, func(u string) bool { return vault.Holds(u, p) }) {
			delete(docs, p) // an index run keeps it: not known to be gone
		}
	}
	return n + len(docs), false, "", nil
}

// maxSizeKey is the meta key of the size limit a collection was indexed
// with.
func maxSizeKey(name string) string { return "max_file_size/" + name }

// maxSizeFor is the size limit for the notes of collection name: this
// engine's when it was given one, else the one the collection was last
// indexed with, else 0 (the vault default). So a re-index, a read or a
// status without a limit of its own neither adds nor drops notes the
// collection's own limit decided on.
func (e *Engine) maxSizeFor(ctx context.Context, name string) (int64, error) {
	if e.opts.MaxFileSize != 0 {
		return e.opts.MaxFileSize, nil
	}
	return e.indexedMaxSize(ctx, name)
}

// indexedMaxSize is the size limit collection name was last indexed with,
// or 0 (the vault default).
func (e *Engine) indexedMaxSize(ctx context.Context, name string) (int64, error) {
	s, err := e.st.Meta(ctx, maxSizeKey(name))
	if err != nil || s == "" {
		return 0, err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, nil
	}
	return n, nil
}

// sameContent reports whether f still holds the bytes whose SHA-256 the
// index keeps.
func sameContent(v *vault.Vault, f vault.File, hash []byte) bool {
	data, err := v.Read(f)
	return err == nil && bytes.Equal(contentHash(data), hash)
}

// skipped reports whether an index run would skip f when reading it.
func skipped(v *vault.Vault, f vault.File) bool {
	_, err := v.Read(f)
	var se *vault.SkipError
	return errors.As(err, &se)
}

func (e *Engine) statusNotice(model string) string {
	switch {
	case e.migration != nil:
		return e.migration.String()
	case e.emb == nil && model != "" && e.opts.EmbedderNotice != "":
		return e.noEmbedderNotice()
	case e.emb != nil && model != "" && model != e.emb.ModelID():
		return "the index was embedded with " + model + ", not " + e.emb.ModelID() + "; run `mdsearch index` to re-embed"
	}
	return ""
}
