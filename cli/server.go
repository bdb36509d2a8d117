package cli

import (
	"context"
	"flag"
	"log/slog"
	"runtime/debug"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/rest"
)

// serverFlags are what serve and mcp share: a long-running process over
// one index that follows it when it is rebuilt, re-indexes saved notes,
// and takes a token where other machines may ask.
type serverFlags struct {
	token   *string
	noWatch *bool
	ef      *engineFlags
}

func addServerFlags(fs *flag.FlagSet, tokenUsage string) *serverFlags {
	sf := &serverFlags{
		token:   fs.String("token", "", tokenUsage),
		noWatch: fs.Bool("no-watch", false, "do not watch the collections and re-index saved notes"),
		ef:      addEngineFlags(fs),
	}
	sf.ef.reranker = addRerankerFlags(fs)
	sf.ef.existing, sf.ef.follow, sf.ef.vectorCache = true, true, true
	return sf
}

// check takes the token from the environment when no flag gave one, sets
// the collector as a server wants it, and refuses an address (given with
// flag; "" for none) that is not host:port or that other machines reach
// without a token.
func (sf *serverFlags) check(env *Env, flag, addr string) error {
	if *sf.token == "" {
		*sf.token = env.Getenv("MDSEARCH_TOKEN")
	}
	serverGC(env)
	if addr == "" {
		return nil
	}
	if err := checkAddr(flag, addr); err != nil {
		return err
	}
	return rest.CheckBind(addr, *sf.token)
}

// open opens the engine with its model and starts the watcher that keeps
// it current, logging to log; closeAll stops both.
func (sf *serverFlags) open(ctx context.Context, env *Env, log *slog.Logger) (*engine.Engine, liveIndex, func(), error) {
	s, closeAll, err := openServing(ctx, env, sf.ef)
	if err != nil {
		return nil, liveIndex{}, nil, err
	}
	warnIfEmpty(ctx, env, s)
	watching := !*sf.noWatch
	if err := s.CheckModel(ctx); err != nil && watching {
		// Searches still run (by keywords, saying why); re-indexing
		// would embed every note anew and drop the index's vectors.
		log.Warn("not watching the notes", "error", err)
		watching = false
	}
	if n := s.AdoptNotice(ctx); n != "" && watching {
		log.Warn(n)
	}
	w, err := startWatch(ctx, s, watching, log, logRefresh(log, env.commands))
	if err != nil {
		closeAll()
		return nil, liveIndex{}, nil, err
	}
	s.SetCatchingUp(watching)
	go warmUp(ctx, s)
	return s, w, func() { w.Close(); closeAll() }, nil
}

// warmUp searches once, its answer dropped, as the server starts: the
// first search of a process pays for the model's first run, the vectors'
// load and a cold page cache (about 300 ms on 9,000 passages, against 30
// ms after), which the first person or agent to ask should not.
func warmUp(ctx context.Context, s mdsearch.Searcher) {
	_, _ = s.Search(ctx, mdsearch.SearchRequest{Query: "warm up", N: 1, NoRerank: true})
}

// openServing opens the engine with its model for a long-running command,
// rebuilding an index of an older schema first.
func openServing(ctx context.Context, env *Env, ef *engineFlags) (*engine.Engine, func(), error) {
	e, closeAll, err := ef.open(ctx, env, true)
	if err != nil {
		return nil, nil, err
	}
	if err := rebuildIfMigrated(ctx, env, e); err != nil {
		closeAll()
		return nil, nil, err
	}
	return e, closeAll, nil
}

// warnIfEmpty tells the user when there is nothing to serve yet.
func warnIfEmpty(ctx context.Context, env *Env, s mdsearch.Searcher) {
	if st, err := s.Status(ctx); err == nil && len(st.Collections) == 0 {
		env.say("the index %s holds no notes yet; run: mdsearch index DIR --index %s", st.IndexPath, st.IndexPath)
	}
}

// serverGC makes a long-running server collect garbage sooner than Go's
// default (GOGC=100) unless GOGC is set: the live heap is mostly the
// pointer-free vector snapshot, cheap to mark, so frequent cycles cost
// little, while reloading it at a million windows would otherwise let
// the process grow to twice the snapshot.
func serverGC(env *Env) {
	if env.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
}

// indexGC does the same for an index run: a note of megabytes makes
// short-lived passages and windows by the hundred thousand, and at the
// default target garbage doubled the run's peak (a 9 MB note of short
// lines: 380 MB resident with the local model, 291 MB at 25).
func indexGC(env *Env) { serverGC(env) }
