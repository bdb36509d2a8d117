package cli

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/mdsearch/mdsearch"
)

// commandsSearcher is a Searcher whose notices and error hints name
// this command's --index in each command they tell the reader to run
// (Env.commands), as the command line's own messages do: a server's
// reader, pasting "`mdsearch index`" from a REST or MCP answer, would
// otherwise index the default index, not the one served.
type commandsSearcher struct {
	mdsearch.Searcher
	commands func(string) string
}

// withCommands wraps s so that what it says names the index it serves,
// by its full path, when the flags or $MDSEARCH_INDEX named one: the
// reader of a server's answer pastes the command into another shell, in
// another folder, without the server's environment. Else it is s.
func withCommands(env *Env, ef *engineFlags, s mdsearch.Searcher) mdsearch.Searcher {
	if env.indexArg() == "" && env.Getenv("MDSEARCH_INDEX") == "" {
		return s
	}
	index, err := ef.indexPath(env)
	if err != nil {
		return s
	}
	if abs, err := filepath.Abs(index); err == nil {
		index = abs
	}
	return commandsSearcher{Searcher: s, commands: func(msg string) string { return withIndex(msg, index) }}
}

func (c commandsSearcher) Index(ctx context.Context, req mdsearch.IndexRequest, progress func(mdsearch.IndexProgress)) (*mdsearch.IndexStats, error) {
	st, err := c.Searcher.Index(ctx, req, progress)
	c.stats(st)
	return st, c.hint(err)
}

func (c commandsSearcher) IndexAll(ctx context.Context, full bool, progress func(mdsearch.IndexProgress)) ([]*mdsearch.IndexStats, error) {
	sts, err := c.Searcher.IndexAll(ctx, full, progress)
	for _, st := range sts {
		c.stats(st)
	}
	return sts, c.hint(err)
}

func (c commandsSearcher) Refresh(ctx context.Context, collection string, paths []string) (*mdsearch.IndexStats, error) {
	st, err := c.Searcher.Refresh(ctx, collection, paths)
	c.stats(st)
	return st, c.hint(err)
}

func (c commandsSearcher) Search(ctx context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error) {
	resp, err := c.Searcher.Search(ctx, req)
	if resp != nil {
		resp.Notice = c.commands(resp.Notice)
	}
	return resp, c.hint(err)
}

func (c commandsSearcher) Read(ctx context.Context, req mdsearch.ReadRequest) (*mdsearch.ReadResponse, error) {
	resp, err := c.Searcher.Read(ctx, req)
	if resp != nil {
		resp.Notice = c.commands(resp.Notice)
	}
	return resp, c.hint(err)
}

func (c commandsSearcher) Outline(ctx context.Context, path string) (*mdsearch.Outline, error) {
	o, err := c.Searcher.Outline(ctx, path)
	return o, c.hint(err)
}

func (c commandsSearcher) Status(ctx context.Context) (*mdsearch.Status, error) {
	st, err := c.Searcher.Status(ctx)
	if st != nil {
		st.Notice = c.commands(st.Notice)
	}
	return st, c.hint(err)
}

func (c commandsSearcher) stats(st *mdsearch.IndexStats) {
	if st != nil {
		st.Notice = c.commands(st.Notice)
	}
}

// hint names --index in the commands an error's hint gives.
func (c commandsSearcher) hint(err error) error {
	var me *mdsearch.Error
	if errors.As(err, &me) {
		me.Hint = c.commands(me.Hint)
	}
	return err
}
