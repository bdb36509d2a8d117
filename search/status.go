package search

import (
	"context"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// Status describes the index: collections, counts, stale files, the model
// and, while an Index call runs in this process, its progress.
func (e *Engine) Status(ctx context.Context) (*mdsearch.Status, error) {
	model, err := e.st.Meta(ctx, "model")
	if err != nil {
		return nil, err
	}
	modelID, err := e.st.ModelID(ctx, model)
	if err != nil {
		return nil, err
	}
	s := &mdsearch.Status{IndexPath: e.st.Path(), SchemaVersion: store.SchemaVersion, ModelID: model,
		Collections: []mdsearch.CollectionStatus{}, Indexing: e.progress.Load()}
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range colls {
		cs, err := e.st.CollectionStats(ctx, c.ID, modelID)
		if err != nil {
			return nil, err
		}
		st := mdsearch.CollectionStatus{Name: c.Name, Root: c.Root, Files: cs.Files, Chunks: cs.Chunks, Windows: cs.Windows, Vectors: cs.Vectors}
		if !c.IndexedAt.IsZero() {
			st.IndexedAt = c.IndexedAt.UTC().Format(time.RFC3339)
		}
		if st.Stale, err = e.stale(ctx, c.ID, c.Root); err != nil {
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
	return s, nil
}

// stale counts notes added, changed or deleted on disk since indexing.
// A vault folder that is gone makes every note stale.
func (e *Engine) stale(ctx context.Context, collID int64, root string) (int, error) {
	docs, err := e.st.DocInfos(ctx, collID)
	if err != nil {
		return 0, err
	}
	v, err := vault.Open(root, vault.Options{MaxFileSize: e.opts.MaxFileSize})
	if err != nil {
		return len(docs), nil
	}
	files, _, err := v.Walk(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		d, ok := docs[f.Path]
		if !ok || d.MTime != f.ModTime || d.Size != f.Size {
			n++
		}
		delete(docs, f.Path)
	}
	return n + len(docs), nil
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
