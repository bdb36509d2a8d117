package e2e

import (
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// loadQueries are hybrid queries over the Obsidian help vault.
var loadQueries = []string{
	"how do I link to a heading", "embed an image in a note", "sync between devices",
	"create a new vault", "keyboard shortcuts for search", "graph view filters",
	"daily notes template", "publish a site", "canvas cards", "backlinks panel",
	"tags in frontmatter", "callouts syntax", "community plugins", "workspace layout",
	"file recovery snapshots", "search operators", "outline of headings", "bookmarks",
	"format tables in markdown", "math with LaTeX",
}

// BenchmarkRESTLoad drives `mdsearch serve` on 127.0.0.1 with 200
// concurrent clients, 10 hybrid searches each (2,000 requests, each with
// a 30 s timeout), and reports latency percentiles and throughput. It
// needs the model and the shared Obsidian help corpus:
//
//	go test -run '^$' -bench RESTLoad -benchtime 1x ./internal/e2e
func BenchmarkRESTLoad(b *testing.B) {
	const clients, each = 200, 10
	vault := filepath.Join("..", "..", "..", "shared", "corpora", "obsidian-help", "en")
	if _, err := os.Stat(vault); err != nil {
		b.Skipf("corpus absent: %v", err)
	}
	if out, err := exec.Command(bin, "embed", "probe").CombinedOutput(); err != nil {
		b.Skipf("model absent: %v %s", err, out)
	}
	db := filepath.Join(b.TempDir(), "index.db")
	if out, err := exec.Command(bin, "index", vault, "--index", db).CombinedOutput(); err != nil {
		b.Fatalf("index: %v\n%s", err, out)
	}
	p := startCmd(b, "http://", exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--index", db, "--no-watch"))
	base := urlRE.FindString(p.readyLine) + "api/v1/semantic-search?n=5&q="
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	get := func(q string) (time.Duration, bool) {
		start := time.Now()
		resp, err := c.Get(base + url.QueryEscape(q))
		if err != nil {
			return 0, false
		}
		resp.Body.Close()
		return time.Since(start), resp.StatusCode == http.StatusOK
	}
	get(loadQueries[0]) // load the vectors
	for b.Loop() {
		var mu sync.Mutex
		var lat []time.Duration
		failed := 0
		var wg sync.WaitGroup
		start := time.Now()
		for i := range clients {
			wg.Go(func() {
				for j := range each {
					d, ok := get(loadQueries[(i+j)%len(loadQueries)])
					mu.Lock()
					if ok {
						lat = append(lat, d)
					} else {
						failed++
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		wall := time.Since(start)
		slices.Sort(lat)
		if failed > 0 || len(lat) == 0 {
			b.Fatalf("%d of %d requests failed", failed, clients*each)
		}
		pct := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))].Microseconds()) / 1000 }
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.95), "p95-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
		b.ReportMetric(float64(len(lat))/wall.Seconds(), "req/s")
	}
}
