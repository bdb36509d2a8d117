package rest

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// CheckBind refuses to serve on a non-loopback address without a token:
// anyone on the network could otherwise read every note.
func CheckBind(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w (use host:port, e.g. 127.0.0.1:8080)", addr, err)
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return fmt.Errorf("the token must not contain spaces or line breaks")
	}
	switch {
	case token == "" && !IsLoopback(host) && host != "" && net.ParseIP(strings.Trim(host, "[]")) == nil:
		// A name may resolve to this machine today and another tomorrow.
		return fmt.Errorf("address %q names a host other than localhost, which may be reachable from other machines: bind to 127.0.0.1 (or localhost), or set a bearer token with --token or MDSEARCH_TOKEN", addr)
	case token == "" && !IsLoopback(host):
		return fmt.Errorf("address %q is reachable from other machines: set a bearer token with --token or MDSEARCH_TOKEN, or bind to 127.0.0.1", addr)
	case !IsLoopback(host) && len(token) < MinTokenLen:
		return fmt.Errorf("address %q is reachable from other machines: the token is %d characters; use at least %d (e.g. `openssl rand -hex 16`)", addr, len(token), MinTokenLen)
	}
	return nil
}

// MinTokenLen is the shortest token a server reachable from other
// machines takes: one that can be guessed guards nothing.
const MinTokenLen = 16

// IsLoopback reports whether host (a name or IP, without port) only ever
// means this machine.
func IsLoopback(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Guard protects h. With a token every request must carry
// "Authorization: Bearer TOKEN" (the scheme in any case, as HTTP allows;
// the token compared in constant time), or, from this machine, the
// server's instance (see ownInstance). Without a token, only requests
// whose Host header names a loopback host pass, so a page on another site
// cannot reach the server through DNS rebinding.
func Guard(token, instance string, h http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" && ownInstance(r, instance) {
			h.ServeHTTP(w, r)
			return
		}
		if token == "" {
			if !IsLoopback(requestHost(r)) {
				writeError(w, http.StatusForbidden, "forbidden", "this server only answers requests for localhost; start it with a token to serve other hosts")
				return
			}
			h.ServeHTTP(w, r)
			return
		}
		scheme, got, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mdsearch"`)
			writeError(w, http.StatusUnauthorized, "unauthorized", "missing or wrong bearer token: send the header Authorization: Bearer TOKEN")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ownInstance reports whether r names the server's instance and comes
// from this machine. The instance is random and written only to the
// rendezvous file, which only the user who runs serve can read: a search
// from that user's command line proves itself with it and never sends the
// token, which a process that took over a dead server's port would read.
func ownInstance(r *http.Request, instance string) bool {
	if instance == "" {
		return false
	}
	got := r.Header.Get(InstanceHeader)
	if subtle.ConstantTimeCompare([]byte(got), []byte(instance)) != 1 {
		return false
	}
	remote, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	return IsLoopback(remote) && IsLoopback(requestHost(r))
}

// requestHost is the host r is addressed to, without a port.
func requestHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		return r.Host
	}
	return host
}
