package cli

import (
	"context"
	"errors"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
)

// runJSON is one collection's run in `index --json`'s array (without a
// DIR): its statistics, and, for one that failed, the error, as a failed
// command's --json gives it; a run that failed before it began (its
// folder gone) has no statistics but its collection.
type runJSON struct {
	*mdsearch.IndexStats
	Collection string         `json:"collection"`
	Error      *jsonErrorBody `json:"error,omitempty"`
}

// runsJSON pairs each collection of the index with its run's statistics
// and error: IndexAll returns the statistics of the runs that began, and
// the failures joined, in the order of the collections it ran.
func runsJSON(ctx context.Context, env *Env, e *engine.Engine, stats []*mdsearch.IndexStats, err error) []runJSON {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else if err != nil {
		errs = []error{err}
	}
	byName := map[string]*mdsearch.IndexStats{}
	for _, st := range stats {
		byName[st.Collection] = st
	}
	colls, _ := e.Collections(context.WithoutCancel(ctx)) // an interrupted run still lists them
	out := []runJSON{}
	for _, c := range colls {
		st := byName[c.Name]
		r := runJSON{IndexStats: st, Collection: c.Name}
		if (st == nil || st.Stopped) && len(errs) > 0 && !errors.Is(errs[0], context.Canceled) {
			body := errorJSON("index", "", errs[0]).Error
			body.Message, body.Hint = env.commands(body.Message), env.commands(body.Hint)
			r.Error, errs = &body, errs[1:]
		}
		if st != nil || r.Error != nil {
			out = append(out, r)
		}
	}
	return out
}
