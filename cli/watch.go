package cli

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/watch"
)

func runWatch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "watch", "", "Watches every collection of the index (status lists them), and collections indexed while it runs,\n"+
		"re-indexing each note as it is saved. It takes no folder: to watch one, index it first\n"+
		"(mdsearch index --index INDEX DIR); a running watch takes it up within seconds.")
	debounce := fs.Duration("debounce", 200*time.Millisecond, "how long a folder must be quiet before its changes are indexed")
	ef := addEngineFlags(fs)
	ef.existing, ef.follow = true, true
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		index := ""
		if ef.index != "" {
			index = " --index " + shellWord(ef.index)
		}
		return usagef("unexpected argument %q: watch takes no folder: it watches every collection of the index; "+
			"to add this folder, index it (mdsearch index%s %s), then watch", pos[0], index, shellWord(pos[0]))
	}
	if *debounce <= 0 {
		return usagef("--debounce %v: use a positive duration, e.g. 500ms", *debounce)
	}
	s, closeAll, err := openServing(ctx, env, ef)
	if err != nil {
		return err
	}
	defer closeAll()
	if err := s.CheckModel(ctx); err != nil {
		return err
	}
	if n := s.AdoptNotice(ctx); n != "" {
		env.say("%s", n)
	}
	log := env.logger()
	report := newWatchReport(env)
	w, err := watch.Start(ctx, s, watch.Options{Debounce: *debounce, CatchUp: true, Logger: log,
		OnRefresh: report.refreshed, OnWatch: report.watching})
	if err != nil {
		return err
	}
	defer w.Close()
	s.SetCatchingUp(true)
	names := w.Collections()
	if len(names) == 0 {
		return mdsearch.Errorf(mdsearch.KindNotFound, "watch", "", "index a folder first: `mdsearch index DIR`", "the index holds no collections")
	}
	env.say("watching %s (Ctrl-C to stop)", strings.Join(names, ", "))
	select {
	case <-ctx.Done():
		w.Close() // waits for a refresh in progress to stop
		return stoppedWatch(ctx, s, w.Stopped())
	case <-w.Done(): // the index file is gone: nothing more to do
		return w.Err()
	}
}

// shellWord is s as one word of a shell command line: as it is when it
// holds nothing a shell reads, else in single quotes.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("/._-+:=@%,~", r)))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// unembedded is what stoppedWatch asks of the engine.
type unembedded interface {
	Unembedded(ctx context.Context) (int, error)
}

// stoppedWatch is how a watch stopped by a signal ends: quietly when it
// was idle; when it stopped a refresh (stopped), as an interrupted
// command, exit 130, saying what it left for the next run.
func stoppedWatch(ctx context.Context, s unembedded, stopped bool) error {
	if !stopped {
		return nil
	}
	hint := ": a refresh was stopped before it finished; the next index or watch finishes it"
	if n, err := s.Unembedded(context.WithoutCancel(ctx)); err == nil && n > 0 {
		hint = fmt.Sprintf(": stopped with %d %s not embedded; the next index or watch finishes %s",
			n, plural.Noun(n, "window", "windows"), plural.Noun(n, "it", "them"))
	}
	return &leaves{err: ctx.Err(), hint: hint}
}

// watchReport says what a watch does: each refresh on stdout, each
// collection it starts to watch on stderr. Its methods run on the
// watcher's goroutine, one at a time.
type watchReport struct {
	env    *Env
	caught map[string]bool // collections caught up once
}

func newWatchReport(env *Env) *watchReport { return &watchReport{env: env, caught: map[string]bool{}} }

// refreshed prints a refresh. A catch-up that changed nothing is printed
// once a collection: a collection indexed while watch runs makes it catch
// up with every one, and the others' lines would repeat the first.
func (r *watchReport) refreshed(coll string, paths []string, st *mdsearch.IndexStats, err error) {
	if err != nil { // the watcher logged it
		return
	}
	if paths == nil {
		quiet := st.Added+st.Changed+st.Deleted+st.Embedded+len(st.Skipped) == 0
		if r.caught[coll] && quiet {
			return
		}
		r.caught[coll] = true
	}
	fmt.Fprintln(screen(r.env.Stdout), refreshLine(coll, paths, st)) // names may hold escapes
}

// watching names collections indexed while watch runs, now watched, as
// the start named the first ones.
func (r *watchReport) watching(colls []string) {
	r.env.say("watching %s", strings.Join(colls, ", "))
}

// refreshLine summarises one refresh (or catch-up, when paths is nil).
func refreshLine(coll string, paths []string, st *mdsearch.IndexStats) string {
	what := "caught up"
	if paths != nil {
		what = plural.Count(len(paths), "file", "files")
		if len(paths) <= shownPaths {
			what += " (" + oneLine(strings.Join(paths, ", ")) + ")"
		}
	}
	var skipped []mdsearch.FileIssue // a file skipped before, outside the batch, is no news
	for _, s := range st.Skipped {
		if inBatch(s.Path, paths) {
			skipped = append(skipped, s)
		}
	}
	recut := ""
	if st.Recut > 0 { // an older mdsearch cut them, or their settings changed
		recut = fmt.Sprintf(" %d cut again,", st.Recut)
	}
	warned := ""
	if len(st.Warnings) > 0 {
		warned = ", " + plural.Count(len(st.Warnings), "warning", "warnings")
	}
	line := fmt.Sprintf("%s: %s: %d added, %d changed, %d deleted,%s %d embedded, %d skipped%s (%.0f ms)",
		coll, what, st.Added, st.Changed, st.Deleted, recut, st.Embedded, len(skipped), warned, st.TookMS)
	// Which, and why, as index prints them: a note saved with broken
	// frontmatter is told of as it is saved, not at the next index run.
	const most = 20
	for i, s := range skipped {
		if i == most {
			line += fmt.Sprintf("\n  … and %d more skipped (`mdsearch status` lists them)", len(skipped)-most)
			break
		}
		line += fmt.Sprintf("\n  skipped %s: %s", oneLine(s.Path), oneLine(s.Reason))
	}
	for i, w := range st.Warnings {
		if i == most {
			line += fmt.Sprintf("\n  … and %d more %s (`mdsearch status` lists them)", len(st.Warnings)-most, plural.Noun(len(st.Warnings)-most, "warning", "warnings"))
			break
		}
		line += fmt.Sprintf("\n  %s: warning: %s", oneLine(w.Path), oneLine(w.Reason))
	}
	return line
}

// oneLine is a file name or reason on one line of a report: a line break
// in it (a file name may hold one) shown as \n, so it cannot start a line
// that passes for another entry.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r", `\r`), "\n", `\n`)
}
