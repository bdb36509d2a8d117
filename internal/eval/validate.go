package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
)

// checkRequest is the search's own check of a query (mdsearch's request
// check): text that is not UTF-8, or too long, is refused as the file is
// read, not after minutes of indexing.
func checkRequest(text string) error {
	return mdsearch.SearchRequest{Query: text, N: 1, MaxPerPage: 1, Mode: mdsearch.ModeKeyword}.Check()
}

// checkQueries asks an empty index every query before any index is built,
// so a query the engine refuses, or lists notes for (operators alone, as
// tag:meeting, which name nothing to look for), is named by its line
// before the run, whatever the configurations: the bm25-sections baseline
// reads no operators, and would score it.
func (o *Options) checkQueries(ctx context.Context) error {
	dir, err := os.MkdirTemp(o.TempDir, "mdsearch-eval-*")
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindInternal, "eval", o.TempDir, "", "temporary index folder: %v", err)
	}
	defer os.RemoveAll(dir)
	e, err := engine.Open(ctx, engine.Options{IndexPath: filepath.Join(dir, "index.db"), KeywordOnly: true})
	if err != nil {
		return err
	}
	defer e.Close()
	for i := range o.Queries.Queries {
		q := &o.Queries.Queries[i]
		if err := refused(ctx, e, o.request(q, q.Text, mdsearch.ModeKeyword)); err != nil {
			return queryError(o.Queries.File, q.Line, "%v", err)
		}
	}
	for _, text := range o.OffTopic {
		if err := refused(ctx, e, o.request(nil, text, mdsearch.ModeKeyword)); err != nil {
			return mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "", "off-topic query %q: %v", text, err)
		}
	}
	return nil
}

// refused is the engine's refusal of req, if it refuses it: other errors
// of an empty index are no fault of the query.
func refused(ctx context.Context, e *engine.Engine, req mdsearch.SearchRequest) error {
	if err := checkRequest(req.Query); err != nil || !strings.Contains(req.Query, ":") {
		// Every operator holds a colon: a query without one needs the
		// request check alone, so thousands are checked in no time.
		return err
	}
	_, err := unlisted{e}.Search(ctx, req) // a list of notes ranks nothing to score
	if mdsearch.KindOf(err) == mdsearch.KindInvalid {
		return err
	}
	return ctx.Err()
}

// wrapLine names the query file and line of an error of query q.
func (o *Options) wrapLine(q *Query, err error) error {
	return fmt.Errorf("%s:%d: %w", o.Queries.File, q.Line, err)
}
