package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/rerank"
	"github.com/mdsearch/mdsearch/rescore"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// Options configure an Engine. Only IndexPath is required.
type Options struct {
	IndexPath string // the SQLite file; see IndexPath for the default
	// ReadOnly opens an existing index and changes nothing: a missing
	// file, or an index of an older schema version, is refused with a hint
	// instead of being created or rebuilt.
	ReadOnly bool
	// Existing refuses a missing file, with a hint, rather than creating
	// it (serving and watching need an index that was built).
	Existing bool
	// Follow switches to the index found at IndexPath when the open one is
	// deleted and built again, or replaced, while the engine runs (serve,
	// mcp, watch), rather than refusing every call (see engine_follow.go).
	Follow bool

	// Embedder embeds chunks and queries. nil means keyword search only;
	// EmbedderNotice then says why (e.g. missing model assets) and is
	// shown with every answer.
	Embedder       embed.Embedder
	EmbedderNotice string
	// WantedModel is the server model asked for but not reached
	// ("ollama:nomic-embed-text"), where Embedder is nil for that reason:
	// an index run without vectors records it, so status can name the
	// settings that add them.
	WantedModel string
	// Lexicon knows the words that are spelled right, so a word the vault
	// lacks is not respelled into one it holds (see Suggestion); nil: the
	// embedder's, when it has one (embed.Lexicon).
	Lexicon embed.Lexicon
	// KeywordOnly lets Index run without an embedder on an index that has
	// vectors. Without it such a run is refused, so a missing model cannot
	// silently turn a semantic index into a keyword one.
	KeywordOnly bool
	// KeepModel makes an index run refuse to change the model whose
	// vectors the index holds (another embedder's, or none): the
	// long-running commands (watch, serve, mcp) set it, so a setting their
	// start lacked cannot embed every note anew and drop vectors that a
	// server made, at a cost. `mdsearch index` switches, and says so.
	KeepModel bool

	// Chunking configures the chunker. The token budget defaults to, and
	// is capped at, the embedder's window; the counter is the embedder's.
	Chunking chunks.Options
	// Split replaces chunks.Split (evaluation baselines); SplitName names
	// it, so a collection cut by another splitter is re-chunked.
	Split     func(*sections.Document, chunks.Options) []mdsearch.Chunk
	SplitName string
	// Profiles are cut profiles besides chunks' own (sections, h2h3), by
	// name, that a collection may be cut with (IndexRequest.Profile).
	Profiles map[string]func(*sections.Document, chunks.Options) []mdsearch.Chunk

	// MaxFileSize is the size limit of notes, in bytes (negative: none).
	// 0 means each collection's own, the one it was last indexed with,
	// else vault.DefaultMaxFileSize.
	MaxFileSize int64
	EmbedBatch  int // texts per Embed call and per committed batch; default 64

	Weights store.Weights // bm25 column weights; zero means store.DefaultWeights
	Fusion  Fusion        // how scores are made; zero fields mean DefaultFusion's
	// Rescore is the second stage's model; nil means rescore.Default().
	// FirstStageOnly leaves the second stage out: scores are the first
	// stage's fusion (evaluation baselines, and fitting the model).
	Rescore        *rescore.Model
	FirstStageOnly bool
	// Observe, when set, hears the second stage's candidates and features
	// for every search (fitting the model).
	Observe func(query string, cands []Observed)

	// Reranker, when set, reorders the first results of every search that
	// does not opt out (SearchRequest.NoRerank) by a cross-encoder's
	// scores (see query_rerank.go); nil keeps the local ranking.
	Reranker rerank.Reranker

	// VectorCache is a folder where each index's vectors are kept in one
	// file as of its last change (see snapshot_cache.go), for processes that
	// load them to search once; "" keeps none. A changed index is read
	// from SQLite again and its file rewritten.
	VectorCache string

	// Notify hears what a user should know while a call waits, such as
	// another process holding the index lock; nil discards it.
	Notify func(msg string)
}

// Engine is the mdsearch search engine. It is safe for concurrent use:
// searches, reads and status calls run while an Index call commits.
type Engine struct {
	opts Options
	// mu is read-held by every exported call for the store it uses, and
	// write-held to switch to a rebuilt index (engine_follow.go) or to
	// open one opened read-only anew (engine_reopen.go).
	mu        sync.RWMutex
	switching atomic.Bool                   // the file at the path was replaced: calls go straight to follow
	reopenDue atomic.Bool                   // a write was refused for the index being opened read-only (engine_reopen.go)
	reopening atomic.Pointer[chan struct{}] // closed once the index is opened anew; nil when it is not
	st        *store.Store
	emb       embed.Embedder
	migration *store.Migration

	indexMu  sync.Mutex                             // one Index run at a time in this process
	progress atomic.Pointer[mdsearch.IndexProgress] // non-nil while Index runs
	// catchingUp is set while a watcher of this process indexes again by
	// itself, retrying while the embedding model cannot answer: notices
	// then say it will embed, not that a command is owed (SetCatchingUp).
	catchingUp atomic.Bool

	snapMu sync.Mutex               // one vector load at a time
	snap   atomic.Pointer[snapshot] // vectors of the current model, in memory

	model      *rescore.Model               // the second stage; nil: none
	headings   atomic.Pointer[headingNotes] // heading counts, as of a generation
	props      genMemo[string, bool]        // whether a note has a frontmatter field of the name (knownProperty)
	owed       genMemo[int64, bool]         // whether a collection's windows lack vectors (unembedded)
	rerankDown rerankState                  // when the reranker last failed: searches skip it a while
	headCounts genMemo[string, int]         // notes under a heading, with no filter (templateNotice)
	links      noteLinks                    // listings of collections' notes for rendered links (read_notelinks.go)
}

var _ mdsearch.Searcher = (*Engine)(nil)

// Open opens (or creates) the index at opts.IndexPath. Unless ReadOnly, an
// index of an older schema version is rebuilt empty; Migration reports it,
// and IndexAll re-indexes its collections from their vaults. A file that is
// not an mdsearch index, or a newer index, is refused (see store.Open).
func Open(ctx context.Context, opts Options) (*Engine, error) {
	if opts.IndexPath == "" {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "open index", "", "", "no index path given")
	}
	if opts.EmbedBatch <= 0 {
		opts.EmbedBatch = 64
	}
	if opts.Weights == (store.Weights{}) {
		opts.Weights = store.DefaultWeights
	}
	opts.Fusion = opts.Fusion.withDefaults()
	model := opts.Rescore
	if model == nil && !opts.FirstStageOnly {
		m, err := rescore.Default()
		if err != nil {
			return nil, mdsearch.Errorf(mdsearch.KindInternal, "open index", "", "", "%v", err)
		}
		model = m
	}
	if opts.FirstStageOnly {
		model = nil
	}
	st, mig, err := openStore(ctx, opts)
	if err != nil {
		return nil, err
	}
	e := &Engine{opts: opts, st: st, emb: opts.Embedder, migration: mig, model: model}
	// SQLite opened an index it may not write for reading alone: the first
	// write opens it anew, should it be writable by then (engine_reopen.go).
	e.reopenDue.Store(!opts.ReadOnly && !st.Writable())
	return e, nil
}

func openStore(ctx context.Context, opts Options) (*store.Store, *store.Migration, error) {
	switch {
	case opts.ReadOnly:
		st, err := store.OpenReadOnly(ctx, opts.IndexPath)
		return st, nil, err
	case opts.Existing:
		return store.OpenExisting(ctx, opts.IndexPath)
	}
	if _, err := os.Lstat(opts.IndexPath); errors.Is(err, fs.ErrNotExist) {
		// A new index whose lock file is someone else's would be
		// refused its first write: refused before it is made.
		if err := lockUsable(opts.IndexPath); err != nil {
			return nil, nil, err
		}
	}
	return store.Open(ctx, opts.IndexPath)
}

// Close closes the index file, once the calls using it have ended. It
// does not close the embedder.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st.Close()
}

// explain, deferred with an exported method's error (and so run after the
// call's release), names the index file and what to do when SQLite failed
// on it (see store.Explain).
func (e *Engine) explain(err *error) {
	if *err == nil {
		return
	}
	e.mu.RLock()
	path := e.st.Path()
	e.mu.RUnlock()
	if e.opts.Follow && errors.Is(*err, mdsearch.ErrIndexReplaced) {
		// Replaced during the call: the next one switches (engine_follow.go), so
		// a watcher must not take it for the end.
		*err = replacedDuring(e.opts.IndexPath)
		return
	}
	e.noteReadOnly(*err)
	*err = store.Explain(path, *err)
}

// Check reads the whole index file for damage (SQLite's quick_check),
// which a search or an index run may never meet: they read only the pages
// they need.
func (e *Engine) Check(ctx context.Context) (err error) {
	defer e.explain(&err)
	leave, err := e.enter(ctx)
	if err != nil {
		return err
	}
	defer leave()
	return e.st.Check(ctx)
}

// Store gives direct access to the index file (tests, evaluation): the one
// open now, which a following engine may later switch from.
func (e *Engine) Store() *store.Store {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st
}

// Migration is non-nil when Open rebuilt an index of another schema version.
func (e *Engine) Migration() *store.Migration {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.migration
}

// IndexPath resolves where the index lives: flag if set, else
// $MDSEARCH_INDEX, else $XDG_DATA_HOME/mdsearch/index.db, else
// ~/.local/share/mdsearch/index.db.
func IndexPath(flag string, getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch {
	case flag != "":
		return flag, nil
	case getenv("MDSEARCH_INDEX") != "":
		return getenv("MDSEARCH_INDEX"), nil
	case getenv("XDG_DATA_HOME") != "":
		return filepath.Join(getenv("XDG_DATA_HOME"), "mdsearch", "index.db"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", mdsearch.Errorf(mdsearch.KindInvalid, "find index", "", "pass --index PATH or set MDSEARCH_INDEX", "no home folder: %v", err)
		}
	}
	return filepath.Join(home, ".local", "share", "mdsearch", "index.db"), nil
}

// SizeFor sizes chunks for emb: its counter, unless o names one, and
// windows of its own token window, unless o asks for smaller ones. A
// model that reads 512 tokens or more (a remote one) reads a passage
// whole rather than in the local model's 128-token pieces. The engine
// cuts so for its embedder; a caller that wants the same cut without
// embedding (keyword-only runs) passes the result as Options.Chunking.
func SizeFor(o chunks.Options, emb embed.Embedder) chunks.Options {
	if o.Counter == nil {
		o.Counter = emb
	}
	if max := emb.MaxTokens(); max > 0 {
		if o.MaxTokens <= 0 {
			o.MaxTokens = max
		}
		o.MaxTokens = min(o.MaxTokens, max)
	}
	return o
}

// chunkOptions are the chunker settings for the current embedder.
func (e *Engine) chunkOptions() chunks.Options {
	o := e.opts.Chunking
	def := chunks.DefaultOptions()
	if e.emb != nil {
		o = SizeFor(o, e.emb)
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = def.MaxTokens
	}
	if o.Counter == nil {
		o.Counter = def.Counter
	}
	if o.Profile == "" {
		o.Profile = def.Profile
	}
	if o.PassageWords <= 0 {
		o.PassageWords = def.PassageWords
	}
	return o
}

// signature names everything that decides how notes are cut and how the
// keyword index reads them; a collection cut with another signature is
// re-chunked.
// custom names the run's profile of Options.Profiles, or is "".
func (e *Engine) signature(o chunks.Options, custom string) string {
	counter := fmt.Sprintf("%T", o.Counter)
	if c, ok := o.Counter.(embed.Embedder); ok {
		counter = c.ModelID()
	}
	split := "chunks"
	switch {
	case e.opts.Split != nil:
		split = "custom:" + e.opts.SplitName
	case custom != "":
		split = "profile:" + custom
	}
	return fmt.Sprintf("split=%s v=%d profile=%s max=%d overlap=%g stub=%d passage=%d code=%d counter=%s %s",
		split, chunks.Version, o.Profile, o.MaxTokens, o.Overlap, o.StubWords, o.PassageWords, o.CodeLines, counter,
		keywordSig)
}

// keywordSig is the part of the signature that names how the keyword
// index reads text; a collection whose signature lacks it was cut by an
// older mdsearch (cutByOlder).
var keywordSig = fmt.Sprintf("kw=%d", store.KeywordVersion)

// cutByOlder reports whether a collection's chunking signature was made
// by an mdsearch with another chunks.Version or store.KeywordVersion: an
// index run cuts every note again. The other parts of the signature (the
// embedder's counter, the profile) are left out: a status without the
// model would otherwise call every collection outdated.
func cutByOlder(signature string) bool {
	if signature == "" {
		return false
	}
	f := strings.Fields(signature)
	return !slices.Contains(f, cutVersion) || !slices.Contains(f, keywordSig)
}

// cutVersion is the part of the signature that names chunks.Version.
var cutVersion = fmt.Sprintf("v=%d", chunks.Version)

// split cuts a parsed note with the configured splitter, or the run's
// profile of Options.Profiles.
func (e *Engine) split(doc *sections.Document, o chunks.Options, custom string) []mdsearch.Chunk {
	switch {
	case e.opts.Split != nil:
		return e.opts.Split(doc, o)
	case custom != "":
		return e.opts.Profiles[custom](doc, o)
	}
	return chunks.Split(doc, o)
}

// noEmbedderNotice explains why semantic search is unavailable.
func (e *Engine) noEmbedderNotice() string {
	if e.opts.EmbedderNotice != "" {
		return "semantic search unavailable: " + e.opts.EmbedderNotice + "; showing keyword results"
	}
	return "semantic search unavailable: no embedding model configured; showing keyword results"
}

// Embeds reports whether indexing computes vectors (an embedder is loaded).
func (e *Engine) Embeds() bool { return e.emb != nil }

// Scores says what a search's scores in mode are, for adapters that
// describe them before any search: "probability" (the second stage's
// calibrated estimate), "first-stage" (another embedder than the one the
// second stage reads: the fused score, which orders one search's results
// but has no fixed bands), or "reranker" (a reranker's own relevance).
func (e *Engine) Scores(mode mdsearch.Mode) string {
	switch {
	case e.opts.Reranker != nil:
		return "reranker"
	case e.emb == nil: // every search is by keywords, and scored as one
		mode = mdsearch.ModeKeyword
	}
	if e.stage(mode) == nil {
		return "first-stage"
	}
	return "probability"
}
