package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// Index brings one collection up to date with its vault (see the package
// doc). With an empty req.Dir it re-indexes the collection req.Name from
// its recorded folder. The stats are returned even when the run fails
// midway; what was committed stays.
func (e *Engine) Index(ctx context.Context, req mdsearch.IndexRequest, progress func(mdsearch.IndexProgress)) (_ *mdsearch.IndexStats, err error) {
	defer e.explain(&err)
	leave, err := e.enterWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	if !e.knownProfile(req.Profile) {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "index", "", "use one of "+strings.Join(e.ProfileNames(), ", "), "unknown profile %q", req.Profile)
	}
	existing := req.Dir == ""
	if existing {
		if req.Name == "" {
			return nil, mdsearch.Errorf(mdsearch.KindInvalid, "index", "", "", "give a folder, or the name of an indexed collection")
		}
		c, err := e.collectionByName(ctx, req.Name)
		if err != nil {
			return nil, err
		}
		req.Dir = c.Root
	}
	return e.index(ctx, req, existing, nil, progress)
}

// IndexAll re-indexes every collection from its recorded folder, e.g.
// after Open rebuilt an index of another schema version.
func (e *Engine) IndexAll(ctx context.Context, full bool, progress func(mdsearch.IndexProgress)) (_ []*mdsearch.IndexStats, err error) {
	defer e.explain(&err)
	leave, err := e.enterWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return nil, err
	}
	var all []*mdsearch.IndexStats
	var errs []error
	for _, c := range colls {
		st, err := e.index(ctx, mdsearch.IndexRequest{Dir: c.Root, Name: c.Name, Full: full}, true, nil, progress)
		if st != nil {
			all = append(all, st)
		}
		if err != nil {
			if ctx.Err() != nil {
				return all, errors.Join(append(errs, err)...) // the earlier collections' failures too
			}
			// One collection whose folder is gone (or cannot be read)
			// must not keep the others stale.
			errs = append(errs, err)
		}
	}
	return all, errors.Join(errs...)
}

// Refresh brings the named notes (vault-relative) of a collection up to
// date without walking the vault: a note still on disk is re-checked, one
// that is gone (or no longer indexable) is removed. File watchers use it.
func (e *Engine) Refresh(ctx context.Context, collection string, paths []string) (_ *mdsearch.IndexStats, err error) {
	defer e.explain(&err)
	leave, err := e.enterWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	c, err := e.collectionByName(ctx, collection)
	if err != nil {
		return nil, err
	}
	return e.index(ctx, mdsearch.IndexRequest{Dir: c.Root, Name: c.Name}, true, paths, nil)
}

// FolderGoneHint says what to do about collection name whose folder is
// gone, which no plain index run can catch up.
func FolderGoneHint(name string) string {
	return fmt.Sprintf("the folder of collection %q is gone: index it where it is now "+
		"(`mdsearch index DIR --name %s`), or drop it (`mdsearch drop %s`)", name, name, name)
}

// index runs both phases. paths, when non-nil, limits the run to those
// notes. With existing, the collection must still be in the index once the
// run holds the lock: a collection dropped meanwhile is not made again.
func (e *Engine) index(ctx context.Context, req mdsearch.IndexRequest, existing bool, paths []string, progress func(mdsearch.IndexProgress)) (_ *mdsearch.IndexStats, err error) {
	dir, name, full := req.Dir, req.Name, req.Full
	unlock, err := e.lockWrites(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	start := time.Now() // the run's own time: waiting for another run's lock is said as it happens

	v, err := vault.Open(dir, vault.Options{MaxFileSize: e.opts.MaxFileSize})
	if existing {
		err = fileForFolder(dir, err)
	}
	var me *mdsearch.Error
	if existing && errors.As(err, &me) && me.Kind == mdsearch.KindNotFound && me.Hint == "" {
		me.Hint = FolderGoneHint(name)
	}
	if err != nil {
		return nil, err
	}
	named := ""
	if existing {
		err = checkName(name) // one named earlier, '-' and all, is kept up to date
	} else {
		if name == "" {
			named, err = e.folderCollection(ctx, v.Root())
			name = named
		}
		if err == nil {
			name, err = CollectionName(v.Root(), name)
		}
	}
	if err != nil {
		return nil, err
	}
	if v, err = e.vaultOf(ctx, name, v.Root()); err != nil {
		return nil, err
	}
	var listed *vault.Listing
	if paths == nil { // before anything is written: a vault that cannot be listed changes nothing
		if listed, err = v.List(ctx); err != nil {
			return nil, err
		}
	}
	stats := &mdsearch.IndexStats{Collection: name, Skipped: []mdsearch.FileIssue{}, Warnings: []mdsearch.FileIssue{}}
	defer func() { stats.Stopped = err != nil }()
	if listed != nil {
		addNotice(&stats.Notice, vault.MDXNotice(listed.MDX))
	}
	if named != "" {
		addNotice(&stats.Notice, "this folder is collection "+named+", indexed again as it (--name NAME makes another collection of it)")
	}
	noVectors, err := e.confirmModel(ctx)
	if err != nil {
		return nil, err
	}
	if e.opts.KeepModel {
		if err := e.CheckModel(ctx); err != nil {
			return nil, err
		}
	}
	coll, err := e.collectionFor(ctx, name, v.Root(), existing, req.Profile, v.MaxFileSize(), stats)
	if err != nil {
		return nil, err
	}
	if collectionMade != nil {
		collectionMade()
	}
	var model int64
	if noVectors == "" {
		if model, err = e.prepareModel(ctx); err != nil {
			return nil, err
		}
	}
	opts, custom := e.cutFor(req.Profile, coll.Chunking)
	r := &run{e: e, ctx: ctx, v: v, coll: coll, model: model, opts: opts, custom: custom, sig: e.signature(opts, custom),
		stats: stats, report: progress, pending: map[string]store.Pending{}, listed: listed}
	r.force = full || cutWith(coll.Chunking) != r.sig
	r.full = full
	if err := r.markRecut(); err != nil {
		return nil, err
	}
	if err := r.markFirst(); err != nil {
		return nil, err
	}
	if model != 0 { // before any note is cut for it: a stopped run's notes were
		if err := e.recordWindow(ctx); err != nil {
			return nil, err
		}
	}
	r.verify = paths != nil
	if paths != nil && coll.Chunking != r.sig {
		paths = nil // new chunker settings: every note must be re-cut, not just these
	}
	r.prog.Collection = name
	if model != 0 { // a run without vectors checks none
		if r.global, err = e.globalRun(ctx, full); err != nil {
			return nil, err
		}
	}
	start0 := r.prog
	e.progress.Store(&start0) // Status shows the run from now; the caller hears once files are counted
	defer e.progress.Store(nil)
	defer func() { stats.TookMS = msSince(start) }()

	files, gone, err := r.list(paths)
	if err != nil {
		return stats, err
	}
	if err := r.scan(files, gone, paths == nil); err != nil {
		r.settleStopped()
		return stats, err
	}
	switch {
	case paths != nil || len(files) > 0 || len(r.kept) > 0:
	case len(stats.Skipped) > 0:
		addNotice(&stats.Notice, fmt.Sprintf("every note under %s was skipped (%d): nothing is searchable there", v.Root(), len(stats.Skipped)))
	default:
		addNotice(&stats.Notice, noNotes(v.Root(), name))
	}
	if err := e.keepSkipped(ctx, name, paths, stats.Skipped); err != nil {
		return stats, err
	}
	if err := e.st.SetIndexed(ctx, coll.ID, r.sig, time.Now()); err != nil {
		return stats, err
	}
	if err := e.st.SetMeta(ctx, maxSizeKey(name), strconv.FormatInt(v.MaxFileSize(), 10)); err != nil {
		return stats, err
	}
	if err := r.embed(); err != nil {
		return stats, err
	}
	if err := r.finish(); err != nil {
		return stats, err
	}
	switch {
	case noVectors != "":
		stats.NoVectors = noVectors
		addNotice(&stats.Notice, "indexed for keyword search only: "+noVectors)
	case e.emb == nil:
		why := e.opts.EmbedderNotice
		switch {
		case why == "":
			why = "no embedding model configured"
		case !e.opts.KeywordOnly:
			// The embedder was wanted: once it is there, only another run
			// adds the vectors this one could not.
			why += "; then run `mdsearch index` again to embed"
		}
		addNotice(&stats.Notice, "indexed for keyword search only: "+why)
	}
	return stats, e.recordWanted(ctx)
}

// WindowKey is the meta key of the embedder that the index's notes were
// last cut for and its token window, "MODEL-ID TOKENS": a run that names
// no window for the same server model takes it (MDSEARCH_EMBED_MAX_TOKENS
// set once, for a model that refuses longer texts, holds for later runs),
// rather than cutting every note again to the default and being refused
// again. It is written as a run starts, before its first vector names the
// index's model: a run stopped before then cut notes for it too.
const WindowKey = "embed_window"

// recordWindow keeps the run's embedder and its window (WindowKey).
func (e *Engine) recordWindow(ctx context.Context) error {
	w := e.emb.ModelID() + " " + strconv.Itoa(e.emb.MaxTokens())
	// Read first: a watch's every refresh would otherwise commit a write.
	if had, err := e.st.Meta(ctx, WindowKey); err != nil || had == w {
		return err
	}
	return e.st.SetMeta(ctx, WindowKey, w)
}

// wantedKey is the meta key of the server model the last index run was
// asked for and could not reach (Options.WantedModel).
const wantedKey = "wanted_model"

// recordWanted keeps, after a run, which server model a run without
// vectors wanted, and forgets it once a run has an embedder or was told
// to have none.
func (e *Engine) recordWanted(ctx context.Context) error {
	want := ""
	if e.emb == nil && !e.opts.KeywordOnly {
		want = e.opts.WantedModel
	}
	// Read first: a watch's every refresh would otherwise commit a write.
	switch had, err := e.st.Meta(ctx, wantedKey); {
	case err != nil || had == want:
		return err
	case want == "":
		return e.st.DeleteMeta(ctx, wantedKey)
	}
	return e.st.SetMeta(ctx, wantedKey, want)
}

// settleStopped clears the pending mark a run stopped while reading notes
// set, where it owes no vector: nothing lacked one before it (not a
// global run) and every window it wrote kept its vector (notes cut again,
// an index an older mdsearch cut). The vectors only its replaced windows
// had are dropped first, as finish would. Otherwise the mark stays, and
// searches say meaning covers only part of the index.
func (r *run) settleStopped() {
	if r.model == 0 || r.global || len(r.pending) > 0 || r.ctx.Err() == nil {
		return
	}
	ctx := context.WithoutCancel(r.ctx)
	if len(r.removed) > 0 {
		if _, err := r.e.st.DeleteOrphans(ctx, r.removed); err != nil {
			return // the mark stays: the next run collects them
		}
	}
	_ = r.e.st.SetMeta(ctx, metaPending, "")
}

// profileOf is a run's cut profile: the one asked for, else the one the
// collection was last cut with (its signature names it), else the
// engine's.
func (e *Engine) profileOf(asked, signature, engine string) string {
	if asked != "" {
		return asked
	}
	if p := e.storedProfile(signature); p != "" {
		return p
	}
	return engine
}

// recutMark ends the chunking signature of a collection whose notes a run
// began to cut with other settings (a --profile change): stopped half way,
// some notes are cut the new way while the signature names the old, and
// no later run, which compares the signature alone, would cut them again.
// With the mark no run's signature matches, so the next one cuts every
// note; the profile it names is still the old one, which a plain run
// keeps.
const recutMark = "recut-stopped"

// markRecut marks the collection (recutMark) before a run cuts its notes
// with other settings than they were cut with.
func (r *run) markRecut() error {
	had := r.coll.Chunking
	if had == "" || cutWith(had) == r.sig || strings.HasSuffix(had, " "+recutMark) {
		return nil
	}
	return r.e.st.SetChunking(r.ctx, r.coll.ID, had+" "+recutMark)
}

// firstMark ends the chunking signature of a collection while its first
// run reads its notes: stopped there, the next run knows which settings
// cut the notes stored so far, so it adds the rest rather than cutting
// every note again, and searches meanwhile say the run is unfinished.
const firstMark = "first-run"

// markFirst marks a collection's first run (firstMark) before it reads
// any note, where the collection was made without the mark (by an older
// mdsearch; see collectionFor); SetIndexed clears it once every note is
// read.
func (r *run) markFirst() error {
	if r.coll.Chunking != "" {
		return nil
	}
	return r.e.st.SetChunking(r.ctx, r.coll.ID, r.sig+" "+firstMark)
}

// cutFor is the chunker options of a run asked for profile asked ("":
// the collection's) of a collection of chunking signature signature, and
// the profile of Options.Profiles that cuts, or "".
func (e *Engine) cutFor(asked, signature string) (opts chunks.Options, custom string) {
	opts = e.chunkOptions()
	switch prof := e.profileOf(asked, signature, string(opts.Profile)); {
	case e.opts.Profiles[prof] != nil:
		custom = prof
	default:
		opts.Profile = chunks.Profile(prof)
	}
	return opts, custom
}

// cutWith is the signature of the settings a collection's stored notes
// were cut with: its chunking signature without the first-run mark.
func cutWith(signature string) string { return strings.TrimSuffix(signature, " "+firstMark) }

// unfinished reports whether a chunking signature is that of a collection
// whose first run has not read every note: marked, or, from an older
// mdsearch, empty.
func unfinished(signature string) bool {
	return signature == "" || slices.Contains(strings.Fields(signature), firstMark)
}

// storedProfile is the profile a chunking signature names, or "": one of
// Options.Profiles ("split=profile:NAME"), else chunks' ("profile=NAME").
func (e *Engine) storedProfile(signature string) string {
	var own string
	for _, f := range strings.Fields(signature) {
		if name, ok := strings.CutPrefix(f, "split=profile:"); ok && e.opts.Profiles[name] != nil {
			return name
		}
		if name, ok := strings.CutPrefix(f, "profile="); ok {
			if p, ok := chunks.ParseProfile(name); ok {
				own = string(p)
			}
		}
	}
	return own
}

// knownProfile reports whether name is a cut profile ("" keeps the
// collection's).
func (e *Engine) knownProfile(name string) bool {
	_, ok := chunks.ParseProfile(name)
	return ok || e.opts.Profiles[name] != nil
}

// ProfileNames lists the cut profiles a collection may be indexed with.
func (e *Engine) ProfileNames() []string {
	names := []string{string(chunks.ProfileSections), string(chunks.ProfileH2H3)}
	for n := range e.opts.Profiles {
		names = append(names, n)
	}
	slices.Sort(names[2:])
	return names
}

// addNotice appends a sentence to a notice.
func addNotice(n *string, msg string) {
	if msg == "" {
		return
	}
	if *n != "" {
		*n += "; "
	}
	*n += msg
}

// globalRun reports whether this run must check every chunk and vector:
// the last run stopped before embedding everything, the model changed, or
// everything is re-embedded.
func (e *Engine) globalRun(ctx context.Context, full bool) (bool, error) {
	if e.emb == nil {
		return false, nil
	}
	pending, err := e.st.Meta(ctx, metaPending)
	if err != nil {
		return false, err
	}
	model, err := e.st.Meta(ctx, "model")
	return full || pending != "" || model != e.emb.ModelID(), err
}

// metaPending is set while chunks may lack a vector of the current model:
// from the first write of a run until its embedding phase completes.
const metaPending = "embed_pending"

// vaultOf opens root, the folder of collection name, with the
// collection's size limit (see maxSizeFor). A folder that cannot be opened
// is a *mdsearch.Error; a failure to read the limit is not.
func (e *Engine) vaultOf(ctx context.Context, name, root string) (*vault.Vault, error) {
	limit, err := e.maxSizeFor(ctx, name)
	if err != nil {
		return nil, err
	}
	v, err := vault.Open(root, vault.Options{MaxFileSize: limit})
	return v, fileForFolder(root, err)
}

// fileForFolder is err, from opening root, the folder of a collection, as
// a folder gone when a file now stands where it was: the fixes are a gone
// folder's (index it where it is now, or drop it), not "pass a folder".
func fileForFolder(root string, err error) error {
	var me *mdsearch.Error
	if !errors.As(err, &me) || me.Kind != mdsearch.KindInvalid {
		return err
	}
	if fi, serr := os.Stat(root); serr != nil || fi.IsDir() {
		return err
	}
	return mdsearch.Errorf(mdsearch.KindNotFound, "open vault", root, "", "no such folder: a file stands where it was")
}

// lockWrites takes the engine's write lock, then the index file's, which
// another process's index run or drop may hold (see lockIndex), and
// returns what releases both.
func (e *Engine) lockWrites(ctx context.Context) (unlock func(), err error) {
	e.indexMu.Lock()
	unlockFile, err := lockIndex(ctx, e.st.Path(), e.opts.Notify)
	if err != nil {
		e.indexMu.Unlock()
		return nil, err
	}
	return func() { unlockFile(); e.indexMu.Unlock() }, nil
}

// prepareModel registers the embedder's model, or checks that running
// without one is intended.
func (e *Engine) prepareModel(ctx context.Context) (int64, error) {
	if e.emb != nil {
		return e.st.Model(ctx, e.emb.ModelID(), e.emb.Dim())
	}
	cur, err := e.st.Meta(ctx, "model")
	if err != nil {
		return 0, err
	}
	if cur != "" && !e.opts.KeywordOnly {
		why := e.opts.EmbedderNotice
		if why == "" {
			why = "no embedding model configured"
		}
		why = strings.TrimSuffix(why, " (run `mdsearch setup`)") // the hint says it
		return 0, mdsearch.Errorf(mdsearch.KindUnavailable, "index", e.st.Path(),
			"make the embedder available (`mdsearch setup` for the local model; for --embedder ollama or openai, start the server or fix --embed-url) "+
				"and run again; no note was indexed (only to give up semantic search: --embedder none, which deletes every vector)",
			"the index holds vectors of %s, but %s", cur, why)
	}
	return 0, nil
}

// collectionMade, set by tests only, is called once a run has its
// collection, before it writes anything else: a stop there must not lose
// what the run was asked for.
var collectionMade func()

// run is one Index call.
type run struct {
	e      *Engine
	ctx    context.Context
	v      *vault.Vault
	coll   *store.Collection
	model  int64
	opts   chunks.Options
	custom string // the profile of Options.Profiles that cuts, or ""
	sig    string
	force  bool // re-chunk every file (--full, or new chunker settings)
	// verify reads every file named (a refresh: an event said each
	// changed) though its size and mtime are as stored: a save within the
	// mtime's granularity (a second, on some filesystems) keeps both.
	verify bool
	full   bool // --full: re-embed every text of the collection (withFull)
	stats  *mdsearch.IndexStats
	prog   mdsearch.IndexProgress
	report func(mdsearch.IndexProgress)
	dirty  bool // chunks were removed or replaced: free pages to give back

	// Incremental runs look only at what they changed; global runs (after
	// an interrupted run, on a model change, with --full) check every chunk
	// for a missing vector and every vector for an orphan.
	global  bool
	pending map[string]store.Pending // chunk texts written without a vector
	removed [][]byte                 // vector keys of chunks replaced or deleted
	claim   bool                     // the index's model is set to this run's at its next batch stored (embed)

	listed *vault.Listing // the vault's walk, when the run began with one
	unseen []string       // skips the run could not look into (vault.Listing.Unseen)
	kept   map[string]int // notes kept, by the unseen skip that holds them
}

// publish shares a copy of the progress with Status and the caller.
func (r *run) publish() {
	p := r.prog
	p.ChunksEmbedded, p.ChunksToEmbed = p.WindowsEmbedded, p.WindowsToEmbed // their old names
	r.e.progress.Store(&p)
	if r.report != nil {
		r.report(p)
	}
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
