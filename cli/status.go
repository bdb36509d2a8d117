package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/text/width"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed/provider"
	"github.com/mdsearch/mdsearch/embed/remote"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/store"
)

func runStatus(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "status", "")
	asJSON := fs.Bool("json", false, "print JSON")
	check := fs.Bool("check", false, "also read the whole index file for damage (SQLite's quick check: about 0.1 s per 20 MB)")
	ef := addIndexPathFlag(fs) // stale counts hold to each collection's own size limit
	ef.readOnly = true
	_, err := parseArgs(fs, args, 0, "")
	if err != nil {
		return err
	}
	e, closeAll, err := ef.open(ctx, env, false)
	if errors.Is(err, store.ErrOlderIndex) {
		return olderStatus(ctx, env, ef, *asJSON, *check, err)
	}
	if err != nil {
		return err
	}
	defer closeAll()
	s, err := e.Status(ctx)
	if err != nil {
		return err
	}
	if *check {
		if err := e.Check(ctx); err != nil { // damage a search or an index run may not meet
			return err
		}
	}
	trouble := localModelTrouble(env, s.ModelID)
	if *asJSON {
		if trouble != nil && s.Notice == "" {
			s.Notice = "semantic search unavailable: " + trouble.Error()
		}
		s.Notice = env.commands(s.Notice)
		return printJSON(env, withCheck(s, *check, checkOK))
	}
	model := modelLine(env, s.ModelID, trouble)
	switch {
	case s.ModelID != "":
	case s.EmbedRunning != "": // the running run's word, not an earlier one's
		model = "none yet (an index run is going on, and the notes are owed vectors of " + s.EmbedRunning +
			"; searches use keywords only until a run stores them)"
	case s.WantedModel != "":
		model = wantedLine(s.WantedModel)
	case s.EmbedStopped != "" && trouble == nil:
		model = stoppedLine(s.EmbedStopped)
	}
	fmt.Fprintf(env.Stdout, "index:  %s (%s, schema %d)\nmodel:  %s\n", s.IndexPath, humanBytes(s.SizeBytes), s.SchemaVersion, env.commands(model))
	if rv, ok := runningServe(env, ef); ok {
		if rv.Build == sameCode() {
			fmt.Fprintf(env.Stdout, "served: %s by serve (pid %d); a search with its settings asks it\n", rv.URL, rv.PID)
		} else { // as servedSearch finds it: not asked
			fmt.Fprintf(env.Stdout, "served: %s by serve (pid %d) of another build (%s); searches run here, "+
				"not asking it, until serve and search are one build\n", rv.URL, rv.PID, rv.Build)
		}
	}
	if len(s.Collections) == 0 {
		fmt.Fprintln(env.Stdout, env.commands("no collections yet: run `mdsearch index DIR`"))
	} else {
		rows := [][]string{{"COLLECTION", "FILES", "PASSAGES", "WINDOWS", "VECTORS", "STALE", "PROFILE", "INDEXED", "ROOT"}}
		unknown := false // a stale count that could not be made (an unreadable ignore file)
		for _, c := range s.Collections {
			stale := fmt.Sprint(c.Stale)
			if c.Unreadable != "" {
				stale, unknown = "?", true
			}
			indexed := c.IndexedAt
			if c.Unfinished && indexed == "" {
				indexed = "unfinished" // its first run has not read every note
			}
			rows = append(rows, []string{c.Name, fmt.Sprint(c.Files), fmt.Sprint(c.Chunks), fmt.Sprint(c.Windows),
				fmt.Sprint(c.Vectors), stale, c.Profile, indexed, rootCell(c)})
		}
		if len(s.Collections) > 1 {
			stale := fmt.Sprint(s.Stale)
			if unknown {
				stale += "+?"
			}
			rows = append(rows, []string{"total", fmt.Sprint(s.Files), fmt.Sprint(s.Chunks), fmt.Sprint(s.Windows),
				fmt.Sprint(s.Vectors), stale, "", "", ""})
		}
		fmt.Fprintln(env.Stdout)
		printTable(env.Stdout, rows)
		printStatusWarnings(env, s.Collections)
		printStale(env, s.Collections)
	}
	if p := s.Indexing; p != nil {
		v := snapshotView(*p)
		fmt.Fprintf(env.Stdout, "indexing (%s): %s\n", map[string]string{"files": "reading files", "embed": "embedding"}[v.Phase], progressLine(*p, v, 100))
	}
	if *check {
		fmt.Fprintln(env.Stdout, "check:  "+checkOK)
	}
	printNotice(env, s.Notice)
	return nil
}

// olderStatus is status of an index an older mdsearch made, which the
// engine refused (refused): what can be read of it without writing, and
// that the next index run rebuilds it.
func olderStatus(ctx context.Context, env *Env, ef *engineFlags, asJSON, check bool, refused error) error {
	path, err := ef.indexPath(env)
	if err != nil {
		return err
	}
	s, err := engine.OlderStatus(ctx, path)
	if err != nil || s == nil {
		return refused // what the engine said: it could not be read either
	}
	if asJSON {
		return printJSON(env, withCheck(s, check, checkNotRun))
	}
	fmt.Fprintf(env.Stdout, "index:  %s (%s, schema %d)\nolder:  %s\n", s.IndexPath, humanBytes(s.SizeBytes), s.SchemaVersion, s.Notice)
	if len(s.Collections) == 0 {
		fmt.Fprintln(env.Stdout, env.commands("no collections: run `mdsearch index DIR`"))
	} else {
		rows := [][]string{{"COLLECTION", "FILES", "ROOT"}}
		for _, c := range s.Collections {
			rows = append(rows, []string{c.Name, fmt.Sprint(c.Files), c.Root})
		}
		fmt.Fprintln(env.Stdout)
		printTable(env.Stdout, rows)
	}
	if check {
		fmt.Fprintln(env.Stdout, "check:  "+checkNotRun)
	}
	return nil
}

// What status --check says of the index file: in the text, and as
// "check" in the JSON (damage is an error, and the exit status 1).
const (
	checkOK     = "the index file reads whole, no damage found"
	checkNotRun = "not run: the rebuild replaces the whole file"
)

// withCheck is s as status --json prints it: with what --check found,
// when it was asked for.
func withCheck(s *mdsearch.Status, asked bool, found string) any {
	if !asked {
		return s
	}
	return struct {
		*mdsearch.Status
		Check string `json:"check"`
	}{s, found}
}

// printStale says which collections an index run catches up, and which
// it cannot, their folder being gone. The stale count takes in new and
// deleted files too, so it may exceed FILES.
func printStale(env *Env, colls []mdsearch.CollectionStatus) {
	stale := 0
	var gone []string
	for _, c := range colls {
		switch {
		case c.RootMissing:
			gone = append(gone, engine.FolderGoneHint(c.Name))
		case c.Unreadable != "":
			fmt.Fprintf(screen(env.Stdout), "\nunreadable: %s: an index run stops before changing anything: %s\n", c.Name, env.commands(c.Unreadable))
		default:
			stale += c.Stale
		}
	}
	var old []string
	for _, c := range colls {
		if c.Outdated && !c.RootMissing && c.Unreadable == "" {
			old = append(old, c.Name)
		}
	}
	for _, c := range colls {
		if c.RecutStopped && !c.RootMissing {
			fmt.Fprint(screen(env.Stdout), env.commands(fmt.Sprintf("\nrecut: %s: a run that cut its notes with other settings was stopped: "+
				"some are cut the new way, some the old, until an index run cuts every note again (`mdsearch index %s`, with the --profile you want; "+
				"a serve, mcp or watch of the index does so with %s)\n", c.Name, shellWord(c.Name), c.Profile)))
		}
	}
	if len(old) > 0 {
		fmt.Fprint(screen(env.Stdout), env.commands(fmt.Sprintf("\noutdated: %s: cut by another version of mdsearch; `mdsearch index` cuts its notes again "+
			"(their vectors are kept), as a serve, mcp or watch of the index does when it starts; until then what this version "+
			"reads into the index is missing\n", strings.Join(old, ", "))))
	}
	if stale > 0 {
		fmt.Fprint(env.Stdout, env.commands(fmt.Sprintf("\nstale: %d %s added, changed or deleted on disk since indexed; `mdsearch index` catches up "+
			"(a running watch does so as files are saved, and so do serve and mcp unless started with --no-watch)\n", stale, plural.Noun(stale, "file", "files"))))
	}
	for _, g := range gone {
		fmt.Fprintf(screen(env.Stdout), "\nmissing: %s\n", env.commands(g)) // names may hold escapes
	}
}

// printStatusWarnings lists the files the index runs skipped, and what was
// odd about the notes when they were last read, a few of each at most: an
// index run prints them only once, and a watch's or cron's to no one.
func printStatusWarnings(env *Env, colls []mdsearch.CollectionStatus) {
	head := "skipped: %d, by the index runs that looked at them (the next run tries each again):"
	var skipped []mdsearch.FileIssue
	for _, c := range colls {
		skipped = append(skipped, c.Skipped...)
	}
	if big, largest := overLimit(skipped); big {
		head = "skipped: %d, by the index runs that looked at them (a file over the size limit is indexed with a larger --max-file-size, " +
			limitAbove(largest) + " here; the next run tries each again):"
	}
	printIssues(env, colls, func(c mdsearch.CollectionStatus) []mdsearch.FileIssue { return c.Skipped }, head)
	printIssues(env, colls, func(c mdsearch.CollectionStatus) []mdsearch.FileIssue { return c.Warnings },
		"warnings: %d, from when the notes were last read (fix the note; the next index run reads it again):")
}

// printIssues lists the files of each collection that of gives, under a
// head line that counts them, at most ten.
func printIssues(env *Env, colls []mdsearch.CollectionStatus, of func(mdsearch.CollectionStatus) []mdsearch.FileIssue, head string) {
	const most = 10
	var all []string
	many := len(colls) > 1
	for _, c := range colls {
		for _, w := range of(c) {
			path := w.Path
			if many {
				path = c.Name + ":" + path
			}
			all = append(all, path+": "+env.commands(w.Reason))
		}
	}
	if len(all) == 0 {
		return
	}
	fmt.Fprintf(env.Stdout, "\n"+head+"\n", len(all))
	out := screen(env.Stdout) // paths and reasons may hold escapes
	for _, w := range all[:min(len(all), most)] {
		fmt.Fprintln(out, "  "+strings.ReplaceAll(w, "\n", "\n    ")) // a reason's later lines (YAML's) under it, not as entries
	}
	if len(all) > most {
		fmt.Fprintf(env.Stdout, "  … and %d more (--json lists them all)\n", len(all)-most)
	}
}

// rootCell is a collection's folder as the ROOT column shows it.
func rootCell(c mdsearch.CollectionStatus) string {
	if c.RootMissing {
		return c.Root + " (missing)"
	}
	return c.Root
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// printTable prints rows in columns two spaces apart, each as wide as its
// widest cell on screen: a Chinese or Japanese character takes two
// columns of a terminal (text/tabwriter counts it as one).
func printTable(w io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			b.WriteString(cell)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(cell)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// displayWidth is how many terminal columns s takes: two for a wide or
// full-width character, none for a mark written on the one before.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch k := width.LookupRune(r).Kind(); {
		case unicode.Is(unicode.Mn, r):
		case k == width.EastAsianWide || k == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// localModelTrouble is why the local model cannot be found, where it is
// the embedder configured and the index holds its vectors or none: nil
// when it is found, or another embedder is the index's or configured.
// status loads no model, so without this it would name a model every
// search then goes without.
func localModelTrouble(env *Env, indexModel string) error {
	cfg := provider.FromEnv(env.Getenv)
	if cfg.Provider != provider.USE || (indexModel != "" && !strings.HasPrefix(indexModel, sentenceencoder.ModelID)) {
		return nil
	}
	_, err := assets.Locate(assets.Paths{LibPath: cfg.LibPath, ModelDir: cfg.ModelDir}, env.Getenv)
	return err
}

// wantedLine is status's word on an index whose last run could not reach
// the embedding server it was asked to use: the settings that add the
// vectors, which a bare `mdsearch index` (the local model) would not.
func wantedLine(wanted string) string {
	run, ok := serverIndex(wanted)
	if !ok {
		return "none (no vectors yet: keyword search only; run `mdsearch index` to embed)"
	}
	return fmt.Sprintf("none (no vectors yet: keyword search only; the last index run could not embed with %s: "+
		"once its server answers, run %s)", wanted, run)
}

// serverIndex is the index command that embeds with model where it is an
// embedding server's, its settings named: a bare `mdsearch index` would
// embed with the local model.
func serverIndex(model string) (string, bool) {
	api, name, _, ok := remote.ParseModelID(model)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("`mdsearch index --embedder %s --embed-model %s`, with --embed-url where it is not the default", api, shellWord(name)), true
}

// stoppedLine is status's word on an index whose run stopped before its
// first vector: not keyword-only by choice, and finished by the same
// command, which for a server's model names its settings (a bare `mdsearch
// index` would embed with the local model).
func stoppedLine(model string) string {
	finish := "`mdsearch index`"
	if run, ok := serverIndex(model); ok {
		finish = run
	}
	return fmt.Sprintf("none yet (the index run that was to embed the notes with %s stopped first; "+
		"the same command, run again, resumes it, as does %s)", model, finish)
}

// modelLine is status's word on the model: the index's, and where the
// local model cannot be found, why and what makes searches use it.
func modelLine(env *Env, model string, trouble error) string {
	what, fix := "", ""
	if trouble != nil {
		what, fix = trouble.Error(), "fix that"
		var e *mdsearch.Error
		if errors.As(trouble, &e) {
			what = e.Err.Error()
			if e.Hint != "" {
				fix = e.Hint
			}
		}
	}
	switch {
	case model != "" && trouble != nil:
		return fmt.Sprintf("%s (%s: searches use keywords only until you %s)", model, what, fix)
	case model != "":
		return model
	case trouble != nil:
		return fmt.Sprintf("none (no vectors yet: keyword search only; %s, then `mdsearch index` to embed)", fix)
	case provider.FromEnv(env.Getenv).Provider == provider.None:
		return "none (no vectors yet: keyword search only)"
	}
	return "none (no vectors yet: keyword search only; run `mdsearch index` to embed)"
}
