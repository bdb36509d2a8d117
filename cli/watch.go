package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/watch"
)

func runWatch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "watch", "")
	debounce := fs.Duration("debounce", 200*time.Millisecond, "how long a folder must be quiet before its changes are indexed")
	ef := addEngineFlags(fs)
	ef.existing, ef.follow = true, true
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	if *debounce <= 0 {
		return usagef("--debounce %v: use a positive duration, e.g. 500ms", *debounce)
	}
	s, closeAll, err := openServing(ctx, env, ef)
	if err != nil {
		return err
	}
	defer closeAll()
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))
	w, err := watch.Start(ctx, s, watch.Options{Debounce: *debounce, CatchUp: true, Logger: log,
		OnRefresh: func(coll string, paths []string, st *mdsearch.IndexStats, err error) {
			if err == nil {
				fmt.Fprintln(env.Stdout, refreshLine(coll, paths, st))
			}
		}})
	if err != nil {
		return err
	}
	defer w.Close()
	names := w.Collections()
	if len(names) == 0 {
		return mdsearch.Errorf(mdsearch.KindNotFound, "watch", "", "index a folder first: mdsearch index DIR", "the index holds no collections")
	}
	env.say("watching %s (Ctrl-C to stop)", strings.Join(names, ", "))
	select {
	case <-ctx.Done():
		return nil
	case <-w.Done(): // the index file is gone: nothing more to do
		return w.Err()
	}
}

// refreshLine summarises one refresh (or catch-up, when paths is nil).
func refreshLine(coll string, paths []string, st *mdsearch.IndexStats) string {
	what := "caught up"
	if paths != nil {
		what = fmt.Sprintf("%d file(s)", len(paths))
	}
	line := fmt.Sprintf("%s: %s: %d added, %d changed, %d deleted, %d embedded, %d skipped (%.0f ms)",
		coll, what, st.Added, st.Changed, st.Deleted, st.Embedded, len(st.Skipped), st.TookMS)
	if paths == nil { // a catch-up walks every note: its count says enough
		return line
	}
	for _, s := range st.Skipped { // which, and why, as index prints them
		line += fmt.Sprintf("\n  skipped %s: %s", s.Path, s.Reason)
	}
	return line
}
