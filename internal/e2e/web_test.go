package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

const chromiumPath = "/usr/bin/chromium"

// TestWebPage drives the search page in headless Chromium: type a query,
// see the results, open a section by mouse and by keyboard, read the whole
// note, filter by collection and tag, and check that a heading holding a
// <script> shows as text and never runs.
func TestWebPage(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		testenv.Absent(t, "%s is missing; install Debian's chromium package to run this test", chromiumPath)
	}
	f := newFixture(t)
	_, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db)
	base = strings.TrimSuffix(base, "/")

	actx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
	)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			shot(t, ctx, "failed")
			t.Fatalf("%s: %v", what, err)
		}
	}
	// waitJS waits until a JavaScript expression is truthy.
	waitJS := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			shot(t, ctx, "failed")
			t.Fatalf("waiting for %s (%s): %v", what, expr, err)
		}
	}
	js := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	typeQuery := func(q string) {
		t.Helper()
		do("type "+q, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); window.scrollTo(0, 0)`),
			chromedp.KeyEvent("/"))
		waitJS("/ to focus the search box", `document.activeElement.id === "q"`)
		do("clear", chromedp.Evaluate[chromedp.Void](`document.getElementById("q").select()`), chromedp.KeyEvent(kb.Backspace+q))
	}

	do("open the page", chromedp.Navigate(base+"/"))
	waitJS("collections in the filter", `[...document.querySelectorAll("#collection option")].some(o => o.value === "`+f.name+`")`)

	// Type a query: results render as path > Section, score and chunk text.
	typeQuery("starter hooch")
	waitJS("results", `document.querySelectorAll(".result").length > 0 && /result/.test(document.getElementById("status").textContent)`)
	if got := js(`document.querySelector("#result-0 .path").textContent + " > " + document.querySelector("#result-0 .section").textContent`); got != "kitchen/Sourdough.md > Starter Maintenance" {
		t.Errorf("first result %q", got)
	}
	if got := js(`document.querySelector("#result-0 .score").textContent`); !strings.HasSuffix(got, "%") {
		t.Errorf("score %q", got)
	}
	if got := js(`document.querySelector("#result-0 .text").textContent`); !strings.Contains(got, "(hooch) forms on top") {
		t.Errorf("chunk text %q", got)
	}
	shot(t, ctx, "results")

	// Click through to the section.
	do("click the first result", chromedp.Click(chromedp.CSS("#result-0")))
	waitJS("the section", `!document.getElementById("reader").hidden && document.getElementById("reader-content").textContent.includes("hooch")`)
	if got := js(`document.getElementById("reader-content").textContent`); strings.Contains(got, "Bulk Fermentation") || !strings.Contains(got, "Rye Starter") {
		t.Errorf("section view shows %q", got)
	}
	if js(`String(document.getElementById("whole").hidden)`) != "false" || !strings.Contains(js(`location.hash`), "section=") {
		t.Errorf("no link to the whole note, or no section in %s", js(`location.hash`))
	}
	shot(t, ctx, "section")

	// The whole note, then Esc back to the same results.
	do("read the whole note", chromedp.Click(chromedp.CSS("#whole")))
	waitJS("the whole note", `document.getElementById("reader-content").textContent.includes("Bulk Fermentation")`)
	do("Esc", chromedp.KeyEvent(kb.Escape))
	waitJS("results again", `document.getElementById("reader").hidden && !document.getElementById("results").hidden && document.querySelectorAll(".result").length > 0`)

	// Keyboard: arrows choose, Enter opens, Esc returns.
	second := js(`(document.querySelector("#result-1 .path") || {}).textContent || ""`)
	if second != "" {
		waitJS("focus back in the search box", `document.activeElement.id === "q"`)
		do("arrow down and enter", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter))
		waitJS("second result opened", `!document.getElementById("reader").hidden && document.getElementById("reader-content").textContent.length > 0`)
		if got := js(`document.querySelector("#reader-title .path").textContent`); got != second {
			t.Errorf("Enter opened %q, want %q", got, second)
		}
		do("Esc", chromedp.KeyEvent(kb.Escape))
		waitJS("results after Esc", `document.getElementById("reader").hidden`)
	}

	// A heading holding markup shows as text, exactly as the API returns it.
	typeQuery("quokka canary")
	waitJS("the escaping note", `[...document.querySelectorAll(".result .path")].some(p => p.textContent === "web/Escaping.md")`)
	apiSections := searchSections(t, base, "quokka canary")
	domSections := js(`JSON.stringify([...document.querySelectorAll(".result")].map(r => (r.querySelector(".section") || {}).textContent || ""))`)
	if want, _ := json.Marshal(apiSections); domSections != string(want) {
		t.Errorf("sections on the page %s, from the API %s", domSections, want)
	}
	do("open the escaping note", chromedp.Evaluate[chromedp.Void](
		`[...document.querySelectorAll(".result")].find(r => r.querySelector(".path").textContent === "web/Escaping.md").click()`))
	waitJS("its text", `document.getElementById("reader-content").textContent.includes("quokka")`)
	do("whole note", chromedp.Click(chromedp.CSS("#whole")))
	waitJS("the heading as text", `[...document.querySelectorAll("#reader-content h3")].some(h => h.textContent === "Beware <script>window.pwned=1</script> tags")`)
	if got := js(`String(window.pwned) + " " + document.querySelectorAll("main script, main img").length`); got != "undefined 0" {
		t.Errorf("markup from the note ran or rendered: pwned, elements = %s", got)
	}
	shot(t, ctx, "escaping")

	// Filters: a tag narrows to the notes that carry it.
	typeQuery("water")
	waitJS("unfiltered results", `document.querySelectorAll(".result").length > 0`)
	do("tag filter", chromedp.Click(chromedp.CSS("#tag")), chromedp.KeyEvent("baking"))
	waitJS("tag in the URL", `location.hash.includes("tag=baking")`)
	waitJS("filtered results", `/result/.test(document.getElementById("status").textContent) && [...document.querySelectorAll(".result .path")].every(p => p.textContent === "kitchen/Sourdough.md")`)
	if n := js(`String(document.querySelectorAll(".result").length)`); n == "0" {
		t.Errorf("no results tagged baking")
	}
	do("collection filter", chromedp.Evaluate[chromedp.Void](`const s = document.getElementById("collection"); s.value = "`+f.name+`"; s.dispatchEvent(new Event("change"))`))
	waitJS("collection in the URL", `location.hash.includes("collection=`+f.name+`")`)
	waitJS("results with both filters", `document.querySelectorAll(".result").length > 0`)
}

// searchSections asks the API for the sections a query returns.
func searchSections(t *testing.T, base, q string) []string {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/semantic-search?n=10&q=" + url.QueryEscape(q))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Results []struct{ Section string } }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, r := range out.Results {
		s = append(s, r.Section)
	}
	return s
}

// shot saves a screenshot as a test artifact and logs where.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("MDSEARCH_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "mdsearch-artifacts")
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "web-"+name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
