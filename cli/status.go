package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
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
	if *asJSON {
		return printJSON(env, s)
	}
	model := s.ModelID
	if model == "" {
		model = "none (no vectors yet: keyword search only)"
	}
	fmt.Fprintf(env.Stdout, "index:  %s (%s, schema %d)\nmodel:  %s\n", s.IndexPath, humanBytes(s.SizeBytes), s.SchemaVersion, model)
	if len(s.Collections) == 0 {
		fmt.Fprintln(env.Stdout, "no collections yet: run `mdsearch index DIR`")
	} else {
		tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "\nCOLLECTION\tFILES\tPASSAGES\tWINDOWS\tVECTORS\tSTALE\tINDEXED\tROOT")
		for _, c := range s.Collections {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", c.Name, c.Files, c.Chunks, c.Windows, c.Vectors, c.Stale, c.IndexedAt, c.Root)
		}
		if len(s.Collections) > 1 {
			fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\t\t\n", s.Files, s.Chunks, s.Windows, s.Vectors, s.Stale)
		}
		tw.Flush()
		if s.Stale > 0 { // it counts new and deleted files too, so it may exceed FILES
			fmt.Fprintf(env.Stdout, "\nstale: %d %s added, changed or deleted on disk since indexed; `mdsearch index` catches up "+
				"(a running watch, serve or mcp does so as files are saved)\n", s.Stale, plural(s.Stale, "file", "files"))
		}
	}
	if p := s.Indexing; p != nil {
		v := snapshotView(*p)
		fmt.Fprintf(env.Stdout, "indexing (%s): %s\n", map[string]string{"files": "reading files", "embed": "embedding"}[v.Phase], progressLine(*p, v, 100))
	}
	if *check {
		fmt.Fprintln(env.Stdout, "check:  the index file reads whole, no damage found")
	}
	printNotice(env, s.Notice)
	return nil
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
