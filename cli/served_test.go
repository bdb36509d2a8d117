package cli

import (
	"encoding/json"
	"flag"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // the zones TestSettingsKeyZone loads, on any machine

	"github.com/mdsearch/mdsearch/rest"
)

// fakeServe answers the REST search as a serve process would, with one
// result no index holds, and records the queries it was asked.
type fakeServe struct {
	*httptest.Server
	mu    sync.Mutex
	asked []url.Values
}

func newFakeServe(t *testing.T, instance string, status int) *fakeServe {
	f := &fakeServe{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.asked = append(f.asked, r.URL.Query())
		f.mu.Unlock()
		// The token never goes to a port named in a file: the instance
		// proves the search to a serve that wants a token.
		if r.URL.Path != "/api/v1/semantic-search" || r.Header.Get(rest.InstanceHeader) != instance ||
			r.Header.Get("Authorization") != "" {
			http.Error(w, "wrong request", http.StatusBadRequest)
			return
		}
		if status != http.StatusOK {
			http.Error(w, "no", status)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"query": r.URL.Query().Get("q"), "mode": "hybrid",
			"results": []map[string]any{{"name": "served/Answer", "snippet": "[Answer] it", "path": "served/Answer.md",
				"title": "Answer", "text": "The served answer.", "score": 0.9, "chunk_index": 0, "total_chunks": 1}}})
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServe) calls() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.asked)
}

// searchSettings is settingsKey as the search command computes it.
func searchSettings(env *Env) string {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	ef := addSearchFlags(fs)
	ef.reranker = addRerankerFlags(fs)
	return settingsKey(env, ef)
}

// TestServedSearch: a search asks the serve process its
// rendezvous names, with the request as typed, and searches itself
// whenever anything about that server is in doubt.
func TestServedSearch(t *testing.T) {
	const instance = "0123abcd"
	reranking := map[string]string{"MDSEARCH_RERANKER": "http://127.0.0.1:9/v1/rerank"}
	index := filepath.Join(t.TempDir(), "index.db")
	for _, tc := range []struct {
		name    string
		edit    func(rv *rendezvous)
		env     map[string]string
		args    []string
		status  int
		asked   bool
		answers bool   // the served answer is shown
		notice  string // on stderr
		code    int    // the exit code, where a search is refused
		perNote string // max_per_page as asked of the server: none for the default cap
	}{
		{name: "asked", asked: true, answers: true},
		{name: "a cap asked for", args: []string{"--max-per-page", "2"}, asked: true, answers: true, perNote: "2"},
		{name: "semantic", args: []string{"--mode", "semantic"}, asked: true, answers: true},
		{name: "keyword", args: []string{"--mode", "keyword"}, asked: true, answers: true},
		{name: "other settings", edit: func(rv *rendezvous) { rv.Settings = "another embedder" }},
		{name: "other build", edit: func(rv *rendezvous) { rv.Build = "v0.0.1" }, notice: "runs another build (v0.0.1) than this command ("},
		{name: "other index", edit: func(rv *rendezvous) { rv.Index += "2" }},
		{name: "server gone", edit: func(rv *rendezvous) { rv.PID = 1 << 30 }},
		{name: "not this machine", edit: func(rv *rendezvous) { rv.URL = "http://192.0.2.1:9" }},
		{name: "another server on the port", edit: func(rv *rendezvous) { rv.Instance = "feed" }, asked: true},
		{name: "server error", status: http.StatusServiceUnavailable, asked: true},
		{name: "turned off", env: map[string]string{"MDSEARCH_NO_SERVE": "1"}},
		{name: "token set", env: map[string]string{"MDSEARCH_TOKEN": "0123456789abcdef"}, asked: true, answers: true},
		// The serve reranks with MDSEARCH_RERANKER's defaults: a search that
		// would wait another time, or read another scale, answers itself.
		{name: "the reranker's settings", env: reranking, args: []string{"--reranker-timeout", "10s", "--reranker-scores", "auto"},
			asked: true, answers: true},
		{name: "another reranker timeout", env: reranking, args: []string{"--reranker-timeout", "1ms"}},
		{name: "another reranker scale", env: reranking, args: []string{"--reranker-scores", "logits"}},
		// A bad setting the serve would not read is refused all the same.
		{name: "a bad reranker setting", args: []string{"--reranker-scores", "bogus"}, code: 2},
		{name: "bad threads", args: []string{"--threads", "-3"}, code: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{"MDSEARCH_HOME": home, "MDSEARCH_INDEX": index,
				"MDSEARCH_MODEL_DIR": filepath.Join(home, "missing"), "MDSEARCH_ORT_LIB": filepath.Join(home, "missing.so")}
			for k, v := range tc.env {
				env[k] = v
			}
			e := &Env{Getenv: func(k string) string { return env[k] }}
			status := cmp(tc.status, http.StatusOK)
			srv := newFakeServe(t, instance, status)
			rv := rendezvous{PID: os.Getpid(), URL: srv.URL, Index: index, Build: sameCode(), Settings: searchSettings(e), Instance: instance}
			if tc.edit != nil {
				tc.edit(&rv)
			}
			putRendezvous(t, rendezvousPath(e, index), rv)
			args := append([]string{"search", "how long did the restore take", "--tag", "ops", "--where", "status=done",
				"--exclude", "a.md", "-n", "3"}, tc.args...)
			code, out, errOut := runEnv(env, "", args...)
			if tc.code != 0 && code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			calls := srv.calls()
			if got := len(calls) > 0; got != tc.asked {
				t.Fatalf("asked the server: %v, want %v (%d %s%s)", got, tc.asked, code, out, errOut)
			}
			if tc.notice != "" && !strings.Contains(errOut, tc.notice) {
				t.Errorf("stderr lacks %q:\n%s", tc.notice, errOut)
			}
			if got := strings.Contains(out, "served/Answer.md"); got != tc.answers {
				t.Fatalf("shows the served answer: %v, want %v:\n%s%s", got, tc.answers, out, errOut)
			}
			if tc.answers {
				q := calls[0]
				if code != 0 || q.Get("q") != "how long did the restore take" || q.Get("n") != "3" || q.Get("tag") != "ops" ||
					q.Get("where") != "status=done" || q.Get("exclude") != "a.md" || q.Get("max_per_page") != tc.perNote {
					t.Errorf("asked %v (exit %d)", q, code)
				}
			}
		})
	}
}

func cmp(v, fallback int) int {
	if v == 0 {
		return fallback
	}
	return v
}

func putRendezvous(t *testing.T, file string, rv rendezvous) {
	t.Helper()
	b, _ := json.Marshal(rv)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAnnounce: serve's rendezvous names a loopback URL, and its removal
// leaves alone a rendezvous another server wrote since.
func TestAnnounce(t *testing.T) {
	home := t.TempDir()
	env := &Env{Getenv: func(k string) string {
		if k == "MDSEARCH_HOME" {
			return home
		}
		return ""
	}}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	ef := addEngineFlags(fs)
	ef.reranker = addRerankerFlags(fs)
	const index = "/vault/index.db"
	file := rendezvousPath(env, index)
	remove := announce(env, ef, index, "first", &net.TCPAddr{IP: net.IPv4zero, Port: 8080})
	rv, err := readRendezvous(file)
	if err != nil || rv.URL != "http://127.0.0.1:8080" || rv.Instance != "first" || rv.PID != os.Getpid() || rv.Index != index {
		t.Fatalf("rendezvous %+v, %v", rv, err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("rendezvous mode %v, %v: others may not read it", fi.Mode(), err)
	}
	announce(env, ef, index, "second", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9090})
	remove() // the first server stops after the second started
	if rv, err := readRendezvous(file); err != nil || rv.Instance != "second" {
		t.Fatalf("the second server's rendezvous: %+v, %v", rv, err)
	}
	// A second server stopping while the first runs leaves the first
	// announced; one whose process is gone is not.
	removeB := announce(env, ef, index, "b", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9191})
	removeB()
	if rv, err := readRendezvous(file); err != nil || rv.Instance != "second" {
		t.Errorf("after a later server stopped: %+v, %v; want the second server's", rv, err)
	}
	gone := rendezvous{PID: 1 << 30, URL: "http://127.0.0.1:9292", Index: index, Instance: "gone"}
	writeRendezvous(file, gone)
	announce(env, ef, index, "c", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9393})()
	if _, err := os.Stat(file); err == nil {
		t.Error("a stopped server's rendezvous was put back")
	}
	v6 := rendezvousPath(env, "/v6.db")
	announce(env, ef, "/v6.db", "fourth", &net.TCPAddr{IP: net.IPv6loopback, Port: 8081})
	if rv, err := readRendezvous(v6); err != nil || rv.URL != "http://[::1]:8081" {
		t.Errorf("IPv6 loopback server: %+v, %v", rv, err)
	}
	// A server on another interface leaves none: search asks loopback only.
	other := rendezvousPath(env, "/other.db")
	announce(env, ef, "/other.db", "third", &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 80})
	if _, err := os.Stat(other); err == nil {
		t.Error("a rendezvous for a server not on loopback")
	}
	entries, _ := os.ReadDir(filepath.Dir(file))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestStatusNamesServe: status says which running serve answers searches
// of the index, and says nothing of one that has stopped.
func TestStatusNamesServe(t *testing.T) {
	noModel(t)
	home := t.TempDir()
	index := filepath.Join(t.TempDir(), "index.db")
	env := map[string]string{"MDSEARCH_HOME": home, "MDSEARCH_INDEX": index}
	if code, _, errOut := runEnv(env, "", "index", "../sample-vault", "--embedder", "none"); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	e := &Env{Getenv: func(k string) string { return env[k] }}
	real, _ := filepath.EvalSymlinks(index)
	for _, tc := range []struct {
		pid   int
		build string
		want  string // "" for no line
	}{
		{os.Getpid(), sameCode(), "; a search with its settings asks it"},
		{os.Getpid(), "v0.0.1", " of another build (v0.0.1); searches run here"},
		{1 << 30, sameCode(), ""},
	} {
		putRendezvous(t, rendezvousPath(e, real), rendezvous{PID: tc.pid, URL: "http://127.0.0.1:8080", Index: real, Build: tc.build})
		code, out, errOut := runEnv(env, "", "status")
		if code != 0 {
			t.Fatalf("status: %s", errOut)
		}
		if got := strings.Contains(out, "served: http://127.0.0.1:8080 by serve"); got != (tc.want != "") || !strings.Contains(out, tc.want) {
			t.Errorf("pid %d, build %s: %s\nwant a line holding %q", tc.pid, tc.build, out, tc.want)
		}
	}
}

// A search's days are the time zone's ([due:<today], file.mtime): a
// serve in another zone would answer another question.
func TestSettingsKeyZone(t *testing.T) {
	defer func(loc *time.Location) { time.Local = loc }(time.Local)
	e := &Env{Getenv: func(string) string { return "" }}
	time.Local = time.UTC
	utc := searchSettings(e)
	time.Local = time.FixedZone("IST", 5*3600+1800)
	if searchSettings(e) == utc {
		t.Error("the settings key is the same in UTC and at +05:30")
	}
	// Zones that agree in winter but not in summer are two.
	london, err1 := time.LoadLocation("Europe/London")
	abidjan, err2 := time.LoadLocation("Africa/Abidjan")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2) // time/tzdata is linked in
	}
	time.Local = london
	inLondon := searchSettings(e)
	time.Local = abidjan
	if searchSettings(e) == inLondon {
		t.Error("the settings key is the same in London and Abidjan")
	}
}
