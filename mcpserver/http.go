package mcpserver

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of the streamable HTTP transport. Each session holds memory until
// it ends, so a client that opens sessions in a loop could otherwise grow
// the server without bound.
const (
	DefaultMaxSessions = 100
	DefaultIdleTimeout = 10 * time.Minute
)

// HTTPOptions configure NewHTTPHandler; zero values take the defaults.
type HTTPOptions struct {
	MaxSessions int           // open sessions; a new one closes the least recently used idle one
	IdleTimeout time.Duration // a session with no request for this long is closed
}

// HTTPHandler serves srv over streamable HTTP with the default limits.
func HTTPHandler(srv *mcp.Server) http.Handler {
	return NewHTTPHandler(srv, HTTPOptions{})
}

// NewHTTPHandler serves srv over MCP's streamable HTTP transport. The SDK
// refuses requests whose Host is not local when they arrive on a loopback
// address (DNS rebinding); cross-origin protection refuses state-changing
// requests sent by a web page of another origin, as the REST API does; and
// sessions are capped and expire when idle.
func NewHTTPHandler(srv *mcp.Server, opts HTTPOptions) http.Handler {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{
			SessionTimeout:      opts.IdleTimeout,
			MaxRequestBodyBytes: 1 << 20,
		})
	capped := &sessionCap{srv: srv, h: h, max: opts.MaxSessions, use: map[string]*sessionUse{}}
	return http.NewCrossOriginProtection().Handler(capped)
}

const sessionHeader = "Mcp-Session-Id"

// sessionCap keeps at most max sessions open: before a request that may
// open one (it carries no session ID), it closes the least recently used
// session that has no request in flight (an open event stream is not one),
// or refuses when all are busy.
type sessionCap struct {
	srv    *mcp.Server
	h      http.Handler
	max    int
	initMu sync.Mutex // one session opens at a time, so the cap holds

	mu  sync.Mutex
	use map[string]*sessionUse // by session ID
}

type sessionUse struct {
	last   time.Time
	active int // requests in flight
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionHeader)
	if r.Method == http.MethodGet && id == "" && !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		// A browser, or curl: say what the address is for.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, "This is mdsearch's MCP server (streamable HTTP): add this address to an MCP client. "+
			"The search page and the REST API are served by `mdsearch serve`.\n")
		return
	}
	if id != "" && r.Method == http.MethodGet {
		// An event stream waits for messages the server may send, for as
		// long as the client likes: it is a use when it opens, but does not
		// keep the session busy, or a client holding one on each of
		// max sessions would lock every new session out.
		c.seen(id)
		c.h.ServeHTTP(w, r)
		return
	}
	if id != "" {
		if c.touch(id, 1) {
			defer c.touch(id, -1)
		}
		c.h.ServeHTTP(w, r)
		return
	}
	c.initMu.Lock()
	defer c.initMu.Unlock()
	if !c.makeRoom() {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "too many MCP sessions are busy; try again shortly", http.StatusServiceUnavailable)
		return
	}
	c.h.ServeHTTP(w, r)
	if id := w.Header().Get(sessionHeader); id != "" {
		c.touch(id, 0)
	}
}

// touch records a use of session id; delta counts requests in flight.
// Only the request that opened a session (delta 0) adds it: an ID a client
// made up is not tracked, so it cannot grow the table. It reports whether
// the session is tracked.
func (c *sessionCap) touch(id string, delta int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.use[id]
	if u == nil && delta != 0 {
		return false
	}
	if u == nil {
		u = &sessionUse{}
		c.use[id] = u
	}
	u.last = time.Now()
	u.active += delta
	return true
}

// seen records a use of session id, if it is tracked, with no request
// in flight.
func (c *sessionCap) seen(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u := c.use[id]; u != nil {
		u.last = time.Now()
	}
}

// makeRoom closes sessions until a new one fits under the cap. It reports
// false when every open session has a request in flight.
func (c *sessionCap) makeRoom() bool {
	live := map[string]*mcp.ServerSession{}
	for ss := range c.srv.Sessions() {
		if ss.ID() != "" {
			live[ss.ID()] = ss
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, u := range c.use {
		if live[id] == nil && u.active == 0 {
			delete(c.use, id) // ended: closed by the client or timed out
		}
	}
	for len(live) >= c.max {
		victim := c.oldestIdle(live)
		if victim == "" {
			return false
		}
		live[victim].Close()
		delete(live, victim)
		delete(c.use, victim)
	}
	return true
}

// oldestIdle is the live session with no request in flight that was used
// least recently; a session never seen counts as oldest.
func (c *sessionCap) oldestIdle(live map[string]*mcp.ServerSession) string {
	var victim string
	var oldest time.Time
	for id := range live {
		u := c.use[id]
		if u == nil {
			return id
		}
		if u.active == 0 && (victim == "" || u.last.Before(oldest)) {
			victim, oldest = id, u.last
		}
	}
	return victim
}
