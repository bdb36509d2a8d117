package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// newBrowser starts a headless Chromium tab on the page at base, closed
// at cleanup.
func newBrowser(t *testing.T, base string) browser {
	t.Helper()
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
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(cancel)
	return browser{ctx: ctx, base: base}
}

// A card's text reads links as their text, whatever their destination
// holds.
func webPlain(t *testing.T, b browser) {
	for md, want := range map[string]string{
		"see [Foo](https://en.example/Foo_(bar)) and [a](b)":                               "see Foo and a",
		"[click me](javascript:alert(3)) link":                                             "click me link",
		"![img](x.png) [[Note#Part|alias]] (aside)":                                        "img alias (aside)",
		"Roll ![[obsidian-icon-dice.svg#icon]] a note; ![[wombat.PNG|40]] ![[Other#Part]]": "Roll  a note;  Other > Part",
		"> [!faq]- Folded\n> A block paragraph. ^blk1":                                     "> Folded\n> A block paragraph.",
		"> [!tip]\n> > Never ==water== at noon.\n>\n> Why.\n> ^qb":                         "> Never water at noon.\n\n> Why.",
		"- a list\n\n^list-1\n\nAfter, a == b.":                                            "- a list\n\nAfter, a == b.",
		"```\nif x==1 and y==2:\n```\nSee `a==b || c==d` and ==this==.":                    "if x==1 and y==2:\nSee a==b || c==d and this.",
		// Inline HTML as the note's page shows it: tags omitted, an image by
		// its alt text; a code span's tags, an autolink and a comparison stay.
		"<div class=\"options-api\">\n\nUse <span class=\"x\">`<KeepAlive>`</span> here.\n\n</div>":                     "Use <KeepAlive> here.",
		"A <img src=\"a.png\" alt=\"the diagram\" width=\"40\"> and <img src='b.png'>, <https://x.example>, a < b > c.": "A the diagram and , <https://x.example>, a < b > c.",
		// A fenced div's marker lines go, its title stays.
		"::: tip Read this\nBody.\n:::\n\n:::danger[Breaking]\nMore.\n:::": "Read this\nBody.\n\nBreaking\nMore.",
		"```\n::: tip\n<b>x</b>\n```":                                      "::: tip\n<b>x</b>",
		// Emphasis, strikethrough and escapes go; a * or _ inside a word, in
		// a code span or in a URL is text (snake_case, math, links).
		"Some *emphasis*, _this_, __strong__, ***both*** and ~~struck~~ words.": "Some emphasis, this, strong, both and struck words.",
		"snake_case_names, a*b*c, 2*3*4 and 2 * 3 * 4, foo__bar__":              "snake_case_names, a*b*c, 2*3*4 and 2 * 3 * 4, foo__bar__",
		"See `a_b_ *c*` and `_x_` and `**kw**`.":                                "See a_b_ *c* and _x_ and **kw**.",
		"https://x.example/a_b_/_c_ and [d](https://e.example/_u_) *end*":       "https://x.example/a_b_/_c_ and d end",
		"**bold *nested* here**, \\*not emphasis\\* and C:\\Users":              "bold nested here, *not emphasis* and C:\\Users",
		"```\nf(*args, **kwargs) and _x_\n```":                                  "f(*args, **kwargs) and _x_",
		// A fenced block's links and code spans are as written: the syntax
		// an example shows is what a reader looks for.
		"```md\n[Obsidian Help](https://help.obsidian.md), [[Note|alias]], `x`\n```\nSee [Obsidian Help](https://help.obsidian.md).": "[Obsidian Help](https://help.obsidian.md), [[Note|alias]], `x`\nSee Obsidian Help.",
		// A task shows its box; footnotes lose their markers.
		"- [ ] open task\n- [x] done task\n1. [X] numbered\n  - [ ] nested":   "☐ open task\n☑ done task\n1. ☑ numbered\n  ☐ nested",
		"A claim.[^1] More[^note].\n\n[^1]: The footnote.\n[^note]: Another.": "A claim. More.\n\nThe footnote.\nAnother.",
		// A table reads as its cells, its delimiter row gone, also in a
		// quote, without outer pipes, or cut from its header.
		"| item | count |\n|---|:--:|\n| zebu *lantern* | 3 |\n| a \\| b | |\n\nAfter.": "item · count\nzebu lantern · 3\na | b\n\nAfter.",
		"left | right\n--- | ---\nx | `y\\|z`":                                          "left · right\nx · y|z",
		"| cut | from its header |\n| row | two |":                                      "cut · from its header\nrow · two",
		"> | a | b |\n> |---|---|\n> | c | d |":                                         "> a · b\n> c · d",
	} {
		if got := b.js(t, "plainMarkdown(joinSoftBreaks("+jsString(md)+"))"); got != want {
			t.Errorf("plainMarkdown(joinSoftBreaks(%q)) = %q, want %q", md, got, want)
		}
		if got := b.js(t, "plainMarkdown("+jsString(md)+")"); got != want {
			t.Errorf("plainMarkdown(%q) = %q, want %q", md, got, want)
		}
	}
	// As a card reads a passage: its wrapped lines joined first, a fenced
	// div's marker lines kept apart so that they go.
	for md, want := range map[string]string{
		"Intro.\n::: warning\nBody.\n:::": "Intro.\nBody.",
		// A heading of any level is a line of its own, also with text right
		// under it; a tag that opens a line is text.
		"## Sec\nshort start deep ocean trench.":                                    "short start deep ocean trench.",
		"###### Six\nwrapped\nlines":                                                "wrapped lines",
		"Text\n#tag opens\nthis line":                                               "Text #tag opens this line",
		"::: tip Read this\nBody\nwrapped.\n:::\n\n:::danger[Breaking]\nMore.\n:::": "Read this\nBody wrapped.\n\nBreaking\nMore.",
	} {
		if got := b.js(t, "plainMarkdown(joinSoftBreaks("+jsString(md)+"))"); got != want {
			t.Errorf("plainMarkdown(joinSoftBreaks(%q)) = %q, want %q", md, got, want)
		}
	}
	// Obsidian's operators that filter nothing mark no words: their names
	// are not searched.
	if got := b.js(t, `[...queryTerms("line:(pin tab) -section:tabs").stems].sort().join()`); got != "pin,tab" {
		t.Errorf("queryTerms of word operators: %q", got)
	}
}

// ledgerNote's and essayNote's matching words lie past the 8 lines a card
// shows on a phone: deep in a table, late in one long paragraph.
var ledgerNote = "# Ledger\n\n| row | entry |\n|---|---|\n" +
	strings.Repeat("| row | plain filler entry of the table |\n", 14) + "| last | the capybara entry |\n"

var essayNote = "# Essay\n\n" + strings.Repeat("Filler sentence about nothing in particular. ", 14) +
	"The axolotl verdict is final. " + strings.Repeat("More filler follows it. ", 3) + "\n"

// A card whose clamp would hide every marked word shows its text from a
// little before the first, "…" before it, at a phone's width; at a wide
// one, the text from its start again where that shows one. The whole
// passage is still a click away.
func webMarksInView(t *testing.T, b browser) {
	defer b.do(t, "the desktop width", chromedp.EmulateViewport(1100, 900))
	for _, tc := range []struct{ q, path, first string }{
		{"capybara", "web/Ledger.md", "row · entry"},
		{"axolotl verdict", "web/Essay.md", "Filler sentence"},
	} {
		b.do(t, "a phone's width", chromedp.EmulateViewport(390, 844))
		b.search(t, tc.q)
		card := `[...document.querySelectorAll(".result")].find(r => r.querySelector(".path").textContent === ` + jsString(tc.path) + `)`
		text := card + `.querySelector(".text")`
		inView := `(() => { const t = ` + text + `; const m = t.querySelector("mark"); return !!m &&
			m.getClientRects()[0].bottom <= t.getBoundingClientRect().bottom + 1; })()`
		b.wait(t, tc.path+"'s card with a marked word in view", card+` && `+inView+` && `+text+`.textContent.startsWith("… ")`)
		shot(t, b.ctx, "marks-"+filepath.Base(tc.path))
		fitted := b.js(t, text+`.textContent`)
		if tc.path == "web/Essay.md" {
			// Wide, the card's 8 lines hold the word from the start.
			b.do(t, "a wide window", chromedp.EmulateViewport(1100, 900))
			b.wait(t, "the text from its start", inView+` && `+text+`.textContent.startsWith(`+jsString(tc.first)+`)`)
			b.do(t, "a phone's width again", chromedp.EmulateViewport(390, 844))
			b.wait(t, "fitted again", inView+` && `+text+`.textContent.startsWith("… ")`)
		}
		b.do(t, "show the whole passage", chromedp.Evaluate[chromedp.Void](card+`.querySelector("button.whole").click()`))
		b.wait(t, "the whole passage", text+`.classList.contains("expanded") && `+text+`.textContent.startsWith(`+jsString(tc.first)+`)`)
		if whole := b.js(t, text+`.textContent`); len(whole) <= len(fitted)-len("… ") {
			t.Errorf("%s: the card showed %q, the whole passage %q", tc.path, fitted, whole)
		}
		if h := b.js(t, card+`.querySelector("a.path").getAttribute("href")`); !strings.Contains(h, "path="+strings.ReplaceAll(tc.path, "/", "%2F")) {
			t.Errorf("%s: the card opens %s", tc.path, h)
		}
	}
}

// The start page says what is indexed, what to type and what a
// percentage means, at a phone's width and a desktop's; a query hides it.
func webIntro(t *testing.T, b browser, collection string) {
	defer b.do(t, "the desktop width", chromedp.EmulateViewport(1100, 900))
	for _, w := range []int64{1280, 390} {
		b.do(t, "the width", chromedp.EmulateViewport(w, 844))
		b.do(t, "home", chromedp.Navigate(b.base+"/"))
		b.wait(t, "the introduction", `!document.getElementById("intro").hidden && document.getElementById("intro").textContent.includes("50% or more")`)
		got := b.js(t, `document.getElementById("intro").textContent`)
		for _, want := range []string{" notes in " + collection + ".", "tag:", "path:", "the chance that its passage answers"} {
			if !strings.Contains(got, want) {
				t.Errorf("the introduction %q says no %q", got, want)
			}
		}
		if b.js(t, `String(document.documentElement.scrollWidth <= innerWidth)`) != "true" {
			t.Errorf("at %d px the start page scrolls sideways", w)
		}
		shot(t, b.ctx, "start-"+map[int64]string{1280: "desktop", 390: "phone"}[w])
	}
	b.search(t, "zebu lantern")
	b.wait(t, "no introduction", `document.getElementById("intro").hidden`)
}

// TestWebPageTrouble: what the page says when a note opened from a result
// has changed or gone since the search, and when the server stops
// answering. The server watches nothing, so the index stays behind.
func TestWebPageTrouble(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		testenv.Absent(t, "%s is missing; install Debian's chromium package to run this test", chromiumPath)
	}
	f := newFixtureWith(t, map[string]string{
		"web/Gone.md":    "# Gone\n\nThe pangolin note that goes.\n",
		"web/Changed.md": "# Changed\n\nThe pangolin note that changes.\n",
	})
	srv, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch")
	b := newBrowser(t, strings.TrimSuffix(base, "/"))
	b.do(t, "open the page", chromedp.Navigate(b.base+"/"))
	b.search(t, "pangolin note")
	if err := os.Remove(filepath.Join(f.vault, "web", "Gone.md")); err != nil {
		t.Fatal(err)
	}
	writeNote(t, filepath.Join(f.vault, "web", "Changed.md"), "# Changed\n\nThe pangolin note that changed, and grew.\n")

	card := func(path string) string {
		return `[...document.querySelectorAll(".result")].find(r => r.querySelector(".path").textContent === ` + jsString(path) + `)`
	}
	notice := `document.getElementById("reader-notice")`
	b.do(t, "open the gone note", chromedp.Evaluate[chromedp.Void](card("web/Gone.md")+`.click()`))
	b.wait(t, "the gone notice", `!`+notice+`.hidden && `+notice+`.textContent.includes("no longer at web/Gone.md")`)
	shot(t, b.ctx, "gone")
	if got := b.js(t, notice+`.querySelector(".detail").textContent`); !strings.Contains(got, "deleted since it was indexed") {
		t.Errorf("the engine's words %q", got)
	}
	if got := b.js(t, `document.getElementById("status").textContent`); got != "" {
		t.Errorf("status %q, want the notice alone", got)
	}
	if got := b.js(t, `document.getElementById("search-again").textContent`); got != "Search again for “pangolin note”" {
		t.Errorf("the link reads %q", got)
	}
	b.do(t, "search again", chromedp.Evaluate[chromedp.Void](`document.getElementById("search-again").click()`))
	b.wait(t, "the search", `document.getElementById("reader").hidden && document.getElementById("q").value === "pangolin note" &&
		document.querySelectorAll(".result").length > 0`)

	// An old link names no query: the note's name is searched for.
	b.do(t, "an old link", chromedp.Evaluate[chromedp.Void](`location.hash = "#/note?path=web%2FGone.md"`))
	b.wait(t, "its link", `document.getElementById("search-again") && document.getElementById("search-again").textContent === "Search again for “Gone”"`)

	b.do(t, "back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	b.wait(t, "the results", `document.querySelectorAll(".result").length > 0 && document.getElementById("reader").hidden`)
	b.do(t, "open the changed note", chromedp.Evaluate[chromedp.Void](card("web/Changed.md")+`.click()`))
	b.wait(t, "the changed note", `document.getElementById("reader-content").textContent.includes("and grew")`)
	if got := b.js(t, `document.getElementById("reader-notice").hidden ? "" : `+notice+`.textContent`); !strings.Contains(got, "changed on disk since it was indexed") {
		t.Errorf("notice %q, want the index behind the note", got)
	}

	srv.stop(t)
	b.do(t, "a search with no server", chromedp.Evaluate[chromedp.Void](`location.hash = "#/search?q=pangolin+again"`))
	b.wait(t, "the message", `document.getElementById("status").textContent.includes("The mdsearch server is not answering: check that `+"`mdsearch serve`"+` is still running") &&
		document.getElementById("retry")`)
	shot(t, b.ctx, "no-server")
}
