package cli

import (
	"context"
	"os"
	"path/filepath"

	"github.com/mdsearch/mdsearch/engine"
)

// warnBroad says, before the first run over it, that dir is the home
// folder or the file system's root: every note under it is read (a Go
// module cache's READMEs, a downloads folder's), which takes long and
// mixes them into every search. It is a notice, not a refusal: some keep
// their notes loose in the home folder.
func warnBroad(ctx context.Context, env *Env, e *engine.Engine, dir string) {
	root := resolved(dir)
	home, err := os.UserHomeDir()
	what := ""
	switch {
	case root == string(filepath.Separator):
		what = "the file system's root"
	case err == nil && root == resolved(home):
		what = "your home folder"
	default:
		return
	}
	colls, _ := e.Collections(ctx)
	for _, c := range colls {
		if resolved(c.Root) == root {
			return // indexed before: the user knows
		}
	}
	env.say("%s is %s: every note under it is read (hidden folders and node_modules are skipped; "+
		"a .mdsearchignore there leaves out more). Ctrl-C stops the run; index the folder that holds your notes instead", dir, what)
}
