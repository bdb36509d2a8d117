package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/embed/provider"
	"github.com/mdsearch/mdsearch/embed/remote"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/internal/eval"
	"github.com/mdsearch/mdsearch/sections"
)

// engineFlags are the flags of every command that opens the index.
type engineFlags struct {
	fs       *flag.FlagSet
	index    string
	maxSize  string
	embedder *embedderFlags
	reranker *rerankerFlags // nil: the command does not search
	// readOnly opens the index without changing it: commands that only
	// read one (search, read, status) neither create a missing index nor
	// rebuild an older one; they say how to build it instead.
	readOnly bool
	// existing refuses a missing index rather than creating it: commands
	// that serve or watch one (serve, mcp, watch) would only leave an empty
	// file behind a mistyped --index.
	existing bool
	// follow switches to an index deleted and built again while the
	// command runs (serve, mcp, watch: they run for hours).
	follow bool
	// oneQuery loads the model while the index opens (search: one query
	// from a cold process).
	oneQuery bool
	// vectorCache reads the vectors through the vector cache, which a
	// later process of the same index then reads instead of the index
	// (search, serve, mcp: every command that searches).
	vectorCache bool
	// serverDown is set by open when the remote embedder asked for could
	// not be used: the engine runs keyword-only, which index must not call
	// done. serverErr is why, for the summary (serverTrouble).
	serverDown bool
	serverErr  error
}

func addEngineFlags(fs *flag.FlagSet) *engineFlags {
	f := addIndexFlags(fs)
	f.embedder = addEmbedderFlags(fs)
	return f
}

// addSearchFlags are search's: the index and the model, but no size limit,
// which only decides what is indexed (or read).
func addSearchFlags(fs *flag.FlagSet) *engineFlags {
	f := addIndexPathFlag(fs)
	f.embedder = addEmbedderFlags(fs)
	return f
}

// addIndexFlags adds the flags of commands that open the index and read
// notes but never embed (read), so their help lists no model flags.
func addIndexFlags(fs *flag.FlagSet) *engineFlags {
	f := addIndexPathFlag(fs)
	fs.StringVar(&f.maxSize, "max-file-size", "", "skip notes larger than this `size` (e.g. 10MB, 512KB; none or 0 for no limit; "+
		"default: the limit the collection was last indexed with, else 10MB)")
	return f
}

// addIndexPathFlag adds --index alone, for commands that read no notes
// (drop).
func addIndexPathFlag(fs *flag.FlagSet) *engineFlags {
	f := &engineFlags{fs: fs}
	fs.StringVar(&f.index, "index", "", "index file (default $MDSEARCH_INDEX, else $XDG_DATA_HOME/mdsearch/index.db, or ~/.local/share/mdsearch/index.db where that is unset)")
	return f
}

// maxFileSize is --max-file-size in bytes, or 0 when it was not given:
// the engine then keeps each collection's own limit.
func (f *engineFlags) maxFileSize() (int64, error) {
	if !flagSet(f.fs, "max-file-size") {
		return 0, nil
	}
	n, err := parseSize(f.maxSize)
	if err != nil {
		return 0, usagef("--max-file-size %q: %v", f.maxSize, err)
	}
	return n, nil
}

// indexProfiles are the cut profiles index offers beyond chunks' own:
// eval's fixed windows (sentences packed into overlapping windows,
// headings ignored), which every command that indexes must know to keep
// a collection cut so.
var indexProfiles = map[string]func(*sections.Document, chunks.Options) []mdsearch.Chunk{
	eval.ChunkFixed: func(doc *sections.Document, o chunks.Options) []mdsearch.Chunk {
		return chunks.SplitWith(doc, o, eval.Fixed)
	},
}

// indexPath is the index file the flags and environment name.
func (f *engineFlags) indexPath(env *Env) (string, error) {
	if flagSet(f.fs, "index") && strings.TrimSpace(f.index) == "" {
		// An unset variable ("--index $IDX") must not mean the default index.
		return "", usagef("--index is empty: name an index file, or leave --index out for the default")
	}
	return engine.IndexPath(f.index, env.Getenv)
}

// open opens the engine. withModel loads the embedding model; commands
// that never embed (read, status) skip it. A model that cannot be loaded
// is not an error: keyword search still works, and the engine carries a
// notice naming the fix.
// check refuses the settings open would refuse without opening anything:
// a search a running serve answers reads none of them, yet a bad one
// must not pass.
func (f *engineFlags) check(env *Env) error {
	if _, err := f.maxFileSize(); err != nil {
		return err
	}
	if f.reranker != nil {
		if _, err := f.reranker.open(env); err != nil {
			return err
		}
	}
	if f.embedder != nil {
		cfg := f.embedder.cfg
		cfg.Getenv = env.Getenv
		if err := cfg.Validate(); err != nil {
			return usagef("%v", err) // a bad --embedder setting, as open says
		}
	}
	return nil
}

func (f *engineFlags) open(ctx context.Context, env *Env, withModel bool) (*engine.Engine, func(), error) {
	path, err := f.indexPath(env)
	if err != nil {
		return nil, nil, err
	}
	maxSize, err := f.maxFileSize()
	if err != nil {
		return nil, nil, err
	}
	notify := func(msg string) { env.say("%s", msg) }
	if f.follow { // serve, mcp and watch log as the rest of their lines do
		log := env.logger()
		notify = func(msg string) { log.Warn(msg) }
	}
	opts := engine.Options{IndexPath: path, MaxFileSize: maxSize, ReadOnly: f.readOnly, Existing: f.existing,
		Follow: f.follow, Notify: notify, Profiles: indexProfiles}
	if f.vectorCache {
		if home, err := assets.Home(env.Getenv); err == nil {
			opts.VectorCache = filepath.Join(home, "vectors")
		}
	}
	if f.reranker != nil {
		if opts.Reranker, err = f.reranker.open(env); err != nil {
			return nil, nil, err
		}
	}
	closeEmb := func() {}
	if withModel && f.embedder != nil {
		// A search, or a server: the index may name the model's dimension.
		f.embedder.readIndex(ctx, path, f.readOnly || f.follow)
		mode := openNow
		switch {
		case f.oneQuery:
			mode = openDeferred
		case f.follow: // a server: listening must not wait for the embedding server
			mode = openBackground
		}
		emb, closer, keywordOnly, err := f.embedder.open(env, mode)
		switch {
		case mdsearch.KindOf(err) == mdsearch.KindInvalid:
			return nil, nil, usagef("%v", err) // a bad --embedder setting, not a missing model
		case err != nil && mdsearch.KindOf(err) != mdsearch.KindUnavailable:
			return nil, nil, err
		case remote.CauseOf(err) == remote.WrongDimension:
			return nil, nil, err // MDSEARCH_EMBED_DIM to fix, not a server to wait for
		case err != nil:
			opts.EmbedderNotice = err.Error()
			f.serverDown, f.serverErr = f.embedder.cfg.Remote(), err
			opts.WantedModel = f.embedder.cfg.RemoteModel()
		case emb != nil:
			opts.Embedder, closeEmb = emb, closer
		}
		opts.KeywordOnly = keywordOnly
	}
	opts.KeepModel = f.follow // a long-running command: what it indexes keeps the index's model
	if f.embedder != nil && (!withModel || f.embedder.cfg.Remote()) {
		// The local model's words, to tell a misspelling from a word the
		// vault lacks, where the model itself is not loaded.
		cfg := f.embedder.cfg
		cfg.Getenv = env.Getenv
		opts.Lexicon = provider.Lexicon(cfg)
	}
	e, err := engine.Open(ctx, opts)
	if err != nil {
		closeEmb()
		return nil, nil, err
	}
	return e, func() { e.Close(); closeEmb() }, nil
}

// rebuildIfMigrated re-indexes every collection after Open rebuilt an
// index of another schema version, saying so on stderr.
func rebuildIfMigrated(ctx context.Context, env *Env, e *engine.Engine) error {
	m := e.Migration()
	if m == nil || len(m.Collections) == 0 {
		return nil
	}
	env.say("%s", m)
	bar := newProgress(env, false, e.Embeds(), m.Names())
	stats, err := e.IndexAll(ctx, false, bar.update)
	bar.done(nil, err)
	for _, st := range stats {
		env.say("rebuilt %s", summary(st))
	}
	return err
}

// parseSize reads "10MB", "512KB", "1GB" or a byte count; "0" or "none"
// means no limit.
func parseSize(s string) (int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "NONE" || s == "0" {
		return -1, nil
	}
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a size; use a number of bytes or e.g. 10MB, 512KB, none")
	}
	if b := int64(n * float64(mult)); b >= 1 {
		return b, nil
	}
	return 0, fmt.Errorf("under one byte, so every note would be skipped; use none (or 0) for no limit")
}

// isTerminal reports whether w is a terminal, and its width. Main's
// errWriter is looked through.
func isTerminal(w io.Writer) (bool, int) {
	if ew, ok := w.(*errWriter); ok {
		w = ew.w
	}
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		width = 80
	}
	return true, width
}

// printNotice shows an engine notice on stderr.
func printNotice(env *Env, notice string) {
	if notice != "" {
		env.say("note: %s", notice)
	}
}
