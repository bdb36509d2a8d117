package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// Options configure a Server.
type Options struct {
	// Token, when set, is the bearer token every API request must carry.
	Token string
	// Logger receives background errors; nil discards them.
	Logger *slog.Logger
	// OnReindexed runs after each background reindex, e.g. to watch new
	// collections.
	OnReindexed func()
	// NoteLinks resolves link targets among a collection's notes, so a
	// rendered note's wikilinks resolve (engine.Engine.NoteLinks); nil
	// leaves them unresolved.
	NoteLinks func(ctx context.Context, collection string) (*vault.LinkIndex, error)
	// OpenAttachment opens an attachment of a collection, an image a
	// rendered note embeds, refusing any path that leads out of its
	// folder (engine.Engine.OpenAttachment); nil serves none.
	OpenAttachment func(ctx context.Context, collection, path string) (*os.File, error)
	// MaxConcurrentSearches bounds searches running at once; more wait.
	// 0 means 16.
	MaxConcurrentSearches int
	// Instance names this server to the command-line search that asks it
	// in place of loading the model (package cli, served.go): a request
	// whose InstanceHeader names another is refused with 409, so a search
	// never takes the answer of a server that took over the port since.
	Instance string
}

// InstanceHeader carries the Instance a request is meant for.
const InstanceHeader = "Mdsearch-Instance"

// Server is the REST API and the search page. It is an http.Handler.
type Server struct {
	s       mdsearch.Searcher
	opts    Options
	log     *slog.Logger
	handler http.Handler
	api     *http.ServeMux
	sem     chan struct{}
	reindex reindexer
}

// maxBody bounds request bodies. No endpoint takes one, but a client may
// send a small one (an empty JSON object) with a POST.
const maxBody = 64 << 10

// New builds the API and page over s. Call Close to stop a running reindex.
func New(s mdsearch.Searcher, opts Options) *Server {
	if opts.MaxConcurrentSearches <= 0 {
		opts.MaxConcurrentSearches = 16
	}
	srv := &Server{s: s, opts: opts, log: opts.Logger, sem: make(chan struct{}, opts.MaxConcurrentSearches)}
	if srv.log == nil {
		srv.log = slog.New(slog.DiscardHandler)
	}
	srv.reindex.init()

	srv.api = http.NewServeMux()
	srv.api.Handle("/api/v1/semantic-search", only(http.MethodGet, srv.handleSearch))
	srv.api.Handle("/api/v1/status", only(http.MethodGet, srv.handleStatus))
	srv.api.Handle("/api/v1/reindex", only(http.MethodPost, srv.handleReindex))
	srv.api.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path)
	})

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, "forbidden",
			"cross-origin request refused: a page on another site may not change this index")
	}))
	api := cop.Handler(Guard(opts.Token, opts.Instance, limitBody(http.HandlerFunc(srv.routeAPI))))
	page := pageHandler()
	if opts.Token == "" {
		// Answered where the API is: only to a loopback host (Guard).
		page = Guard("", "", page)
	}
	// Not a ServeMux: it would clean note paths (and redirect) before the
	// engine sees them.
	root := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		page.ServeHTTP(w, r)
	})
	srv.handler = securityHeaders(gzipped(root))
	return srv
}

// ServeHTTP implements http.Handler.
func (srv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	srv.handler.ServeHTTP(w, r)
}

// Close cancels a running background reindex and waits for it.
func (srv *Server) Close() error {
	srv.reindex.stop()
	return nil
}

// routeAPI sends note reads straight to their handler, so the note path is
// passed to the engine exactly as the client sent it (the engine decides what
// is inside the vault); everything else goes through the API mux.
func (srv *Server) routeAPI(w http.ResponseWriter, r *http.Request) {
	if want := r.Header.Get(InstanceHeader); want != "" && want != srv.opts.Instance {
		writeError(w, http.StatusConflict, "conflict", "this is another server than the one asked for")
		return
	}
	p := r.URL.EscapedPath()
	for prefix, h := range map[string]func(http.ResponseWriter, *http.Request, string){
		"/api/v1/notes/":       srv.handleNote,
		"/api/v1/outline/":     srv.handleOutline,
		"/api/v1/attachments/": srv.handleAttachment,
	} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			only(http.MethodGet, func(w http.ResponseWriter, r *http.Request) { h(w, r, rest) }).ServeHTTP(w, r)
			return
		}
	}
	if clean := cleanPath(r.URL.Path); clean != r.URL.Path {
		// The mux would redirect, with an HTML body; the API names the
		// path instead, as for any other it does not serve.
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path+
			": the API does not clean paths; use "+clean)
		return
	}
	srv.api.ServeHTTP(w, r)
}

// cleanPath is p without empty, "." and ".." segments, keeping a trailing
// slash, as http.ServeMux cleans it.
func cleanPath(p string) string {
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}

// only answers a request with another method than the endpoint's with 405
// and an Allow header, rather than the catch-all 404: the path exists. GET
// endpoints take HEAD too.
func only(method string, h http.HandlerFunc) http.Handler {
	allow := method
	if method == http.MethodGet {
		allow = "GET, HEAD"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, "invalid", r.Method+" is not allowed here; use "+method)
			return
		}
		h(w, r)
	})
}

// NewHTTPServer wraps h in an http.Server with limits on headers, slow
// clients and idle connections.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		// Room for every parameter at its limit, percent-encoded, so an
		// over-long one gets the API's JSON error rather than Go's
		// plain-text 431.
		MaxHeaderBytes: 256 << 10,
	}
}

// limitBody reads and drops a request's body before the endpoint runs,
// refusing one over maxBody with 413: no endpoint reads it, so a bound on
// reads alone would never be met, and a client would not learn that what
// it sent was ignored.
func limitBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, maxBody))
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			writeError(w, http.StatusRequestEntityTooLarge, "invalid", fmt.Sprintf("request body over %d KB: "+
				"no endpoint takes a body; parameters go in the query string, e.g. POST /api/v1/reindex?full=1", maxBody>>10))
			return
		case err != nil:
			writeError(w, http.StatusBadRequest, "invalid", "reading the request body: "+err.Error())
			return
		}
		h.ServeHTTP(w, r)
	})
}

// securityHeaders forbid the page from loading anything but its own files,
// so even a rendering mistake cannot run a note's script, and other sites
// from loading its files. Images may come
// from blob: addresses too: the page fetches a note's images with the
// token where the server needs one, which an <img> cannot send.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		// Nor may another site's page load what it serves: an <img> of a
		// vault's image would show it there, and its load or error would
		// tell which paths exist.
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.ServeHTTP(w, r)
	})
}

// errorBody is every API error. Hint, where the engine gave one, is also
// at the end of Error, in brackets, as the command line prints it: a
// program reads it alone, as `--json` gives it.
type errorBody struct {
	Error string `json:"error"`
	Kind  string `json:"kind"`
	Hint  string `json:"hint,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, code int, kind, msg string) {
	writeJSON(w, code, errorBody{Error: msg, Kind: kind})
}

// writeEngineError maps an engine error's kind to an HTTP status.
func (srv *Server) writeEngineError(w http.ResponseWriter, r *http.Request, err error) {
	k := mdsearch.KindOf(err)
	code, kind := http.StatusInternalServerError, k.String()
	switch k {
	case mdsearch.KindInvalid:
		code = http.StatusBadRequest
	case mdsearch.KindNotFound:
		code = http.StatusNotFound
	case mdsearch.KindForbidden:
		code = http.StatusForbidden
	case mdsearch.KindUnavailable:
		code = http.StatusServiceUnavailable
	default:
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			code, kind = http.StatusServiceUnavailable, "unavailable"
		} else {
			srv.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
	}
	writeJSON(w, code, errorBody{Error: err.Error(), Kind: kind, Hint: mdsearch.HintOf(err)})
}
