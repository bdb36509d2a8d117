package engine

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/remote"
)

// semanticReady returns the vectors to search, or nil and a notice saying
// why semantic ranking is unavailable. A search hears of unfinished
// embedding only where windows of its collection (collection, or 0: any)
// lack vectors.
func (e *Engine) semanticReady(ctx context.Context, collection int64) (*snapshot, bool, string, error) {
	if e.emb == nil {
		return nil, false, e.noEmbedderNotice(), nil
	}
	if err := embed.Ready(e.emb); err != nil {
		// No dimension yet, so no model ID to find vectors of; but an
		// index built with another model has none of this one's however
		// the server answers, and starting it would not help.
		cur := unsized(e.emb.ModelID())
		if have, _ := e.st.Meta(ctx, "model"); have != "" && !sameServerModel(have, cur) {
			return nil, false, builtWith(cur, have), nil
		}
		return nil, false, "semantic search unavailable: " + err.Error() + "; showing keyword results", nil
	}
	snap, stale, err := e.vectors(ctx)
	if err != nil {
		return nil, false, "", err
	}
	if snap.live() == 0 {
		have, _ := e.st.Meta(ctx, "model")
		msg := "semantic search unavailable: the index has no vectors for " + e.emb.ModelID()
		if dim := otherDim(have, e.emb.ModelID()); dim != 0 {
			return nil, false, msg + " (it was built with " + have + "): the same model at " + strconv.Itoa(dim) +
				" dimensions; if MDSEARCH_EMBED_DIM is set, unset it or set it to " + strconv.Itoa(dim) +
				"; else the server's model changed, and `mdsearch index` embeds the notes anew with it; showing keyword results", nil
		}
		if have != "" && have != e.emb.ModelID() {
			return nil, false, builtWith(e.emb.ModelID(), have), nil
		}
		return nil, false, msg + "; " + e.toEmbed(ctx) + "; showing keyword results", nil
	}
	// A run embedding now says so too: a search during a vault's first
	// run ranks by the windows embedded so far, as confidently as after.
	notice := e.pendingNotice(ctx, "meaning covers only the windows embedded so far", true)
	// The mark outlives a run killed after its last vector (SIGKILL
	// during a re-cut that owed none): the windows decide.
	if notice != "" && !e.unembedded(ctx, collection) {
		notice = ""
	}
	return snap, stale, notice, nil
}

// builtWith is the notice of a search whose embedder's model, current, is
// not the one the index was built with, have. Indexing with this model
// would throw the other's vectors away: most often the search lacks a
// setting.
func builtWith(current, have string) string {
	return "semantic search unavailable: the index has no vectors for " + current + " (it was built with " + have +
		"): search with the embedder it was built with (" + embedderOf(have, current) +
		"), or run `mdsearch index` to embed it anew with this one; showing keyword results"
}

// unembedded reports whether some window of collection (0: of any) lacks
// a vector of the engine's model (true when that cannot be read: the
// notice stays). Asked once a generation: on a million windows with none
// missing the answer takes a scan of them all.
func (e *Engine) unembedded(ctx context.Context, collection int64) bool {
	gen, err := e.st.Generation(ctx)
	if err != nil {
		return true
	}
	some, err := e.owed.get(gen, collection, func() (bool, error) {
		model, err := e.st.ModelID(ctx, e.emb.ModelID())
		if err != nil || model == 0 {
			return true, errNoModel // not kept: the notice stays
		}
		return e.st.Unembedded(ctx, model, collection)
	})
	return err != nil || some
}

// errNoModel is unembedded's when the index has no vectors of the model.
var errNoModel = errors.New("no vectors of the model")

// CheckModel is an error when the index holds vectors of another model
// than the engine's embedder (or the engine has none): indexing would
// embed every note anew, or drop them. Options.KeepModel has index runs
// refuse so; a long-running command asks before it watches.
func (e *Engine) CheckModel(ctx context.Context) error {
	had, err := e.st.Meta(ctx, "model")
	if err != nil || had == "" {
		return err
	}
	cur, settings := "no embedder", embedderOf(had, had)
	if e.emb != nil {
		cur = e.emb.ModelID()
		if embed.Ready(e.emb) != nil {
			// No dimension yet, but the server's API and model are
			// known: only another dimension is left to the run's probe.
			if cur = unsized(cur); sameServerModel(had, cur) {
				return nil
			}
		} else if cur == had {
			return nil
		}
		settings = embedderOf(had, cur)
	}
	return mdsearch.Errorf(mdsearch.KindInvalid, "index", e.st.Path(),
		"start it with the embedder the index was built with, "+settings+"; or run `mdsearch index` to re-embed it with this one",
		"the index holds vectors of %s, and this process has %s: re-indexing here would embed every note anew and drop them", had, cur)
}

// AdoptNotice says, when the index holds notes but no vectors (indexed
// keyword-only) and the engine has an embedder, that keeping the index
// current will embed every note with it: on a paid server, a bill no
// command asked for by name. "" otherwise.
func (e *Engine) AdoptNotice(ctx context.Context) string {
	if e.emb == nil {
		return ""
	}
	had, err := e.st.Meta(ctx, "model")
	if err != nil || had != "" {
		return ""
	}
	if some, err := e.st.HasWindows(ctx); err != nil || !some {
		return ""
	}
	why := "it was indexed for keyword search only"
	if e.owesVectors(ctx) {
		why = "the run that was to embed them stopped first"
	}
	return "the index holds no vectors (" + why + "): keeping it current embeds every note with " +
		unsized(e.emb.ModelID()) + "; start with --embedder none to keep it keyword-only"
}

// unsized is a server model's ID without the dimension it does not know
// yet ("ollama:m@0" is "ollama:m").
func unsized(id string) string {
	if api, model, dim, ok := remote.ParseModelID(id); ok && dim == 0 {
		return string(api) + ":" + model
	}
	return id
}

// sameServerModel reports whether two model IDs name one API's model,
// whatever their dimensions.
func sameServerModel(a, b string) bool {
	apiA, modelA, _, okA := remote.ParseModelID(a)
	apiB, modelB, _, okB := remote.ParseModelID(b)
	return okA && okB && apiA == apiB && modelA == modelB
}

// otherDim is the dimension of the index's model, have, where it is the
// current one's server API and model name at another dimension (one
// declared with MDSEARCH_EMBED_DIM, or a server whose model changed),
// else 0: the embedder's flags are right, so naming them says nothing.
func otherDim(have, current string) int {
	_, _, dim, _ := remote.ParseModelID(have)
	_, _, now, _ := remote.ParseModelID(current)
	if !sameServerModel(have, current) || dim == now {
		return 0
	}
	return dim
}

// embedderOf names the settings of the embedder that made model, a model
// ID as the index records it, for a search with the embedder whose ID is
// current: "ollama:nomic-embed-text@768" is --embedder ollama
// --embed-model nomic-embed-text; an ID that is not a server's is the
// local model's, and one that begins or ends another local one's
// ("use-lite-0.2.0-int8-row" of "use-lite-0.2.0") the local model at
// another precision, the one setting that adds to its ID (sentenceencoder's
// Precision.ModelID).
func embedderOf(model, current string) string {
	if flags, ok := serverFlags(model); ok {
		return flags + ", and --embed-url where it is not the default"
	}
	if _, _, _, remoteNow := remote.ParseModelID(current); !remoteNow && current != model &&
		(strings.HasPrefix(model, current) || strings.HasPrefix(current, model)) {
		if strings.Contains(model, "int8") {
			return "the local model at int8: --precision int8"
		}
		return "the local model at float32: --precision float32"
	}
	return "the local model: --embedder use"
}

// pendingNotice says, after what, that an index run has not finished
// embedding: it was stopped, or (when running too) it is running now, here
// or in another process. It is "" when every window has its vector.
func (e *Engine) pendingNotice(ctx context.Context, what string, running bool) string {
	if p, err := e.st.Meta(ctx, metaPending); err != nil || p == "" {
		return ""
	}
	switch {
	case e.progress.Load() != nil:
		if running {
			return what + ": this process is indexing"
		}
	case indexHeld(e.st.Path()):
		if running {
			return what + ": an index run in another process is embedding"
		}
	case e.catchingUp.Load():
		return what + ": this process embeds the rest " + byItself
	default:
		model, _ := e.st.Meta(ctx, "model")
		return what + ": an index run was stopped before it finished embedding; " + completing(model)
	}
	return ""
}

// SetCatchingUp says whether a watcher of this process keeps the index
// current, indexing again by itself (and retrying while the embedding
// model cannot answer): serve's, mcp's and watch's. Notices of vectors
// not embedded yet then say this process embeds them, not that a run of
// `mdsearch index` is owed.
func (e *Engine) SetCatchingUp(on bool) { e.catchingUp.Store(on) }

// byItself is when a process whose watcher catches up embeds windows.
const byItself = "once the embedding model answers, retrying by itself"

// toEmbed is what a notice says embeds an index's windows: this process's
// watcher, or a run of index.
func (e *Engine) toEmbed(ctx context.Context) string {
	switch {
	case e.catchingUp.Load():
		return "this process embeds them " + byItself
	case e.indexing() && e.owesVectors(ctx): // a first run with a model, before its first vectors
		return "an index run is writing the index now and embeds them as it goes"
	}
	return "run `mdsearch index` to embed"
}

// owesVectors reports whether a run with a model wrote windows it has
// not embedded yet (metaPending): a keyword-only run sets no such mark.
func (e *Engine) owesVectors(ctx context.Context) bool {
	p, err := e.st.Meta(ctx, metaPending)
	return err == nil && p != ""
}

// completing is the command that completes a run that was embedding with
// model: with its embedder's settings where it is a server's, for a bare
// `mdsearch index` would embed every note anew with the local model and
// drop the server's vectors.
func completing(model string) string {
	flags, ok := serverFlags(model)
	if !ok {
		return "`mdsearch index` completes it"
	}
	return "`mdsearch index " + flags + "`, with --embed-url where it is not the default, completes it"
}

// serverFlags are the flags that name model's embedder, where it is an
// embedding server's: "--embedder ollama --embed-model nomic-embed-text".
func serverFlags(model string) (string, bool) {
	api, name, _, ok := remote.ParseModelID(model)
	if !ok {
		return "", false
	}
	return "--embedder " + string(api) + " --embed-model " + name, true
}
