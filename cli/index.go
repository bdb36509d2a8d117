package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/vault"
)

// fullInterrupted is what an interrupted `index --full` leaves: the
// windows not embedded again keep their vectors, and another --full
// starts over.
const fullInterrupted = ": the index keeps what was done and is whole (the windows not embedded again keep their vectors); " +
	"`mdsearch index --full` embeds every window again from the start"

func runIndex(ctx context.Context, env *Env, args []string) (err error) {
	fs := newFlags(env, "index", "[DIR | COLLECTION]  (none: every collection of the index)")
	name := fs.String("name", "", "collection name (default: the folder's name)")
	full := fs.Bool("full", false, "re-read and re-embed every note")
	profile := fs.String("profile", "", "where to cut notes: sections (every heading), h2h3 (H1/H2, H3 in long sections) "+
		"or fixed (overlapping windows of sentences, headings ignored); "+
		"the collection keeps it (default: the one it has, sections for a new one), and another re-cuts it")
	asJSON := fs.Bool("json", false, "print the run's statistics as JSON on stdout, and progress events as JSON lines on stderr")
	ef := addEngineFlags(fs)
	opened := false // the index is open: from here on a stop may leave work done
	defer func() {
		switch {
		case err == nil || ctx.Err() == nil:
		case !opened:
			err = &leaves{err, ": no note was indexed"}
		case *full:
			err = &leaves{err, fullInterrupted}
		}
	}()
	pos, err := parse(fs, args)
	switch {
	case err != nil:
		return err
	case len(pos) > 1:
		return usagef("unexpected argument %q: give one DIR or COLLECTION, or none for every collection", pos[1])
	case len(pos) == 0 && *name != "":
		return usagef("--name names the collection of a DIR: give the DIR too")
	case flagSet(fs, "name") && strings.TrimSpace(*name) == "":
		return usagef("--name is empty: name the collection, or leave --name out to use the folder's name")
	case len(pos) == 0 && *profile != "":
		return usagef("--profile is a collection's: give the DIR or COLLECTION it is for")
	}
	indexGC(env)
	if _, ok := chunks.ParseProfile(*profile); !ok && indexProfiles[*profile] == nil {
		return usagef("unknown --profile %q (want sections, h2h3 or fixed)", *profile)
	}
	// Re-indexing what is there never makes an index, and neither does a
	// DIR that does not exist (a mistyped folder, or a collection's name).
	missing, notDir := false, false
	if len(pos) == 1 {
		fi, serr := os.Stat(pos[0])
		missing, notDir = os.IsNotExist(serr), serr == nil && !fi.IsDir()
	}
	if notDir {
		return mdsearch.Errorf(mdsearch.KindInvalid, "index", pos[0], "give the folder that holds it; nothing was created", "not a folder")
	}
	if len(pos) == 1 && !missing {
		// Refused before the index is opened: a name it cannot take
		// must not leave a new, empty index behind.
		if _, err := engine.CollectionName(resolved(pos[0]), *name); err != nil {
			return err
		}
	}
	ef.existing = len(pos) == 0 || missing
	openedAt := time.Now()
	e, closeAll, err := ef.open(ctx, env, true)
	// A run's "took" counts the wait for the model too: loading it, or
	// asking a server that does not answer, may take longer than the run.
	opening := float64(time.Since(openedAt).Microseconds()) / 1000
	if err != nil {
		if missing && mdsearch.KindOf(err) == mdsearch.KindNotFound { // no index: no collection either
			return notFolderNorCollection(pos[0], nil)
		}
		return err
	}
	defer closeAll()
	opened = true
	if err := rebuildIfMigrated(ctx, env, e); err != nil {
		return err
	}
	if len(pos) == 0 {
		return ef.noVectors(env, indexAll(ctx, env, e, *full, *asJSON, opening))
	}
	if !missing {
		warnBroad(ctx, env, e, pos[0])
	}
	bar := newProgress(env, *asJSON, e.Embeds(), nil)
	req := indexRequest(ctx, e, pos[0], *name, *full)
	req.Profile = *profile
	st, err := e.Index(ctx, req, bar.update)
	if st != nil {
		st.TookMS += opening
	}
	bar.done(st, err)
	if missing && mdsearch.KindOf(err) == mdsearch.KindNotFound && !e.HasCollection(ctx, pos[0]) {
		colls, _ := e.Collections(ctx)
		return notFolderNorCollection(pos[0], colls)
	}
	if st == nil {
		return err
	}
	return ef.noVectors(env, reportIndex(env, st, *asJSON, err))
}

// noVectors fails a run that succeeded without the remote embedder it was
// asked to use: the keyword index was written, but semantic search has no
// vectors until a run reaches the server, so scripts must not take it as
// done.
func (f *engineFlags) noVectors(env *Env, err error) error {
	if err != nil || !f.serverDown {
		return err
	}
	env.say("the keyword index was written, but without vectors: %s", f.serverTrouble())
	return errFailed
}

// notFolderNorCollection is the error for an index argument that names
// neither a folder nor one of the index's collections, which it lists.
func notFolderNorCollection(arg string, colls []mdsearch.CollectionStatus) error {
	hint := "check the path; nothing was created"
	if len(colls) > 0 {
		names := make([]string, len(colls))
		for i, c := range colls {
			names[i] = c.Name
		}
		hint = "check the path; the collections are " + strings.Join(names, ", ") + "; nothing was created"
	}
	return mdsearch.Errorf(mdsearch.KindNotFound, "index", arg, hint, "no such folder or collection")
}

// reportIndex prints one run's statistics and notice, and passes its
// error on.
func reportIndex(env *Env, st *mdsearch.IndexStats, asJSON bool, err error) error {
	st.Notice = env.commands(st.Notice)
	if asJSON {
		if encErr := printJSON(env, st); encErr != nil {
			return encErr
		}
	} else {
		fmt.Fprintln(env.Stdout, summary(st))
		printSkips(env, st)
	}
	printNotice(env, st.Notice)
	return err
}

// indexAll is "mdsearch index" without a DIR: every collection, from its
// recorded folder, one run after another (with --json, one array of their
// stats). A collection that fails is reported and the others still run.
func indexAll(ctx context.Context, env *Env, e *engine.Engine, full, asJSON bool, opening float64) error {
	colls, err := e.Collections(ctx)
	if err != nil {
		return err
	}
	if len(colls) == 0 {
		return mdsearch.Errorf(mdsearch.KindNotFound, "index", "", "give the folder to index: `mdsearch index DIR`", "the index holds no collections yet")
	}
	names := make([]string, len(colls))
	for i, c := range colls {
		names[i] = c.Name
	}
	bar := newProgress(env, asJSON, e.Embeds(), names)
	stats, err := e.IndexAll(ctx, full, bar.update)
	if len(stats) > 0 {
		stats[0].TookMS += opening // the first run waited for the model
	}
	var last *mdsearch.IndexStats // nil: no run started
	var stopped error             // the last run's own failure; others are reported below
	if len(stats) > 0 {
		if last = stats[len(stats)-1]; last.Stopped {
			stopped = err
		}
	}
	bar.done(last, stopped)
	for _, st := range stats {
		st.Notice = env.commands(st.Notice)
	}
	if asJSON {
		if jerr := printJSON(env, runsJSON(ctx, env, e, stats, err)); jerr != nil {
			return jerr
		}
		for _, st := range stats {
			printNotice(env, st.Notice)
		}
		return err
	}
	for _, st := range stats {
		if rerr := reportIndex(env, st, false, nil); rerr != nil {
			return rerr
		}
	}
	return err
}

// indexRequest is the run for DIR: the folder, or, when no such folder
// exists and no --name is given, the collection of that name, re-indexed
// from its recorded folder ("mdsearch index notes").
func indexRequest(ctx context.Context, e *engine.Engine, dir, name string, full bool) mdsearch.IndexRequest {
	req := mdsearch.IndexRequest{Dir: dir, Name: name, Full: full}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) && name == "" && e.HasCollection(ctx, dir) {
		req.Dir, req.Name = "", dir
	}
	return req
}

// summary is the one-line account of an indexing run, every count named:
// "notes: 173 files (1 added, 12 changed, 160 unchanged); 120 passages in
// 700 windows from the 13 added or changed files (675 embedded now, 25
// reused from earlier runs); 2 files skipped; took 41s".
// For a run that stopped early, the windows it did not embed are not yet
// embedded, rather than repeats. The windows earlier runs left, which it
// embedded too, are counted apart.
func summary(st *mdsearch.IndexStats) string {
	var b strings.Builder
	name := st.Collection
	if st.Stopped {
		name += " (stopped early)"
	}
	fmt.Fprintf(&b, "%s: %d %s", name, st.Files, plural.Noun(st.Files, "file", "files"))
	if c := counts(count{st.Added, "added"}, count{st.Changed, "changed"}, count{st.Recut, "cut again"},
		count{st.Unchanged, "unchanged"}, count{st.Deleted, "deleted from the index"}); c != "" {
		fmt.Fprintf(&b, " (%s)", c)
	}
	read, which := st.Added+st.Changed+st.Recut, "added or changed"
	if st.Recut > 0 {
		which = "added, changed or cut again"
	}
	noneRead := read == 0 && st.Chunks == 0 && st.Windows == 0
	switch {
	case noneRead && st.Stopped && st.Unchanged < st.Files:
		// A disk full or a signal before the first batch: nothing was
		// written, and what the run had to read is still to read.
		fmt.Fprintf(&b, "; stopped before it wrote a note")
	case noneRead:
		fmt.Fprintf(&b, "; nothing to read again")
	default:
		fmt.Fprintf(&b, "; %d %s in %d %s from the %d %s %s", st.Chunks, plural.Noun(st.Chunks, "passage", "passages"),
			st.Windows, plural.Noun(st.Windows, "window", "windows"), read, which, plural.Noun(read, "file", "files"))
	}
	own := st.Embedded - st.EmbeddedEarlier
	dup := 0 // texts repeated within the run are embedded once
	if own+st.Reused > 0 {
		dup = max(st.Windows-own-st.Reused, 0)
	}
	dupName := "repeating another window's text"
	if st.Stopped {
		dupName = "not embedded yet"
	}
	if vec := counts(count{own, "embedded now"}, count{st.Reused, "reused from earlier runs"},
		count{dup, dupName}); vec != "" && !noneRead {
		fmt.Fprintf(&b, " (%s)", vec)
	}
	if n := st.EmbeddedEarlier; n > 0 {
		// The run embeds every window the index lacks a vector of,
		// whichever collection's: the first of `mdsearch index`'s runs
		// does so for them all.
		fmt.Fprintf(&b, "; %d %s that earlier runs left without vectors embedded now, any collection's",
			n, plural.Noun(n, "window", "windows"))
	}
	if n := len(st.Skipped); n > 0 {
		fmt.Fprintf(&b, "; %d %s skipped", n, plural.Noun(n, "file", "files"))
	}
	fmt.Fprintf(&b, "; took %s", tookText(st.TookMS))
	return b.String()
}

// tookText is a run's time as summaries say it: "12ms", "41s", "1m6.697s",
// and "<1ms" where a Duration would say "0s" beside another's "2ms".
func tookText(ms float64) string {
	d := (time.Duration(ms*1e6) * time.Nanosecond).Round(time.Millisecond)
	if d < time.Millisecond {
		return "<1ms"
	}
	return d.String()
}

// count is one number of a summary and what it counts.
type count struct {
	n    int
	what string
}

// counts joins counts as "1 added, 12 changed", leaving out zeros.
func counts(cs ...count) string {
	var out []string
	for _, c := range cs {
		if c.n > 0 {
			out = append(out, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(out, ", ")
}

// printSkips lists skipped files and parser warnings on stderr.
func printSkips(env *Env, st *mdsearch.IndexStats) {
	for _, s := range st.Skipped {
		env.say("skipped %s: %s", s.Path, s.Reason)
	}
	if big, largest := overLimit(st.Skipped); big {
		env.say("a file over the size limit is indexed with a larger one: --max-file-size %s, or none", limitAbove(largest))
	}
	const most = 20
	for i, w := range st.Warnings {
		if i == most {
			env.say("… and %d more %s (--json lists them all)", len(st.Warnings)-most, plural.Noun(len(st.Warnings)-most, "warning", "warnings"))
			break
		}
		env.say("%s: warning: %s", w.Path, w.Reason) // as chunk prints them
	}
}

// overLimit reports whether a file of skipped was over the size limit
// (vault.IsOverLimit), and the largest such file's size where known.
func overLimit(skipped []mdsearch.FileIssue) (over bool, largest int64) {
	for _, s := range skipped {
		if vault.IsOverLimit(s.Reason) {
			over, largest = true, max(largest, s.Size)
		}
	}
	return over, largest
}

// limitAbove is the --max-file-size that takes a file of size bytes
// (vault.LimitFor); 50MB when the size is unknown (a file that grew over
// the limit while it was read).
func limitAbove(size int64) string {
	if size <= 0 {
		return "50MB"
	}
	return vault.LimitFor(size)
}
