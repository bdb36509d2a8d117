package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch/internal/plural"
)

func runDrop(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "drop", "COLLECTION")
	asJSON := fs.Bool("json", false, "print what was removed as JSON")
	ef := addIndexPathFlag(fs)
	ef.existing = true
	pos, err := parseArgs(fs, args, 1, "one COLLECTION")
	if err != nil {
		return err
	}
	if strings.TrimSpace(pos[0]) == "" {
		return usagef("give a COLLECTION name (mdsearch status lists them)")
	}
	e, closeAll, err := ef.open(ctx, env, false)
	if err != nil {
		return err
	}
	defer closeAll()
	st, err := e.Drop(ctx, pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env, st)
	}
	// A vector is a distinct window text's, and those other collections
	// share stay: status counts windows with a vector, which is more.
	fmt.Fprintf(env.Stdout, "dropped %s: %d %s and %d %s (one a distinct window text no other collection has) out of the index; %s is untouched (%.0f ms)\n",
		st.Collection, st.Notes, plural.Noun(st.Notes, "note", "notes"), st.Vectors, plural.Noun(int(st.Vectors), "vector", "vectors"), st.Root, st.TookMS)
	return nil
}
