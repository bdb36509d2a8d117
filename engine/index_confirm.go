package engine

import (
	"context"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/remote"
)

// confirmModel makes sure, before a run writes anything, that the
// embedder knows its model's dimension (embed.Confirm): a server that
// serve, mcp or watch asks in the background may not have answered yet,
// and one declared (MDSEARCH_EMBED_DIM) may be wrong, which fails the run
// before the index names a dimension its vectors lack. Where the server
// cannot answer, a new index (no model recorded yet) is indexed for
// keyword search only by this run, noVectors saying why, and a later run
// embeds it; the run of an index with vectors fails instead, as a
// keyword-only run would leave their notes partly embedded.
func (e *Engine) confirmModel(ctx context.Context) (noVectors string, err error) {
	if e.emb == nil {
		return "", nil
	}
	err = embed.Confirm(ctx, e.emb)
	if err == nil || ctx.Err() != nil || remote.CauseOf(err) == remote.WrongDimension {
		return "", err
	}
	had, merr := e.st.Meta(ctx, "model")
	if merr != nil {
		return "", merr
	}
	if had != "" {
		return "", err
	}
	return err.Error(), nil
}
