package mcpserver

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	pingBody = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
)

// post sends one JSON-RPC message over real HTTP and returns the status
// and the session ID the server set, if any.
func post(t *testing.T, url, body string, hdr ...string) (int, string) {
	t.Helper()
	code, id, err := send(url, body, hdr...)
	if err != nil {
		t.Fatal(err)
	}
	return code, id
}

// send is post for other goroutines than the test's.
func send(url, body string, hdr ...string) (int, string, error) {
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get(sessionHeader), nil
}

// TestHTTPRefusesForeignOrigins: a web page of another origin must not be
// able to drive the MCP server through the user's browser.
func TestHTTPRefusesForeignOrigins(t *testing.T) {
	srv := httptest.NewServer(HTTPHandler(New(&fake{}, Options{})))
	defer srv.Close()
	cases := []struct {
		name string
		hdr  []string
		want int
	}{
		{"no Origin (a program)", nil, http.StatusOK},
		{"same origin", []string{"Origin", srv.URL}, http.StatusOK},
		{"foreign Origin", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"foreign Origin on loopback", []string{"Origin", "http://localhost:9999"}, http.StatusForbidden},
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code, _ := post(t, srv.URL+"/mcp", initBody, c.hdr...); code != c.want {
				t.Errorf("initialize: %d, want %d", code, c.want)
			}
		})
	}
}

// TestHTTPCapsSessions: a client that opens sessions in a loop cannot grow
// the server past DefaultMaxSessions; the least recently used idle
// sessions close first, and a session in use survives.
func TestHTTPCapsSessions(t *testing.T) {
	s := New(&fake{}, Options{})
	srv := httptest.NewServer(HTTPHandler(s))
	defer srv.Close()
	url := srv.URL + "/mcp"
	ping := func(id string) int {
		code, _ := post(t, url, pingBody, sessionHeader, id, "Mcp-Protocol-Version", "2025-06-18")
		return code
	}
	var ids []string
	for i := range DefaultMaxSessions + 50 {
		code, id := post(t, url, initBody)
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize %d: %d, session %q", i, code, id)
		}
		ids = append(ids, id)
		if i%10 == 0 && ping(ids[0]) != http.StatusOK { // keep the first session in use
			t.Fatalf("the session in use was closed after %d others opened", i)
		}
	}
	n := 0
	for range s.Sessions() {
		n++
	}
	if n > DefaultMaxSessions {
		t.Errorf("%d sessions open, cap %d", n, DefaultMaxSessions)
	}
	if code := ping(ids[1]); code != http.StatusNotFound {
		t.Errorf("the least recently used session answered %d, want 404 (closed)", code)
	}
	if code := ping(ids[len(ids)-1]); code != http.StatusOK {
		t.Errorf("the newest session answered %d", code)
	}
}

// TestHTTPIdleStreamsLockNoOneOut: a client that holds an event stream
// open on every session it may have does not keep new sessions out (they
// were refused with 503, every session counted busy); the least recently
// used session closes, its stream with it.
func TestHTTPIdleStreamsLockNoOneOut(t *testing.T) {
	const max = 5
	srv := httptest.NewServer(NewHTTPHandler(New(&fake{}, Options{}), HTTPOptions{MaxSessions: max}))
	defer srv.Close()
	url := srv.URL + "/mcp"
	var streams []*http.Response
	for i := range max {
		code, id := post(t, url, initBody)
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize %d: %d", i, code)
		}
		post(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, sessionHeader, id, "Mcp-Protocol-Version", "2025-06-18")
		streams = append(streams, openStream(t, url, id))
	}
	defer func() {
		for _, s := range streams {
			s.Body.Close()
		}
	}()
	for i := range 3 {
		if code, id := post(t, url, initBody); code != http.StatusOK || id == "" {
			t.Fatalf("initialize %d with %d idle streams open: %d", i, max, code)
		}
	}
	// The oldest stream's session closed: its stream ends.
	done := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, streams[0].Body); done <- err }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Errorf("the least recently used session's stream is still open")
	}
}

// TestHTTPStalledInitializeHoldsNoOneUp: a client that starts an
// initialize and never finishes its body neither holds other clients'
// initializes up (they waited for the server's read timeout, 15 s) nor
// takes a place under the cap.
func TestHTTPStalledInitializeHoldsNoOneUp(t *testing.T) {
	const max = 2
	srv := httptest.NewServer(NewHTTPHandler(New(&fake{}, Options{}), HTTPOptions{MaxSessions: max}))
	defer srv.Close()
	url := srv.URL + "/mcp"
	for range max + 1 {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close() // before srv.Close, which waits for its request
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{", srv.Listener.Addr())
	}
	time.Sleep(100 * time.Millisecond) // the stalled requests reach the handler
	done := make(chan [max]string, 1)
	go func() {
		var ids [max]string
		for i := range ids {
			_, ids[i], _ = send(url, initBody)
		}
		done <- ids
	}()
	select {
	case ids := <-done:
		for i, id := range ids {
			if id == "" {
				t.Fatalf("initialize %d beside stalled ones opened no session", i)
			}
		}
		// Both fit under the cap: the first was not closed for the second.
		if code, _ := post(t, url, pingBody, sessionHeader, ids[0], "Mcp-Protocol-Version", "2025-06-18"); code != http.StatusOK {
			t.Errorf("the first session answered %d beside stalled initializes", code)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("an initialize waited over 2 s for a stalled one")
	}
}

// TestHTTPCapHoldsUnderConcurrentInitializes: initializes sent at once
// open no more sessions than the cap, at any moment.
func TestHTTPCapHoldsUnderConcurrentInitializes(t *testing.T) {
	const max, clients = 5, 100
	s := New(&fake{}, Options{})
	srv := httptest.NewServer(NewHTTPHandler(s, HTTPOptions{MaxSessions: max}))
	defer srv.Close()
	count := func() (n int) {
		for range s.Sessions() {
			n++
		}
		return n
	}
	stop, peak := make(chan struct{}), make(chan int)
	go func() {
		most := 0
		for {
			select {
			case <-stop:
				peak <- most
				return
			default:
				most = mostOf(most, count())
			}
		}
	}()
	var wg sync.WaitGroup
	codes, start := make([]int, clients), make(chan struct{})
	for i := range clients {
		wg.Go(func() {
			<-start
			codes[i], _, _ = send(srv.URL+"/mcp", initBody)
		})
	}
	close(start)
	wg.Wait()
	close(stop)
	if most := <-peak; most > max {
		t.Errorf("%d sessions open at once, cap %d", most, max)
	}
	ok := 0
	for i, code := range codes {
		switch code {
		case http.StatusOK:
			ok++
		case http.StatusServiceUnavailable: // all places busy opening sessions
		default:
			t.Errorf("initialize %d: %d", i, code)
		}
	}
	if ok == 0 {
		t.Error("no initialize succeeded")
	}
	if n := count(); n > max {
		t.Errorf("%d sessions open after, cap %d", n, max)
	}
}

func mostOf(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// TestHTTPBodyOverLimit: a body over the limit is refused before it can
// open a session.
func TestHTTPBodyOverLimit(t *testing.T) {
	srv := httptest.NewServer(HTTPHandler(New(&fake{}, Options{})))
	defer srv.Close()
	if code, id := post(t, srv.URL+"/mcp", initBody+strings.Repeat(" ", maxBodyBytes)); code != http.StatusRequestEntityTooLarge || id != "" {
		t.Errorf("a body over %d bytes: %d, session %q", maxBodyBytes, code, id)
	}
}

// openStream opens session id's event stream, as an MCP client does to
// hear from the server, and returns it open.
func openStream(t *testing.T, url, id string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(sessionHeader, id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("event stream: %d", resp.StatusCode)
	}
	return resp
}

// TestMadeUpSessionIDsAreNotTracked: a client that sends session IDs the
// server never issued cannot grow the table of sessions it keeps.
func TestMadeUpSessionIDsAreNotTracked(t *testing.T) {
	c := &sessionCap{h: http.NotFoundHandler(), max: 2, use: map[string]*sessionUse{}}
	for i := range 100 {
		r := httptest.NewRequest("POST", "/", strings.NewReader(pingBody))
		r.Header.Set(sessionHeader, "made-up-"+strconv.Itoa(i))
		c.ServeHTTP(httptest.NewRecorder(), r)
	}
	if len(c.use) != 0 {
		t.Errorf("%d made-up sessions tracked", len(c.use))
	}
}

// TestHTTPBrowserGet: a GET that is not an MCP client's event stream (a
// browser given the address) is told what the address is for.
func TestHTTPBrowserGet(t *testing.T) {
	srv := httptest.NewServer(HTTPHandler(New(&fake{}, Options{})))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "MCP client") || !strings.Contains(string(body), "mdsearch serve") {
		t.Errorf("GET: %d %q", resp.StatusCode, body)
	}
	// An MCP client's GET (an event stream) still reaches the transport.
	req, _ := http.NewRequest("GET", srv.URL+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(body), "mdsearch serve") {
		t.Errorf("event-stream GET answered as a browser's: %q", body)
	}
}
