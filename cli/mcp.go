package cli

import (
	"context"
	"net/http"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/mcpserver"
	"github.com/mdsearch/mdsearch/rest"
)

func runMCP(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "mcp", "")
	httpAddr := fs.String("http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8765) instead of stdio")
	sf := addServerFlags(fs, "with --http: bearer token requests must carry (default $MDSEARCH_TOKEN)")
	textOnly := fs.Bool("text-only", false, "answer with text alone, without the JSON as structured content: clients that show the model only the JSON (Claude Code) then show it the text, which costs fewer tokens")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	if err := sf.check(env, "--http", *httpAddr); err != nil {
		return err
	}
	// stdout carries the protocol on stdio: everything else goes to stderr,
	// re-indexes among it, as serve and watch log them.
	log := env.logger()
	s, _, closeAll, err := sf.open(ctx, env, log)
	if err != nil {
		return err
	}
	defer closeAll()

	colls, _ := s.Collections(ctx) // none named is no reason not to serve
	srv := mcpserver.New(withCommands(env, sf.ef, s), mcpserver.Options{Version: thisBuild().version, Logger: log, TextOnly: *textOnly, Collections: colls,
		Scores: s.Scores(mdsearch.ModeHybrid)})
	if *httpAddr == "" {
		return mcpserver.ServeStdio(ctx, srv)
	}
	mux := http.NewServeMux()
	h := rest.Guard(*sf.token, "", mcpserver.HTTPHandler(srv))
	mux.Handle("/mcp", h)
	mux.Handle("/{$}", h) // the root too, for clients given the bare address; any other path is a 404
	ln, err := listen("--http", *httpAddr)
	if err != nil {
		return err
	}
	env.say("MCP (streamable HTTP) at http://%s/mcp (Ctrl-C to stop)", shownAddr(ln.Addr()))
	hs := rest.NewHTTPServer(*httpAddr, mux)
	hs.WriteTimeout = 0 // event streams stay open
	return serveHTTP(ctx, hs, ln)
}
