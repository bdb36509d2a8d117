package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
)

func runRead(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "read", "PATH")
	section := fs.String("section", "", "print only this section (heading text, or Parent/Child)")
	outline := fs.Bool("outline", false, "print the note's headings with their section paths and word counts")
	asJSON := fs.Bool("json", false, "print JSON")
	ef := addIndexFlags(fs)
	ef.readOnly = true
	pos, err := parseArgs(fs, args, 1, "one PATH, a note's path in its vault")
	if err != nil {
		return err
	}
	e, closeAll, err := ef.open(ctx, env, false)
	if err != nil {
		return err
	}
	defer closeAll()
	var out any
	if *outline {
		o, err := e.Outline(ctx, pos[0])
		if err != nil {
			return err
		}
		if !*asJSON {
			printOutline(env, o)
			return nil
		}
		out = o
	} else {
		r, err := e.Read(ctx, mdsearch.ReadRequest{Path: pos[0], Section: *section})
		if err != nil {
			return err
		}
		if !*asJSON {
			fmt.Fprint(env.Stdout, r.Content)
			if !strings.HasSuffix(r.Content, "\n") {
				fmt.Fprintln(env.Stdout)
			}
			return nil
		}
		out = r
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func printOutline(env *Env, o *mdsearch.Outline) {
	fmt.Fprintf(env.Stdout, "%s:%s — %s (%d words)\n", o.Collection, o.Path, o.Title, o.WordCount)
	for _, s := range o.Sections {
		indent := strings.Repeat("  ", max(s.Level-1, 0))
		fmt.Fprintf(env.Stdout, "%s%s %s  [%s] %d words, lines %d–%d\n", indent, strings.Repeat("#", s.Level), s.Heading,
			strings.Join(s.SectionPath, "/"), s.WordCount, s.StartLine, s.EndLine)
	}
}
