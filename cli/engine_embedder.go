package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/provider"
	"github.com/mdsearch/mdsearch/embed/remote"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/store"
)

// embedderFlags choose the embedding model of index-using commands
// (--embedder and friends). Their defaults come from the MDSEARCH_*
// variables of the process, so flags override the environment.
type embedderFlags struct {
	cfg provider.Config
}

func addEmbedderFlags(fs *flag.FlagSet) *embedderFlags {
	f := &embedderFlags{cfg: provider.FromEnv(os.Getenv)}
	f.cfg.AddFlags(fs)
	return f
}

// openMode is when open's model is ready: at once, or later.
type openMode int

const (
	openNow        openMode = iota // loaded, and a server's dimension known
	openDeferred                   // the local model loads in the background (a search: provider.OpenDeferred)
	openBackground                 // a server's dimension is asked in the background (serve, mcp, watch: provider.OpenBackground)
)

// open loads the configured model, when mode says. keywordOnly reports
// that the user chose no model on purpose (--embedder none).
func (f *embedderFlags) open(env *Env, mode openMode) (emb embed.Embedder, closer func(), keywordOnly bool, err error) {
	cfg := f.cfg
	cfg.Getenv = env.Getenv
	switch mode {
	case openDeferred:
		emb, err = provider.OpenDeferred(cfg)
	case openBackground:
		emb, err = provider.OpenBackground(cfg, func(err error) {
			env.say("could not learn the dimension of the %s server's model: %v; searches show keyword results "+
				"meanwhile, and the next search or index run asks again", cfg.Provider, err)
		})
	default:
		emb, err = provider.Open(cfg)
	}
	if err != nil {
		return nil, func() {}, false, err
	}
	if emb == nil {
		return nil, func() {}, true, nil
	}
	return emb, func() { provider.Close(emb) }, false, nil
}

// readIndex takes what the index at path records of a server's model
// where the flags leave it open: the window its notes were cut for
// (engine.WindowKey), where MDSEARCH_EMBED_MAX_TOKENS is unset, so they
// are not all cut again to the default; with takeDim (a search, or a
// serve, mcp or watch), the model's ID, so a model of that name takes its
// dimension rather than being probed before each search (an index run
// must learn the dimension the model has now). An index that cannot be
// read (none yet) leaves the defaults.
func (f *embedderFlags) readIndex(ctx context.Context, path string, takeDim bool) {
	takeDim = takeDim && f.cfg.Dim == 0
	if !f.cfg.Remote() || (!takeDim && f.cfg.MaxTokens != 0) {
		return
	}
	st, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		return
	}
	defer st.Close()
	if takeDim {
		f.cfg.IndexModel, _ = st.Meta(ctx, "model")
	}
	if f.cfg.MaxTokens != 0 {
		return
	}
	rec, _ := st.Meta(ctx, engine.WindowKey)
	model, window, _ := strings.Cut(rec, " ")
	if n, err := strconv.Atoi(window); err == nil && n > 0 && strings.HasPrefix(model, f.cfg.RemoteModel()+"@") {
		f.cfg.MaxTokens = n
	}
}

// serverTrouble is the summary of an index run that had to leave the
// remote embedder out: what the server did, by kind, and when to run
// index again. A key, a model or a URL to fix is no server to wait for.
func (f *engineFlags) serverTrouble() string {
	what, when := "did not answer", "once it is up"
	switch remote.CauseOf(f.serverErr) {
	case remote.Failing:
		what, when = "answered with errors", "once it works"
	case remote.Busy:
		what, when = "is rate-limiting", "once it takes requests again"
	case remote.KeyRefused:
		what, when = "refused the API key", "once the key is fixed"
	case remote.NoSuchModel:
		what, when = "has no such model", "once the model is there or --embed-model names one it has"
	case remote.NotEmbeddings, remote.WrongDimension:
		what, when = "answered something that is not embeddings", "once fixed"
	case remote.Refused:
		what, when = "refused the request", "once fixed"
	}
	return fmt.Sprintf("the %s server %s; %s, run `mdsearch index` again (with the same --embedder) to add them",
		f.embedder.cfg.Provider, what, when)
}
