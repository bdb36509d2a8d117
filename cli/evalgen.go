package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/eval"
	"github.com/mdsearch/mdsearch/internal/plural"
)

// genConfigs are what --generate measures by default: mdsearch's chunker in
// each search mode, which share one index.
var genConfigs = listFlag{"sections-hybrid", "sections-semantic", "sections-keyword"}

// genFlags are eval's flags for queries generated from the vault itself.
type genFlags struct {
	on    bool
	style string
	write string
	stats *eval.GenStats
}

func (g *genFlags) add(fs *flag.FlagSet) {
	fs.BoolVar(&g.on, "generate", false, "make labelled queries from the vault itself instead of --queries (see --style)")
	fs.StringVar(&g.style, "style", "all", "with --generate: all, or some of links (sentences around links to a heading), headings (sections' first sentences), sentences (a middle sentence, common and some other words left out), vague (sentences without their two rarest words), questions (headings asked as questions), terms (a word one section alone holds, asked by itself), titles (a note's title, alone or as a question, for its opening text), aspects (a note's title with a section's heading); both = links,headings")
	fs.StringVar(&g.write, "write-queries", "", "with --generate: also write the queries to this new file (JSON Lines; one that exists is refused)")
}

// queries generates the query set, and writes it when asked.
func (g *genFlags) queries(ctx context.Context, env *Env, opts *eval.Options) error {
	styles, err := eval.ParseStyles(g.style)
	if err != nil {
		return usagef("%v", err) // a bad value, as --mode's is
	}
	if g.write != "" { // refused before minutes of generating; saveQueries checks again
		if _, err := os.Lstat(g.write); err == nil {
			return existsError(g.write)
		}
	}
	qs, st, err := eval.Generate(ctx, opts.Vault, styles)
	if err != nil {
		return err
	}
	g.stats, opts.Queries = st, qs
	var kinds []string // every style asked for, in the order styles are listed
	for _, style := range eval.AllStyles {
		if slices.Contains(styles, style) {
			kinds = append(kinds, fmt.Sprintf("%d %s", st.ByStyle[style], style))
		}
	}
	links := "" // counted only when asked for
	if slices.Contains(styles, eval.StyleLinks) {
		links = fmt.Sprintf("%d links to a heading: %d to the same note, %d unresolved; ", st.Links, st.SameNote, st.Unresolved)
	}
	env.say("%s from %s: %s (%s%d sentences left out as too short or long, %d repeats dropped)",
		plural.Count(len(qs.Queries), "query", "queries"), plural.Count(st.Notes, "note", "notes"), strings.Join(kinds, ", "),
		links, st.Short, st.Duplicate)
	if g.write != "" {
		return saveQueries(g.write, qs)
	}
	return nil
}

// existsError refuses to write queries over a file: it is someone's.
func existsError(path string) error {
	return mdsearch.Errorf(mdsearch.KindInvalid, "write queries", path, "remove it, or pick another path; it was left as it is", "the file exists")
}

// saveQueries writes a query set as JSON Lines, one query a line, into a
// new file: one that exists is someone's, and is left as it is.
func saveQueries(path string, qs *eval.QuerySet) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return existsError(path)
	}
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindInvalid, "write queries", path, "", "%v", err)
	}
	enc := json.NewEncoder(f)
	for _, q := range qs.Queries {
		if err := enc.Encode(q); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return mdsearch.Errorf(mdsearch.KindInternal, "write queries", path, "", "%v", err)
	}
	return nil
}

// genReport is `eval --generate --json`'s answer.
type genReport struct {
	Generated *eval.GenStats  `json:"generated"`
	ByStyle   []eval.StyleRow `json:"by_style"`
	Report    *eval.Report    `json:"report"`
}

// report prints the usual table, then the rows per style.
func (g *genFlags) report(env *Env, rep *eval.Report, asJSON, details bool) error {
	rows := eval.ByStyle(rep)
	if !details {
		for i := range rep.Configs {
			rep.Configs[i].Outcomes = nil
		}
	}
	if asJSON {
		return printJSON(env, genReport{Generated: g.stats, ByStyle: rows, Report: rep})
	}
	if err := eval.WriteTable(screen(env.Stdout), rep); err != nil { // headings may hold escapes
		return err
	}
	fmt.Fprintln(env.Stdout)
	return eval.WriteStyles(env.Stdout, rep.K, rows)
}
