package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// apiGet fetches base+target and returns status, Content-Type and body.
func apiDo(t *testing.T, c *http.Client, method, u string, hdr ...string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

type apiResult struct {
	Name          string     `json:"name"`
	Path          string     `json:"path"`
	Snippet       string     `json:"snippet"`
	Distance      *float64   `json:"distance"`
	Section       string     `json:"section"`
	SectionPath   []string   `json:"section_path"`
	ChunkIndex    int        `json:"chunk_index"`
	TotalChunks   int        `json:"total_chunks"`
	PageWordCount int        `json:"page_word_count"`
	Score         float64    `json:"score"`
	Collection    string     `json:"collection"`
	StartLine     int        `json:"start_line"`
	EndLine       int        `json:"end_line"`
	Sections      [][]string `json:"sections"`
	Truncated     bool       `json:"truncated"`
	ReadHint      string     `json:"read_hint"`
	ReadURL       string     `json:"read_url"`
}

type apiSearch struct {
	Query   string      `json:"query"`
	Results []apiResult `json:"results"`
	Total   int         `json:"total"`
}

func TestREST(t *testing.T) {
	f := newFixture(t)
	_, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db)
	base = strings.TrimSuffix(base, "/")
	c := &http.Client{Timeout: 10 * time.Second}

	t.Run("search", func(t *testing.T) {
		code, ctype, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?q=starter+hooch&n=3&max_chunks_per_page=1")
		if code != 200 || ctype != "application/json; charset=utf-8" {
			t.Fatalf("%d %s %s", code, ctype, body)
		}
		for _, field := range []string{"query", "results", "total", "name", "path", "snippet", "distance", "section",
			"section_path", "chunk_index", "total_chunks", "page_word_count", "score", "start_line", "end_line", "collection"} {
			if !strings.Contains(body, `"`+field+`":`) {
				t.Errorf("response lacks %q: %s", field, body)
			}
		}
		var resp apiSearch
		if err := json.Unmarshal([]byte(body), &resp); err != nil {
			t.Fatal(err)
		}
		if resp.Query != "starter hooch" || resp.Total != len(resp.Results) || len(resp.Results) == 0 || len(resp.Results) > 3 {
			t.Fatalf("response %+v", resp)
		}
		r := resp.Results[0]
		// The note's stub introduction merged into Starter Maintenance: the
		// passage is labelled where its text starts and lists both.
		if r.Path != "kitchen/Sourdough.md" || r.Name != "kitchen/Sourdough" || r.Section != "Sourdough" ||
			len(r.Sections) != 2 || strings.Join(r.Sections[1], "/") != "Sourdough/Starter Maintenance" ||
			!strings.HasPrefix(r.Snippet, "[Sourdough] # Sourdough") || !strings.Contains(r.Snippet, "(hooch) forms on top") ||
			r.Collection != f.name || r.PageWordCount == 0 || r.ChunkIndex >= r.TotalChunks {
			t.Errorf("first result %+v", r)
		}
		pages := map[string]int{}
		for _, r := range resp.Results {
			if pages[r.Path]++; pages[r.Path] > 1 {
				t.Errorf("max_chunks_per_page=1 but %s appears twice", r.Path)
			}
			if r.Score < 0 || r.Score >= 1 || resp.Results[0].Score <= 0 {
				t.Errorf("score %v (top %v): want within [0, 1), the top one above 0", r.Score, resp.Results[0].Score)
			}
		}

		// A tag without q lists its notes, unscored.
		if code, _, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?tag=baking"); code != 200 ||
			!strings.Contains(body, `"listing": true`) || !strings.Contains(body, `"path": "kitchen/Sourdough.md"`) {
			t.Errorf("tag alone: %d %s", code, body)
		}
		// offset pages a list; matching counts every note it keeps.
		if code, _, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?path_prefix=kitchen/&n=1&offset=1"); code != 200 ||
			!strings.Contains(body, `"matching": 2`) || !strings.Contains(body, `"offset": 1`) || !strings.Contains(body, `note 2 by path`) {
			t.Errorf("a list's second page: %d %s", code, body)
		}
		if code, _, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?q=hooch&offset=1"); code != 400 || !strings.Contains(body, "offset pages a list of notes") {
			t.Errorf("offset with words: %d %s", code, body)
		}
		// sort alone lists every note, last changed first, each saying when.
		if code, _, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?sort=modified&n=1"); code != 200 ||
			!strings.Contains(body, `"listing": true`) || !strings.Contains(body, `"modified": "20`) || !strings.Contains(body, "last changed first") {
			t.Errorf("sort alone: %d %s", code, body)
		}
		if code, _, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?q=hooch&sort=modified"); code != 400 || !strings.Contains(body, "sort orders a list of notes") {
			t.Errorf("sort with words: %d %s", code, body)
		}

		// max_tokens: the first passage alone does not fit 30 tokens, nor
		// does its first block, so it comes cut inside that block with a
		// hint, and nothing follows.
		code, _, body = apiDo(t, c, "GET", base+"/api/v1/semantic-search?q=starter+hooch&max_tokens=30")
		var cut apiSearch
		if code != 200 || json.Unmarshal([]byte(body), &cut) != nil || len(cut.Results) != 1 {
			t.Fatalf("max_tokens=30: %d %s", code, body)
		}
		if c := cut.Results[0]; !c.Truncated || !strings.Contains(c.ReadHint, "kitchen/Sourdough.md") ||
			c.EndLine < c.StartLine || len(strings.Fields(c.Snippet)) > 60 {
			t.Errorf("max_tokens=30: %+v", c)
		}
		// read_url reads the rest: the lines the hint names, from the line
		// of the cut (the cut is inside it).
		c0 := cut.Results[0]
		_, lines, _ := strings.Cut(c0.ReadURL, "?lines=")
		from, _, _ := strings.Cut(lines, "-")
		code, _, body = apiDo(t, c, "GET", base+c0.ReadURL)
		var rest struct {
			StartLine int    `json:"start_line"`
			Content   string `json:"content"`
		}
		if !strings.HasPrefix(c0.ReadURL, "/api/v1/notes/"+f.name+":kitchen/Sourdough.md?lines=") || !strings.HasSuffix(c0.ReadHint, ", lines "+lines) ||
			code != 200 || json.Unmarshal([]byte(body), &rest) != nil || from != strconv.Itoa(c0.EndLine) || rest.StartLine != c0.EndLine ||
			!strings.Contains(rest.Content, "## Starter Maintenance") {
			t.Errorf("read_url %q (read_hint %q): %d %s", c0.ReadURL, c0.ReadHint, code, body)
		}
	})

	t.Run("validation", func(t *testing.T) {
		for _, q := range []string{"", "n=3", "q=", "q=x&n=0", "q=x&n=51", "q=x&n=abc", "q=x&n=-1",
			"q=x&max_chunks_per_page=-1", "q=x&max_chunks_per_page=6", "q=x&mode=magic", "q=x&sort=date", "q=x&q=y", "q=x&n=5&n=6"} {
			code, ctype, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?"+q)
			var e struct{ Error string }
			if code != 400 || !strings.HasPrefix(ctype, "application/json") || json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
				t.Errorf("?%s: %d %s %s", q, code, ctype, body)
			}
		}
		// Hostile queries are fine: the engine parses anything.
		for _, q := range []string{`"unbalanced`, "AND OR NOT", "*", "sourdough) (", "NEAR(a b)", "col:umn", "🍞"} {
			if code, _, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?q="+url.QueryEscape(q)); code != 200 {
				t.Errorf("q=%s: %d %s", q, code, body)
			}
		}
	})

	t.Run("notes", func(t *testing.T) {
		u := base + "/api/v1/notes/kitchen/Sourdough.md?section=" + url.QueryEscape("Sourdough/Starter Maintenance")
		code, ctype, body := apiDo(t, c, "GET", u)
		var note struct {
			Path, Content string
			SectionPath   []string `json:"section_path"`
		}
		if code != 200 || !strings.HasPrefix(ctype, "application/json") || json.Unmarshal([]byte(body), &note) != nil ||
			!strings.HasPrefix(note.Content, "## Starter Maintenance") || strings.Contains(note.Content, "Bulk Fermentation") {
			t.Errorf("section as JSON: %d %s %s", code, ctype, body)
		}
		code, ctype, body = apiDo(t, c, "GET", u, "Accept", "text/markdown")
		if code != 200 || !strings.HasPrefix(ctype, "text/markdown") || !strings.HasPrefix(body, "## Starter Maintenance") {
			t.Errorf("section as markdown: %d %s %.80s", code, ctype, body)
		}
		code, _, body = apiDo(t, c, "GET", base+"/api/v1/notes/kitchen/Knife%20Care.md", "Accept", "text/markdown")
		if code != 200 || !strings.Contains(body, "## Whetstone Grits") {
			t.Errorf("whole note: %d %.80s", code, body)
		}
		code, _, body = apiDo(t, c, "GET", base+"/api/v1/notes/kitchen/Sourdough.md?section=Croissants")
		if code != 404 || !strings.Contains(body, "Bulk Fermentation") {
			t.Errorf("missed section: %d %s", code, body)
		}
		if code, _, body = apiDo(t, c, "GET", base+"/api/v1/notes/kitchen/Nope.md"); code != 404 {
			t.Errorf("missing note: %d %s", code, body)
		}
		if code, _, body = apiDo(t, c, "GET", base+"/api/v1/outline/kitchen/Sourdough.md"); code != 200 || !strings.Contains(body, `"Rye Starter"`) {
			t.Errorf("outline: %d %s", code, body)
		}
	})

	t.Run("traversal", func(t *testing.T) {
		for _, p := range []string{
			"../../etc/passwd",
			"%2e%2e%2f%2e%2e%2fetc%2fpasswd",
			"%2E%2E/%2E%2E/etc/passwd",
			"..%2f..%2f..%2f..%2fetc%2fpasswd",
			"kitchen/..%2f..%2f..%2fetc%2fpasswd",
			"%252e%252e%252f%252e%252e%252fetc%252fpasswd",
			"%2fetc%2fpasswd",
			f.name + ":..%2f..%2f..%2fetc%2fpasswd",
			"..%5c..%5cetc%5cpasswd",
		} {
			code, _, body := rawGet(t, base, "/api/v1/notes/"+p)
			if strings.Contains(body, "root:") || (code != 403 && code != 404 && code != 400) {
				t.Errorf("%s: %d %.200s", p, code, body)
			}
			if strings.Contains(p, "..") && !strings.Contains(p, "%25") && code != 403 {
				t.Errorf("%s: %d, want 403 (%s)", p, code, body)
			}
		}
	})

	t.Run("status and reindex", func(t *testing.T) {
		code, _, body := apiDo(t, c, "GET", base+"/api/v1/status")
		if code != 200 || !strings.Contains(body, `"collections"`) || !strings.Contains(body, `"name": "`+f.name+`"`) {
			t.Fatalf("status: %d %s", code, body)
		}
		code, _, body = apiDo(t, c, "POST", base+"/api/v1/reindex?full=1")
		if code != 202 {
			t.Fatalf("reindex: %d %s", code, body)
		}
		// A second request while the first runs is refused; a tiny vault
		// may already be done, then it starts again.
		if code, _, body = apiDo(t, c, "POST", base+"/api/v1/reindex"); code != 409 && code != 202 {
			t.Errorf("second reindex: %d %s", code, body)
		}
		eventually(t, 20*time.Second, "reindex to finish", func() (bool, string) {
			_, _, body := apiDo(t, c, "GET", base+"/api/v1/status")
			var st struct {
				Reindex *struct {
					Running bool
					Error   string
					Stats   []json.RawMessage
				}
			}
			_ = json.Unmarshal([]byte(body), &st)
			return st.Reindex != nil && !st.Reindex.Running && st.Reindex.Error == "" && len(st.Reindex.Stats) == 1, body
		})
		if code, _, body = apiDo(t, c, "GET", base+"/api/v1/semantic-search?q=hooch"); code != 200 || !strings.Contains(body, "Sourdough") {
			t.Errorf("search after reindex: %d %s", code, body)
		}
	})

	t.Run("live index", func(t *testing.T) {
		note := filepath.Join(f.vault, "homelab", "Network.md")
		writeNote(t, note, "# Network\n\n## VLANs\n\nThe quixotic switch carries three VLANs.\n")
		took := eventually(t, 2*time.Second, "edit found", func() (bool, string) {
			_, _, body := apiDo(t, c, "GET", base+"/api/v1/semantic-search?q=quixotic&mode=keyword")
			return strings.Contains(body, `"path": "homelab/Network.md"`), body
		})
		t.Logf("edit searchable after %v", took)
	})

	t.Run("methods and limits", func(t *testing.T) {
		if code, _, _ := apiDo(t, c, "DELETE", base+"/api/v1/status"); code < 400 {
			t.Errorf("DELETE status: %d", code)
		}
		req, _ := http.NewRequest("GET", base+"/api/v1/status", nil)
		// Headers have room for every parameter at its limit (256 KB), no more.
		req.Header.Set("X-Big", strings.Repeat("a", 512<<10))
		if resp, err := c.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode != 431 {
				t.Errorf("512 KB header: %d", resp.StatusCode)
			}
		}
	})
}

// rawGet sends a request line exactly as given, so no client library
// cleans or re-encodes the path.
func rawGet(t *testing.T, base, path string) (int, string, string) {
	t.Helper()
	u, _ := url.Parse(base)
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, u.Host)
	resp, err := http.ReadResponse(bufioReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

// TestRESTLoad runs 100 concurrent clients against one server for 10 s;
// every request must succeed.
func TestRESTLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("10 s load test; skipped with -short")
	}
	f := newFixture(t)
	_, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch")
	base = strings.TrimSuffix(base, "/")
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 100, MaxConnsPerHost: 100}}
	targets := []string{
		"/api/v1/semantic-search?q=starter+hooch",
		"/api/v1/semantic-search?q=backup+restore&n=10&max_chunks_per_page=3",
		"/api/v1/semantic-search?q=whetstone&mode=keyword",
		"/api/v1/notes/kitchen/Sourdough.md?section=Starter+Maintenance",
		"/api/v1/status",
	}
	var ok, failed atomic.Int64
	var firstErr sync.Once
	deadline := time.Now().Add(10 * time.Second)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := i; time.Now().Before(deadline); j++ {
				resp, err := c.Get(base + targets[j%len(targets)])
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != 200 {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				if err != nil {
					failed.Add(1)
					firstErr.Do(func() { t.Errorf("%s: %v", targets[j%len(targets)], err) })
					continue
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("100 clients, 10 s: %d requests (%.0f/s), %d errors", ok.Load(), float64(ok.Load())/10, failed.Load())
	if failed.Load() != 0 || ok.Load() < 100 {
		t.Errorf("%d ok, %d failed", ok.Load(), failed.Load())
	}
}

// TestServeRefusesOpenBind: a non-loopback address needs a token.
func TestServeRefusesOpenBind(t *testing.T) {
	cmd := exec.Command(bin, "serve", "--addr", "0.0.0.0:0", "--index", filepath.Join(t.TempDir(), "none.db"))
	cmd.Env = append(os.Environ(), "MDSEARCH_TOKEN=")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "token") {
		t.Errorf("serve on 0.0.0.0 without a token: err=%v %s", err, out)
	}
}

// TestServeToken: with a token (here from MDSEARCH_TOKEN) every API request
// needs it; the page itself, which holds no notes, does not.
func TestServeToken(t *testing.T) {
	f := newFixture(t)
	t.Setenv("MDSEARCH_TOKEN", "e2e-secret-token")
	_, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch")
	base = strings.TrimSuffix(base, "/")
	c := &http.Client{Timeout: 10 * time.Second}
	u := base + "/api/v1/semantic-search?q=hooch"
	for _, tc := range []struct {
		auth string
		code int
	}{{"", 401}, {"Bearer wrong", 401}, {"e2e-secret-token", 401}, {"Bearer e2e-secret-token", 200}} {
		if code, _, body := apiDo(t, c, "GET", u, "Authorization", tc.auth); code != tc.code {
			t.Errorf("Authorization %q: %d %s", tc.auth, code, body)
		}
	}
	if code, _, _ := apiDo(t, c, "GET", base+"/"); code != 200 {
		t.Errorf("page: %d", code)
	}
}

// TestServeNamesIndex: a notice over REST that tells the reader to run
// a command names the index the server was started with, as the command
// line's own notices do; pasted as it was, it would update the default
// index instead.
func TestServeNamesIndex(t *testing.T) {
	f := newFixture(t)
	_, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch")
	base = strings.TrimSuffix(base, "/")
	note := filepath.Join(f.vault, "kitchen", "Sourdough.md")
	data, err := os.ReadFile(note)
	if err != nil {
		t.Fatal(err)
	}
	writeNote(t, note, string(data)+"\nA line added since the index run.\n")
	c := &http.Client{Timeout: 10 * time.Second}
	code, _, body := apiDo(t, c, "GET", base+"/api/v1/notes/kitchen/Sourdough.md")
	if want := "`mdsearch index --index " + f.db + "`"; code != 200 || !strings.Contains(body, want) {
		t.Errorf("a stale note's notice: %d %s, want %s in it", code, body, want)
	}
}
