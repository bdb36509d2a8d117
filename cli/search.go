package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/render"
)

func runSearch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "search", "QUERY",
		"QUERY may hold Obsidian's search operators, which filter as the flags do: tag:NAME (--tag), "+
			"path:TEXT and file:TEXT (the note's path or file name holds the text), [FIELD:VALUE] (--where), [FIELD:>5] and [FIELD:<2025-01-01] (a number or a date), "+
			"task-todo:WORDS, task-done:WORDS and task:WORDS (an open, a done or any task holding the words; given none, any such task, and alone a list of the passages holding one: \"task-todo:\"); "+
			"a - before one leaves out what it would keep (-path:Archive); "+
			`quote a value with spaces: path:"Daily notes". In keyword and hybrid modes a "quoted phrase" must be in every result; `+
			`in any mode -word or -"a phrase" must be in none (give the query as one argument, in quotes: "canvas -plugin").`)
	var req mdsearch.SearchRequest
	fs.IntVar(&req.N, "n", mdsearch.DefaultN, fmt.Sprintf("results to return (1–%d)", mdsearch.MaxN))
	fs.IntVar(&req.MaxPerPage, "max-per-page", 0, fmt.Sprintf("most passages from one note (1–%d; 0 or left out: by default %d, more of a note where the other notes' passages are unlikely answers)",
		mdsearch.MaxMaxPerPage, mdsearch.DefaultMaxPerPage))
	mode := fs.String("mode", "hybrid", "hybrid, semantic or keyword")
	fs.StringVar(&req.Collection, "collection", "", "search only this collection")
	var tags, where, exclude listFlag
	fs.Var(&tags, "tag", "only notes with this tag (nested tags included); repeat to require several")
	fs.StringVar(&req.PathPrefix, "path-prefix", "", "only notes whose path starts with this (any case; end a folder with / to leave out its namesakes, kitchen/ not kitchen-old): vault-relative, or a full path inside an indexed folder")
	fs.Var(&where, "where", "only notes whose frontmatter FIELD=VALUE (FIELD in any case, params.author for a field inside a map; a list field: contains it; numbers compare as numbers); FIELD>5, FIELD<=2025-01-01, FIELD<today+7d compare a number or a date (twice on one FIELD: a range); file.mtime>=today-7d: the file's last change; repeatable, all must match")
	fs.Var(&exclude, "exclude", "leave out this note (one already read, say), named as read takes it: its path, COLLECTION:PATH, full path, [[link]] or name; repeatable")
	fs.IntVar(&req.MaxTokens, "max-tokens", 0, "fill at most about this many tokens with whole passages, their header and footer lines included (0: no limit)")
	fs.IntVar(&req.Offset, "offset", 0, "in a list (no words: notes, or the passages task-todo: alone keeps), skip this many: the notice gives the next page's offset")
	fs.StringVar(&req.Sort, "sort", "", "order a list of notes (no words): path (the default) or modified (last changed first, each with its time)")
	fs.Float64Var(&req.MinScore, "min-score", 0, "leave out results scoring under this, 0–1 (0: keep all); the notice counts them")
	brief := fs.Bool("brief", false, "show each result's first lines only")
	files := fs.Bool("files", false, "print the results' notes alone, best first, each once: the file's full path, one a line (for $EDITOR or xargs); -n counts notes")
	fs.BoolVar(&req.NoRerank, "no-rerank", false, "keep the local ranking, though a --reranker is set")
	fs.BoolVar(&req.AsTyped, "as-typed", false, "search for the query as typed: a misspelled word is not respelled for the results (its suggestion is still named)")
	fs.BoolVar(&req.Explain, "explain", false, "say under each result what its place and score rest on: its words and where they are, its places in the keyword and meaning lists, what the second stage weighed")
	asJSON := fs.Bool("json", false, "print results as JSON")
	ef := addSearchFlags(fs)
	ef.reranker = addRerankerFlags(fs)
	ef.readOnly = true
	ef.oneQuery, ef.vectorCache = true, true
	pos, err := parseArgs(fs, args, -2, "a QUERY")
	if err != nil {
		return err
	}
	if mdsearch.TrimQuery(strings.Join(pos, " ")) == "" && !flagSet(fs, "tag") && !flagSet(fs, "where") && !flagSet(fs, "path-prefix") && !flagSet(fs, "sort") {
		return usagef("give a QUERY, or --tag, --where or --path-prefix alone to list the notes that have it, or --sort modified alone to list every note, last changed first")
	}
	req.Query = strings.Join(pos, " ")
	if err := refuseBlank(fs, "collection", "path-prefix", "mode", "sort"); err != nil {
		return err
	}
	if err := filesAlone(*files, *asJSON, *brief, req); err != nil {
		return err
	}
	if *files {
		req.MaxPerPage = 1 // -n counts notes: each is printed once
	}
	if *brief && (*asJSON || req.MaxTokens > 0) {
		// --brief cuts what is printed, which neither the JSON nor the
		// budget (counted on whole passages) would follow.
		other := "--json prints each result whole"
		if !*asJSON {
			other = "--max-tokens fills its budget with whole passages"
		}
		return usagef("--brief prints each result's first lines, while %s: pass one of them", other)
	}
	if req.Tag, req.Tags, err = mdsearch.SplitTags(tags); err != nil {
		return requestError("search", err)
	}
	if req.Where, err = mdsearch.ParseWhere(where); err != nil {
		return requestError("search", err)
	}
	req.Exclude = exclude
	req.Mode = mdsearch.Mode(*mode)
	if err := req.Check(); err != nil { // before the model loads; a 0 from a flag is an error, not the default
		return requestError("search", err)
	}
	// Settings the serve would not read are still this command's to check.
	if err := ef.check(env); err != nil {
		return err
	}
	// A running serve of the index answers at once, keyword searches too:
	// it has the model loaded and the index open.
	var e *engine.Engine
	resp, err := servedSearch(ctx, env, ef, searchValues(req, tags, where))
	if err != nil {
		var closeAll func()
		e, closeAll, err = ef.open(ctx, env, req.Mode != mdsearch.ModeKeyword && !req.Lists()) // a list ranks nothing
		if err != nil {
			return err
		}
		defer closeAll()
		if resp, err = e.Search(ctx, req); err != nil {
			return requestError("search", err)
		}
	}
	resp.Notice = env.commands(resp.Notice)
	if *files { // no text is printed, so none was cut to its opening
		resp.Notice = engine.WithoutCutNotice(resp.Notice)
	}
	printNotice(env, flagNames(fs, resp.Notice)) // --json's notice names request fields, as MCP's and REST's
	if *files {
		return printFiles(ctx, env, ef, e, resp)
	}
	if *asJSON {
		return printJSON(env, resp)
	}
	_, width := isTerminal(env.Stdout)
	if width == 0 {
		width = 100
	}
	lines := 0
	if *brief {
		lines = 4
	}
	for i := range resp.Results {
		resp.Results[i].ReadHint = env.readCommand(resp.Results[i])
	}
	return render.Terminal(screen(env.Stdout), resp, width, lines)
}

// refuseBlank refuses the named flags given empty or blank: "--collection
// ”" meant a collection, and reading it as absent would widen the search
// unsaid (REST refuses collection= alike).
func refuseBlank(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if f := fs.Lookup(n); f != nil && flagSet(fs, n) && strings.TrimSpace(f.Value.String()) == "" {
			return usagef("--%s is empty: give a value, or leave --%s out", n, n)
		}
	}
	return nil
}
