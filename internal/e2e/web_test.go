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
	"unicode"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

const chromiumPath = "/usr/bin/chromium"

// webNotes join the sample vault for the page test: one note with the
// markdown the page renders, one that tries every way to run a script.
var webNotes = map[string]string{
	"web/Rendering.md": "# Rendering\n\n" +
		"The zebu lantern note has **bold words**, a [[Backups]] wikilink, [[Backups#Restore Drill|the drill]] and [[No Such Note]].\n\n" +
		"## Gear table {#gear}\n\n| item | count |\n|---|---|\n| zebu lantern | 3 |\n| ~~old lamp~~ | 0 |\n\n" +
		"> [!warning] Mind the zebu\n> Callout body text.\n\n- [x] done task\n- [ ] open task\n",
	"web/备份.md": "# 备份\n\n我们每天晚上备份数据库，并且每个月做一次恢复演练。\n",
	"web/Hostile.md": "# Hostile\n\n" +
		"Marmoset payload paragraph: <script>window.pwned=3</script> and <img src=x onerror=\"window.pwned=4\"> inline.\n\n" +
		"<div onmouseover=\"window.pwned=5\" id=\"live\">raw block</div>\n\n" +
		"[click me](javascript:window.pwned=6) and <a href=\"javascript:window.pwned=7\">raw link</a>.\n\n" +
		"<iframe src=\"javascript:window.pwned=8\"></iframe>\n\n## Attr {onclick=\"window.pwned=9\" #safe-id}\n\nMarmoset tail.\n",
	"web/Obsidian.md":       obsidianNote,
	"web/Blocks.md":         blocksNote,
	"web/Layout.md":         layoutNote,
	"web/assets/wombat.png": wombatPNG,
	"web/Quokka.md":         "# Quokka\n\nQuokka setup words.\n\n## \n\nQuokka tail under a heading with no text.\n",
	"web/Site.md":           siteNote,
	"web/Nested.md":         "# Nested\n\n> ### Setup\n> The quoted gnu setup.\n\n## Setup\n\nThe gnu section setup.\n",
	"web/Ledger.md":         ledgerNote,
	"web/Essay.md":          essayNote,
}

// browser drives one headless Chromium tab on the page.
type browser struct {
	ctx  context.Context
	base string
}

func (b browser) do(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		shot(t, b.ctx, "failed")
		t.Fatalf("%s: %v", what, err)
	}
}

// wait waits until a JavaScript expression is truthy.
func (b browser) wait(t *testing.T, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		shot(t, b.ctx, "failed")
		t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

func (b browser) js(t *testing.T, expr string) string {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// search types a query the way a person does: "/" to focus the box.
func (b browser) search(t *testing.T, q string) {
	t.Helper()
	b.do(t, "type "+q, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); window.scrollTo(0, 0)`),
		press("/"))
	b.wait(t, "/ to focus the search box", `document.activeElement.id === "q" && document.getElementById("reader").hidden &&
		!location.hash.startsWith("#/note")`)
	// Clear the box and let the page settle on it before typing, so a
	// late update from the previous search cannot put its words back.
	b.do(t, "clear", chromedp.Evaluate[chromedp.Void](`(() => { const q = document.getElementById("q");
		q.value = ""; q.dispatchEvent(new Event("input", {bubbles: true})); })()`))
	b.wait(t, "an empty box", `document.getElementById("q").value === "" && document.activeElement.id === "q"`)
	b.do(t, "type "+q, chromedp.KeyEvent(q))
	b.wait(t, "the query typed", `document.getElementById("q").value === `+jsString(q))
	b.wait(t, "results for "+q, `new URLSearchParams(location.hash.split("?")[1]).get("q") === `+jsString(q)+
		` && /result/.test(document.getElementById("status").textContent) && document.querySelectorAll(".result").length > 0`)
}

// press sends one key as a browser does: a single keydown that carries
// its text, then keyup. chromedp.KeyEvent sends the text as a separate
// char event, which can reach the search box after a shortcut handler has
// moved focus there and called preventDefault, typing a stray "/".
func press(key string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, r := range key {
			evs := kb.Encode(r)
			down, up := *evs[0], *evs[len(evs)-1]
			if len(evs) == 3 {
				down.Text, down.UnmodifiedText = evs[1].Text, evs[1].UnmodifiedText
			} else {
				down.Type = input.DispatchKeyEventTypeRawKeyDown
			}
			for _, ev := range []input.DispatchKeyEventParams{down, up} {
				if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, ev); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// open navigates to a page address and waits for a note to show.
func (b browser) open(t *testing.T, hash, text string) {
	t.Helper()
	b.do(t, "open "+hash, chromedp.Evaluate[chromedp.Void](`location.hash = `+jsString(hash)))
	b.wait(t, "the note", `!document.getElementById("reader").hidden && document.getElementById("reader-content").textContent.includes(`+jsString(text)+`)`)
}

// inView is a JavaScript test that an element is on screen.
func inView(selector string) string {
	return `(() => { const n = document.querySelector(` + jsString(selector) + `); if (!n) return false;
		const r = n.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; })()`
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestWebPage drives the search page in headless Chromium: search, open a
// hit at its section, the keyboard, rendered markdown, wikilinks, deep
// links, filters, and notes whose markup must never run.
func TestWebPage(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		testenv.Absent(t, "%s is missing; install Debian's chromium package to run this test", chromiumPath)
	}
	f := newFixtureWith(t, withLedger(webNotes))
	_, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db)
	base = strings.TrimSuffix(base, "/")

	b := newBrowser(t, base)

	b.do(t, "open the page", chromedp.Navigate(base+"/"))
	b.wait(t, "collections in the filter", `[...document.querySelectorAll("#collection option")].some(o => o.value === "`+f.name+`")`)

	t.Run("results", func(t *testing.T) { webResults(t, b) })
	t.Run("keyboard", func(t *testing.T) { webKeyboard(t, b) })
	t.Run("rendering", func(t *testing.T) { webRendering(t, b) })
	t.Run("wikilink", func(t *testing.T) { webWikilink(t, b) })
	t.Run("deep link", func(t *testing.T) { webDeepLink(t, b) })
	t.Run("block link", func(t *testing.T) { webBlockLink(t, b) })
	t.Run("linked from", func(t *testing.T) { webLinkedFrom(t, b) })
	t.Run("hostile notes", func(t *testing.T) { webHostile(t, b) })
	t.Run("filters", func(t *testing.T) { webFilters(t, b, f.name) })
	t.Run("search shortcut", func(t *testing.T) { webShortcut(t, b) })
	t.Run("unspaced scripts", func(t *testing.T) { webUnspaced(t, b) })
	t.Run("best part", func(t *testing.T) { webBestPart(t, b) })
	t.Run("link's own query", func(t *testing.T) { webLinkQuery(t, b) })
	t.Run("suggestion", func(t *testing.T) { webSuggestion(t, b) })
	t.Run("plain markdown", func(t *testing.T) { webPlain(t, b) })
	t.Run("image embed", func(t *testing.T) { webImageEmbed(t, b) })
	t.Run("tag chip", func(t *testing.T) { webTagChip(t, b) })
	t.Run("more notes", func(t *testing.T) { webMoreNotes(t, b) })
	t.Run("header clear", func(t *testing.T) { webHeaderClear(t, b) })
	t.Run("table alignment", func(t *testing.T) { webTableAlign(t, b) })
	t.Run("phone width", func(t *testing.T) { webPhoneWidth(t, b) })
	t.Run("untitled heading", func(t *testing.T) { webUntitled(t, b) })
	t.Run("site links", func(t *testing.T) { webSiteLinks(t, b) })
	t.Run("nested heading", func(t *testing.T) { webNestedHeading(t, b) })
	t.Run("marks in view", func(t *testing.T) { webMarksInView(t, b) })
	t.Run("start page", func(t *testing.T) { webIntro(t, b, f.name) })
}

// A heading with no text is named "(untitled)", as the CLI and MCP name
// it, not left as a bare separator.
func webUntitled(t *testing.T, b browser) {
	b.do(t, "home", chromedp.Navigate(b.base+"/"))
	b.search(t, "quokka tail")
	if got := b.js(t, `document.querySelector("#result-0 .head").textContent`); !strings.Contains(got, "Quokka + (untitled)") {
		t.Errorf("header %q, want the empty heading named", got)
	}
}

// A misspelled word brings the respelled query's results, the status line
// saying so with a link that searches for the query as typed; that search
// offers the suggestion as a link that searches for it.
func webSuggestion(t *testing.T, b browser) {
	b.search(t, "bakups restore")
	b.wait(t, "the respelled results", `document.getElementById("as-typed") && document.querySelectorAll(".result").length > 0`)
	if got := b.js(t, `document.getElementById("status").textContent`); !strings.Contains(got, `no passage holds "bakups": showing results for "backups restore"; search for the query as typed`) {
		t.Errorf("status %q", got)
	}
	// The cards, and the note a card opens, mark the words searched for.
	if got := b.js(t, `[...document.querySelectorAll(".result mark")].map(m => m.textContent.toLowerCase()).join(",")`); !strings.Contains(got, "backups") {
		t.Errorf("marked %q, want the respelled words", got)
	}
	if got := b.js(t, `document.querySelector(".result a").getAttribute("href")`); !strings.Contains(got, "q=backups+restore") {
		t.Errorf("a card opens %q, want the respelled query marked", got)
	}
	b.do(t, "search as typed", chromedp.Evaluate[chromedp.Void](`document.getElementById("as-typed").click()`))
	b.wait(t, "the suggestion", `document.getElementById("suggestion") && document.getElementById("suggestion").textContent === "backups restore" &&
		new URLSearchParams(location.hash.split("?")[1]).get("as_typed") === "true" && document.getElementById("q").value === "bakups restore"`)
	if got := b.js(t, `document.getElementById("status").textContent`); !strings.Contains(got, `no passage holds "bakups"; did you mean backups restore?`) {
		t.Errorf("status %q", got)
	}
	b.do(t, "follow the suggestion", chromedp.Evaluate[chromedp.Void](`document.getElementById("suggestion").click()`))
	b.wait(t, "its results", `document.getElementById("q").value === "backups restore" && !document.getElementById("suggestion") &&
		new URLSearchParams(location.hash.split("?")[1]).get("q") === "backups restore" && !location.hash.includes("as_typed") && document.querySelectorAll(".result").length > 0`)
}

// A card shows the part of its passage that answers the question, with the
// question's words marked whole (and their other forms), never its stop
// words nor words inside other words.
func webBestPart(t *testing.T, b browser) {
	q := "how long did the last restore take?"
	b.do(t, "ask", chromedp.Navigate(b.base+"/?q="+url.QueryEscape(q)))
	card := `[...document.querySelectorAll(".result")].find(r => r.querySelector(".path").textContent === "homelab/Backups.md")`
	b.wait(t, "the Backups card", `document.getElementById("q").value === `+jsString(q)+` && `+card)
	shot(t, b.ctx, "best-part")
	if got := b.js(t, card+`.querySelector(".text").textContent`); !strings.Contains(got, "41 minutes") || strings.Contains(got, "```") {
		t.Errorf("the Backups card shows %q, not the 41 minutes", got)
	}
	// Its score's tooltip says why it ranked, as --explain does.
	if got := b.js(t, card+`.querySelector(".score").title`); !strings.Contains(got, "keyword #") ||
		!strings.Contains(got, "restore (text, heading)") || !strings.Contains(got, "\nsecond stage: ") {
		t.Errorf("the Backups card's score says %q, not why it ranked", got)
	}
	// Each mark with the letters either side of it, over every card.
	marks := b.js(t, `JSON.stringify([...document.querySelectorAll(".result .text mark")].map(m => {
		const before = m.previousSibling ? m.previousSibling.textContent.slice(-1) : "";
		const after = m.nextSibling ? m.nextSibling.textContent.slice(0, 1) : "";
		return before + "[" + m.textContent + "]" + after; }))`)
	var got []string
	if err := json.Unmarshal([]byte(marks), &got); err != nil || len(got) == 0 {
		t.Fatalf("marks %s: %v", marks, err)
	}
	forms := map[string]bool{}
	for _, m := range got {
		word := strings.ToLower(m[strings.Index(m, "[")+1 : strings.Index(m, "]")])
		forms[word] = true
		if word == "the" || word == "how" || word == "did" || strings.ContainsFunc(m[:strings.Index(m, "[")]+m[strings.Index(m, "]")+1:], unicode.IsLetter) {
			t.Errorf("marked %q: a stop word, or part of a word", m)
		}
	}
	if !forms["restore"] || !forms["restored"] || !forms["last"] {
		t.Errorf("marked %v; want restore and its forms, and last", got)
	}
	b.do(t, "show the whole passage", chromedp.Evaluate[chromedp.Void](card+`.querySelector("button.whole").focus()`), press(kb.Enter))
	// The button stays, focused, to show the part again.
	b.wait(t, "the whole passage", card+`.querySelector(".text.expanded") && `+card+`.querySelector("button.whole").textContent === "Show less" && document.activeElement === `+card+`.querySelector("button.whole")`)
	if h := b.js(t, `location.hash`); strings.HasPrefix(h, "#/note") {
		t.Errorf("the button opened the note: %s", h)
	}
	// The card shows the result's text, not the snippet with its heading
	// path before it: the card's head already names the place.
	if got := b.js(t, card+`.querySelector(".text").textContent`); strings.Contains(got, "[Backups") || !strings.Contains(got, "41 minutes") {
		t.Errorf("the whole passage shows %q", got)
	}
}

// A link to a search shows its own query in the box, also when history
// brings it back.
func webLinkQuery(t *testing.T, b browser) {
	// Polled from here: a history step may swap the document under a
	// browser-side poll.
	box := func(what, q string) {
		t.Helper()
		expr := `document.getElementById("q").value === ` + jsString(q) + ` && document.querySelectorAll(".result").length > 0 &&
			new URLSearchParams(location.hash.split("?")[1]).get("q") === ` + jsString(q)
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
			if err == nil && ok {
				return
			}
			if time.Now().After(end) {
				shot(t, b.ctx, "failed")
				t.Fatalf("waiting for %s: box %q, address %s", what, b.js(t, `document.getElementById("q").value`), b.js(t, `location.href`))
			}
		}
	}
	b.search(t, "zebu lantern")
	b.do(t, "a link to another search", chromedp.Navigate(b.base+"/?q=restic"))
	box("the link's query", "restic")
	b.do(t, "a link to a third", chromedp.Navigate(b.base+"/#/search?q=sourdough"))
	box("the third link's query", "sourdough")
	// history.back, as chromedp's NavigateBack waits for a load that a
	// page kept in the back-forward cache never fires.
	b.do(t, "back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	box("the second query again", "restic")
	b.do(t, "back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	box("the first query again", "zebu lantern")
	b.do(t, "forward", chromedp.Evaluate[chromedp.Void](`history.forward()`))
	box("the second query, forward", "restic")
	b.do(t, "a link with a search of its own and an older one", chromedp.Navigate(b.base+"/?q=drill#/search?q=zebu"))
	box("the link's own query over the hash's", "drill")
}

// A question typed without spaces finds the note, and the page marks the
// words of it the note holds, as keyword search reads them.
func webUnspaced(t *testing.T, b browser) {
	b.do(t, "search in Chinese", chromedp.Navigate(b.base+"/?q="+url.QueryEscape("怎么恢复数据库？")))
	b.wait(t, "the result", `document.querySelectorAll(".result").length > 0 &&
		document.querySelector("#result-0 .path").textContent === "web/备份.md"`)
	if got := b.js(t, `[...document.querySelectorAll("#result-0 .text mark")].map(m => m.textContent).join(",")`); got != "数据库,恢复" {
		t.Errorf("marked %q, want 数据库,恢复", got)
	}
	// An input method composing pinyin searches only once a word is chosen.
	b.do(t, "compose", chromedp.Evaluate[chromedp.Void](`(() => { const q = document.getElementById("q");
		q.focus(); q.value = "shujuku"; q.dispatchEvent(new InputEvent("input", {bubbles: true, isComposing: true})); })()`))
	time.Sleep(600 * time.Millisecond) // past the typing pause
	if h := b.js(t, `decodeURIComponent(location.hash)`); strings.Contains(h, "shujuku") {
		t.Errorf("searched while composing: %s", h)
	}
	b.do(t, "choose 备份", chromedp.Evaluate[chromedp.Void](`(() => { const q = document.getElementById("q");
		q.value = "备份"; q.dispatchEvent(new CompositionEvent("compositionend", {bubbles: true, data: "备份"})); })()`))
	b.wait(t, "the chosen word searched", `new URLSearchParams(location.hash.split("?")[1]).get("q") === "备份"`)
	// Each paragraph of a note takes the direction of its own letters.
	if got := b.js(t, `getComputedStyle(document.querySelector("#result-0 .text")).unicodeBidi`); got != "plaintext" {
		t.Errorf("result text unicode-bidi %q", got)
	}
}

// A browser's search shortcut, /?q=…, opens that search.
func webShortcut(t *testing.T, b browser) {
	b.do(t, "open /?q=", chromedp.Navigate(b.base+"/?q=restic+backups?"))
	b.wait(t, "the search run", `document.getElementById("q").value === "restic backups?" &&
		location.hash.startsWith("#/search?") && document.querySelectorAll(".result").length > 0`)
}

// A search shows path, section path, score, lines and highlighted words;
// a click opens the whole note at the hit, its section marked.
func webResults(t *testing.T, b browser) {
	b.do(t, "home", chromedp.Navigate(b.base+"/"))
	b.search(t, "starter hooch")
	// The note's stub introduction merged into Starter Maintenance: the
	// passage is labelled where it starts and names the other section too.
	if got := b.js(t, `document.querySelector("#result-0 .path").textContent + " > " + document.querySelector("#result-0 .section").textContent + " + " + document.querySelector("#result-0 .also").textContent`); got != "kitchen/Sourdough.md > Sourdough + Starter Maintenance" {
		t.Errorf("first result %q", got)
	}
	if got := b.js(t, `document.querySelector("#result-0 .score").textContent`); !strings.HasSuffix(got, "%") {
		t.Errorf("score %q", got)
	}
	if got := b.js(t, `document.querySelector("#result-0 .meta").textContent`); !strings.HasPrefix(got, "lines ") {
		t.Errorf("meta %q, want the line range first", got)
	}
	if got := b.js(t, `document.querySelector("#result-0 .text").textContent`); !strings.Contains(got, "(hooch) forms on top") {
		t.Errorf("chunk text %q", got)
	}
	if got := b.js(t, `[...document.querySelectorAll("#result-0 .text mark")].map(m => m.textContent.toLowerCase()).join(",")`); !strings.Contains(got, "hooch") {
		t.Errorf("highlighted words %q", got)
	}
	shot(t, b.ctx, "results")

	b.do(t, "click the first result", chromedp.Click(chromedp.CSS("#result-0 .text")))
	b.wait(t, "the note at the hit", `!document.getElementById("reader").hidden && document.querySelector("#reader-content .hit")`)
	if got := b.js(t, `document.querySelector("#reader-content .target").id`); got != "sourdough" {
		t.Errorf("target heading %q", got)
	}
	if got := b.js(t, `document.getElementById("reader-content").textContent`); !strings.Contains(got, "Bulk Fermentation") {
		t.Errorf("the whole note is not shown: %q", got)
	}
	if !strings.Contains(b.js(t, `location.hash`), "id=sourdough") {
		t.Errorf("address %s does not name the section", b.js(t, `location.hash`))
	}
	b.wait(t, "the hit on screen", inView("#reader-content .hit"))
	if got := b.js(t, `[...document.querySelectorAll("#reader-content .hit mark")].map(m => m.textContent.toLowerCase()).join(",")`); !strings.Contains(got, "hooch") {
		t.Errorf("query words marked in the hit: %q", got)
	}
	shot(t, b.ctx, "section")
	b.do(t, "Esc", press(kb.Escape))
	b.wait(t, "results again", `document.getElementById("reader").hidden && document.querySelectorAll(".result").length > 0`)
}

// "/" focuses the box, arrows choose, Enter opens, Esc returns.
func webKeyboard(t *testing.T, b browser) {
	b.search(t, "backup restore")
	n := b.js(t, `String(document.querySelectorAll(".result").length)`)
	if n == "1" {
		t.Skip("one result; nothing to move between")
	}
	b.do(t, "down, down, up", press(kb.ArrowDown), press(kb.ArrowDown), press(kb.ArrowUp))
	b.wait(t, "the second result chosen", `document.getElementById("result-1").getAttribute("aria-selected") === "true"`)
	second := b.js(t, `document.querySelector("#result-1 .path").textContent`)
	lines := b.js(t, `document.querySelector("#result-1 .meta").textContent.split(" · ")[0]`)
	b.do(t, "Enter", press(kb.Enter))
	b.wait(t, "the second result opened", `!document.getElementById("reader").hidden && document.getElementById("reader-content").childElementCount > 0`)
	if got := b.js(t, `document.querySelector("#reader-title .path").textContent`); got != second {
		t.Errorf("Enter opened %q, want %q", got, second)
	}
	// The note says why the result ranked, within reach of the keyboard
	// (the score's tooltip is not).
	why := b.js(t, `(() => { const d = document.getElementById("reader-why");
		return d.hidden ? "hidden" : d.querySelector("summary").textContent + "\n" + d.querySelector("pre").textContent; })()`)
	if score := b.js(t, `document.querySelector("#result-1 .score").textContent`); !strings.Contains(why, "scored "+score) ||
		!strings.Contains(why, "keyword #") || !strings.Contains(why, "\nsecond stage: ") {
		t.Errorf("the opened note says %q of why its result (%s) ranked", why, score)
	}
	b.do(t, "open the why", chromedp.Evaluate[chromedp.Void](`document.getElementById("reader-why").open = true`))
	shot(t, b.ctx, "why")
	if !strings.Contains(b.js(t, `decodeURIComponent(location.hash)`), strings.ReplaceAll(strings.TrimPrefix(lines, "lines "), "–", "-")) {
		t.Errorf("address %s is not at the hit's %s", b.js(t, `location.hash`), lines)
	}
	b.do(t, "/ from the note", press("/"))
	// The route back to the results arrives a moment after the box has
	// focus; the choice must then still be the second result.
	b.wait(t, "back in the search box, the choice kept", `document.activeElement.id === "q" && document.getElementById("reader").hidden &&
		!location.hash.startsWith("#/note") && document.getElementById("result-1").getAttribute("aria-selected") === "true"`)
}

// Markdown renders: emphasis, a GFM table, a callout, a task list, links.
func webRendering(t *testing.T, b browser) {
	b.search(t, "zebu lantern")
	b.do(t, "open the rendering note", chromedp.Evaluate[chromedp.Void](
		`[...document.querySelectorAll(".result")].find(r => r.querySelector(".path").textContent === "web/Rendering.md").click()`))
	b.wait(t, "the note", `document.querySelector("#reader-content table")`)
	checks := map[string]string{
		`document.querySelector("#reader-content table td").textContent`:                                   "zebu lantern",
		`document.querySelector("#reader-content table del").textContent`:                                  "old lamp",
		`document.querySelector("#reader-content strong").textContent`:                                     "bold words",
		`document.querySelector("#reader-content h2").id`:                                                  "gear",
		`document.querySelector(".callout[data-callout=warning] .callout-title").textContent`:              "Mind the zebu",
		`String(document.querySelectorAll("#reader-content input[type=checkbox][disabled]").length)`:       "2",
		`document.querySelector("#reader-content .unresolved").textContent`:                                "No Such Note",
		`String(document.body.innerText.includes("[[") || document.body.innerText.includes("[!warning]"))`: "false",
	}
	for expr, want := range checks {
		if got := b.js(t, expr); got != want {
			t.Errorf("%s = %q, want %q", expr, got, want)
		}
	}
	shot(t, b.ctx, "rendered")
	b.do(t, "dark mode", colorScheme("dark"))
	shot(t, b.ctx, "rendered-dark")
	b.do(t, "light mode", colorScheme(""))
}

// colorScheme emulates prefers-color-scheme ("" for the default).
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// A wikilink with a heading opens the note it names at that section.
func webWikilink(t *testing.T, b browser) {
	b.open(t, "#/note?path=web%2FRendering.md", "zebu")
	b.do(t, "click the drill", chromedp.Evaluate[chromedp.Void](
		`[...document.querySelectorAll("#reader-content a.wikilink")].find(a => a.textContent === "the drill").click()`))
	b.wait(t, "the linked note", `(document.querySelector("#reader-title .path") || {}).textContent === "homelab/Backups.md" && document.querySelector("#reader-content .target")`)
	if got := b.js(t, `document.querySelector("#reader-content .target").id`); got != "restore-drill" {
		t.Errorf("wikilink landed on %q", got)
	}
	b.wait(t, "the section on screen", inView("#reader-content .target"))
	b.do(t, "back", chromedp.NavigateBack())
	b.wait(t, "the first note again", `(document.querySelector("#reader-title .path") || {}).textContent === "web/Rendering.md"`)
	b.do(t, "plain wikilink", chromedp.Evaluate[chromedp.Void](
		`[...document.querySelectorAll("#reader-content a.wikilink")].find(a => a.textContent === "Backups").click()`))
	b.wait(t, "the linked note", `(document.querySelector("#reader-title .path") || {}).textContent === "homelab/Backups.md"`)
}

// An address with a heading id lands on that section, marked.
func webDeepLink(t *testing.T, b browser) {
	b.open(t, "#/note?path=homelab%2FBackups.md&id=retention", "Retention")
	b.wait(t, "the section marked", `document.querySelector("#reader-content .target") && document.querySelector("#reader-content .target").id === "retention"`)
	b.wait(t, "the section on screen", inView("#retention"))
	if got := b.js(t, `String(document.querySelector(".section-frame > #retention + p") !== null && !document.getElementById("schedule").closest(".section-frame"))`); got != "true" {
		t.Errorf("the section's blocks are not framed, or other sections are")
	}
	if got := b.js(t, `document.querySelector("#retention .anchor").getAttribute("href")`); !strings.Contains(got, "id=retention") {
		t.Errorf("heading anchor %q", got)
	}
	// A note reached by its address, not from a result, has no why to show.
	if got := b.js(t, `String(document.getElementById("reader-why").hidden)`); got != "true" {
		t.Errorf("a note opened by its address shows a result's why")
	}
	shot(t, b.ctx, "deep-link")
}

// Markup in notes never runs or becomes live elements.
func webHostile(t *testing.T, b browser) {
	b.search(t, "quokka canary")
	apiSections := searchSections(t, b.base, "quokka canary")
	domSections := b.js(t, `JSON.stringify([...document.querySelectorAll(".result")].map(r => (r.querySelector(".section") || {}).textContent || ""))`)
	if want, _ := json.Marshal(apiSections); domSections != string(want) {
		t.Errorf("sections on the page %s, from the API %s", domSections, want)
	}
	b.open(t, "#/note?path=web%2FEscaping.md", "quokka")
	b.open(t, "#/note?path=web%2FHostile.md", "Marmoset tail")
	live := `String(document.querySelectorAll("main script, main img, main iframe, main [onerror], main [onmouseover], main [onclick], #live, main a[href^='javascript'], main a[href='']").length)`
	if got := b.js(t, live); got != "0" {
		t.Errorf("%s live elements from the note", got)
	}
	if got := b.js(t, `document.querySelector("#reader-content .removed-link").textContent`); got != "click me" {
		t.Errorf("unsafe link shown as %q", got)
	}
	if got := b.js(t, `document.querySelector("#reader-content h2").id`); got != "safe-id" {
		t.Errorf("heading id %q", got)
	}
	b.do(t, "click and hover everything", chromedp.Evaluate[chromedp.Void](`for (const n of document.querySelectorAll("#reader-content *")) {
		n.dispatchEvent(new MouseEvent("mouseover", {bubbles: true})); n.click(); }`))
	time.Sleep(300 * time.Millisecond)
	if got := b.js(t, `String(window.pwned)`); got != "undefined" {
		t.Errorf("a note's script ran: pwned = %s", got)
	}
	// A path that climbs out reaches the API, which refuses it: the
	// browser must not resolve the ".." away first.
	b.do(t, "open a climbing path", chromedp.Evaluate[chromedp.Void](`location.hash = "#/note?path=..%2F..%2Fetc%2Fpasswd"`))
	b.wait(t, "the API's refusal", `document.querySelector(".error") && document.querySelector(".error").textContent.includes('".." is refused')`)
	shot(t, b.ctx, "hostile")
}

// Filters: a tag narrows to the notes that carry it, then a collection.
func webFilters(t *testing.T, b browser, collection string) {
	b.do(t, "home", chromedp.Navigate(b.base+"/"))
	b.search(t, "water")
	b.do(t, "tag filter", chromedp.Click(chromedp.CSS("#tag")), chromedp.KeyEvent("baking"))
	b.wait(t, "tag in the URL", `location.hash.includes("tag=baking")`)
	b.wait(t, "filtered results", `/result/.test(document.getElementById("status").textContent) && [...document.querySelectorAll(".result .path")].every(p => p.textContent === "kitchen/Sourdough.md")`)
	if n := b.js(t, `String(document.querySelectorAll(".result").length)`); n == "0" {
		t.Errorf("no results tagged baking")
	}
	b.do(t, "collection filter", chromedp.Evaluate[chromedp.Void](`const s = document.getElementById("collection"); s.value = "`+collection+`"; s.dispatchEvent(new Event("change"))`))
	b.wait(t, "collection in the URL", `location.hash.includes("collection=`+collection+`")`)
	b.wait(t, "results with both filters", `document.querySelectorAll(".result").length > 0`)
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
