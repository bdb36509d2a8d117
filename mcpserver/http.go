package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
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
	maxBodyBytes       = 1 << 20 // a request's body, as the transport reads it
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
			MaxRequestBodyBytes: maxBodyBytes,
		})
	capped := &sessionCap{srv: srv, h: h, max: opts.MaxSessions, use: map[string]*sessionUse{}}
	return http.NewCrossOriginProtection().Handler(capped)
}

const sessionHeader = "Mcp-Session-Id"

// sessionCap keeps at most max sessions open: before a request that may
// open one (it carries no session ID), it closes the least recently used
// session that has no request in flight (an open event stream is not one),
// or refuses when all are busy. Such a request counts against the cap
// until it ends, so initializes at once cannot overshoot it; none holds a
// lock while the transport serves it, so a slow client holds up no other.
type sessionCap struct {
	srv *mcp.Server
	h   http.Handler
	max int

	mu      sync.Mutex
	use     map[string]*sessionUse // by session ID
	opening int                    // requests that may open a session, in flight
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
		c.touch(id, 0)
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
	// The whole body first: a client that sends it slowly, or never,
	// must not hold a place under the cap (the transport opens the session
	// before it reads the body) while it does.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
		} else {
			http.Error(w, "failed to read body", http.StatusBadRequest)
		}
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if !c.makeRoom() {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "too many MCP sessions are busy; try again shortly", http.StatusServiceUnavailable)
		return
	}
	defer func() { c.opened(w.Header().Get(sessionHeader)) }()
	c.h.ServeHTTP(w, r)
}

// opened ends a request counted by makeRoom, tracking the session it
// opened, if any, in the same step, so no other makeRoom sees the
// session untracked with the request no longer counted.
func (c *sessionCap) opened(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opening--
	if id != "" && c.use[id] == nil {
		c.use[id] = &sessionUse{last: time.Now()}
	}
}

// touch records a use of session id; delta counts requests in flight.
// Only opened adds a session: an ID a client made up is not tracked, so it
// cannot grow the table. It reports whether the session is tracked.
func (c *sessionCap) touch(id string, delta int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.use[id]
	if u == nil {
		return false
	}
	u.last = time.Now()
	u.active += delta
	return true
}

// makeRoom closes sessions until a new one fits under the cap, and counts
// the request that may open it until opened. It reports false when every
// open session has a request in flight. A session that a request in flight
// opened counts twice until the request ends: the cap errs low.
func (c *sessionCap) makeRoom() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Listed under mu, so a session that appears meanwhile is one a
	// request counted in opening adds.
	live := map[string]*mcp.ServerSession{}
	for ss := range c.srv.Sessions() {
		if ss.ID() != "" {
			live[ss.ID()] = ss
		}
	}
	for id, u := range c.use {
		if live[id] == nil && u.active == 0 {
			delete(c.use, id) // ended: closed by the client or timed out
		}
	}
	for len(live)+c.opening >= c.max {
		victim := c.oldestIdle(live)
		if victim == "" {
			return false
		}
		live[victim].Close()
		delete(live, victim)
		delete(c.use, victim)
	}
	c.opening++
	return true
}

// oldestIdle is the live session with no request in flight that was used
// least recently. A session never seen counts as oldest, unless a request
// that may open a session is in flight: it may be that one's.
func (c *sessionCap) oldestIdle(live map[string]*mcp.ServerSession) string {
	var victim string
	var oldest time.Time
	for id := range live {
		u := c.use[id]
		if u == nil {
			if c.opening == 0 {
				return id
			}
			continue
		}
		if u.active == 0 && (victim == "" || u.last.Before(oldest)) {
			victim, oldest = id, u.last
		}
	}
	return victim
}
