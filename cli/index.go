package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mdsearch/mdsearch"
)

func runIndex(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "index", "DIR")
	name := fs.String("name", "", "collection name (default: the folder's name)")
	full := fs.Bool("full", false, "re-read and re-embed every note")
	asJSON := fs.Bool("json", false, "print the run's statistics as JSON")
	ef := addEngineFlags(fs)
	pos, err := parseArgs(fs, args, 1, "one DIR, the folder to index")
	if err != nil {
		return err
	}
	e, closeAll, err := ef.open(ctx, env, true)
	if err != nil {
		return err
	}
	defer closeAll()
	if err := rebuildIfMigrated(ctx, env, e); err != nil {
		return err
	}
	bar := newProgressBar(env)
	st, err := e.Index(ctx, mdsearch.IndexRequest{Dir: pos[0], Name: *name, Full: *full}, bar.update)
	bar.done()
	if st == nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if encErr := enc.Encode(st); encErr != nil {
			return encErr
		}
	} else {
		fmt.Fprintln(env.Stdout, summary(st))
		printSkips(env, st)
	}
	printNotice(env, st.Notice)
	return err
}

// summary is the one-line account of an indexing run.
func summary(st *mdsearch.IndexStats) string {
	return fmt.Sprintf("%s: %d files (%d added, %d changed, %d deleted, %d unchanged), %d chunks written, %d embedded, %d reused, %d skipped in %s",
		st.Collection, st.Files, st.Added, st.Changed, st.Deleted, st.Unchanged, st.Chunks, st.Embedded, st.Reused,
		len(st.Skipped), (time.Duration(st.TookMS*1e6) * time.Nanosecond).Round(time.Millisecond))
}

// printSkips lists skipped files and parser warnings on stderr.
func printSkips(env *Env, st *mdsearch.IndexStats) {
	for _, s := range st.Skipped {
		env.say("skipped %s: %s", s.Path, s.Reason)
	}
	const most = 20
	for i, w := range st.Warnings {
		if i == most {
			env.say("… and %d more warnings (--json lists them all)", len(st.Warnings)-most)
			break
		}
		env.say("warning %s: %s", w.Path, w.Reason)
	}
}
