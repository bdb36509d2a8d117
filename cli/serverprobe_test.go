package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// start runs mdsearch with args until the test ends, and returns its
// stderr and the first match of ready there, waited for within 2 s.
func start(t *testing.T, index string, ready *regexp.Regexp, args ...string) (*testenv.SyncBuffer, []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &testenv.SyncBuffer{}
	env := &Env{Stdin: strings.NewReader(""), Stdout: &testenv.SyncBuffer{}, Stderr: stderr, Getenv: func(k string) string {
		if k == "MDSEARCH_INDEX" {
			return index
		}
		return os.Getenv(k)
	}}
	done := make(chan int, 1)
	go func() { done <- Main(ctx, env, args) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("%v did not stop", args)
		}
	})
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := ready.FindStringSubmatch(stderr.String()); m != nil {
			return stderr, m
		}
		select {
		case code := <-done:
			t.Fatalf("%v exited %d:\n%s", args, code, stderr)
		default:
		}
	}
	t.Fatalf("%v not ready within 2s:\n%s", args, stderr)
	return nil, nil
}

// A server of an index that records no model yet starts at once though
// the embedding server it must ask for the dimension hangs or fails: it
// answers keyword searches, saying why meaning is left out, and says a
// failed probe on stderr.
func TestServersStartBeforeProbe(t *testing.T) {
	t.Setenv("MDSEARCH_HOME", t.TempDir())
	servers := []struct {
		name   string
		answer http.HandlerFunc
		mode   string // a search's, within a few seconds
		notice string // in its notice
		stderr string // on stderr, within a few seconds
	}{
		{"works", nil, "hybrid", "", ""},
		{"hangs", hang, "keyword", "has not answered yet", ""},
		{"no such model", answerWith(404, `{"error":"model \"nomic-embed-text\" not found, try pulling it first"}`),
			"keyword", "not found", "could not learn the dimension"},
	}
	commands := []struct {
		args  []string
		ready string
	}{
		{[]string{"serve", "--addr", "127.0.0.1:0"}, `serving http://(\S+)/`},
		{[]string{"mcp", "--http", "127.0.0.1:0"}, `MCP \(streamable HTTP\) at http://(\S+)/mcp`},
		{[]string{"watch"}, `watching sample-vault`},
	}
	for _, sv := range servers {
		for _, c := range commands {
			t.Run(sv.name+"/"+c.args[0], func(t *testing.T) {
				index := filepath.Join(t.TempDir(), "index.db")
				if code, _, errOut := run(t, index, "index", "../sample-vault", "--embedder", "none"); code != 0 {
					t.Fatalf("index: %d %s", code, errOut)
				}
				s := newOllamaServer(t, 8)
				s.set(sv.answer)
				args := append(append([]string{}, c.args...), "--embedder", "ollama", "--embed-url", s.URL)
				stderr, m := start(t, index, regexp.MustCompile(c.ready), args...)
				if c.args[0] == "serve" {
					searchServed(t, m[1], sv.mode, sv.notice)
				}
				if sv.stderr == "" {
					return
				}
				for deadline := time.Now().Add(5 * time.Second); !strings.Contains(stderr.String(), sv.stderr); time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("stderr lacks %q:\n%s", sv.stderr, stderr)
					}
				}
			})
		}
	}
}

// searchServed searches a serve at addr until it answers in mode with
// notice in its notice, each search within 2 s.
func searchServed(t *testing.T, addr, mode, notice string) {
	t.Helper()
	c := &http.Client{Timeout: 2 * time.Second}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := c.Get("http://" + addr + "/api/v1/semantic-search?q=restore+drill&n=1")
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		var body struct {
			Mode    string           `json:"mode"`
			Notice  string           `json:"notice"`
			Results []map[string]any `json:"results"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || len(body.Results) != 1 {
			t.Fatalf("search: %d %v %+v", resp.StatusCode, err, body)
		}
		if body.Mode == mode && strings.Contains(body.Notice, notice) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("search: mode %s, notice %q; want %s, %q", body.Mode, body.Notice, mode, notice)
		}
	}
}
