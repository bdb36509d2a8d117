package cli

import (
	"flag"
	"os"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/provider"
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

// open loads the configured model; deferred loads the local one in the
// background (see provider.OpenDeferred). keywordOnly reports that the user
// chose no model on purpose (--embedder none).
func (f *embedderFlags) open(env *Env, deferred bool) (emb embed.Embedder, closer func(), keywordOnly bool, err error) {
	cfg := f.cfg
	cfg.Getenv = env.Getenv
	if deferred {
		emb, err = provider.OpenDeferred(cfg)
	} else {
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
