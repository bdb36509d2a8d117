package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// siteNote links other notes as a docs site does (a page's .html, a path
// from the site's root, "./name" without .md), a heading of its own by its
// words alone, and hides a hit and a block in a folded callout.
const siteNote = "# Site\n\n" +
	"The okapi links [the drill](../homelab/Backups.html#restore-drill), [backups](/homelab/Backups) and [the quokka](./Quokka), " +
	"and [[#How large can it be|its size]].\n\n" +
	"## How large can it be?\n\nOkapi sizes.\n\n" +
	"> [!faq]- Folded okapi\n> The hidden okapi answer. ^okapi-fact\n"

// webSiteLinks: a docs site's links open their notes on the page, as read
// resolves them; a heading named by its words (its "?" left out) is found;
// a hit or a block link in a folded callout opens it; the status line of a search comes
// back with its results; and Back returns to an earlier search.
func webSiteLinks(t *testing.T, b browser) {
	for _, tc := range []struct{ text, path, target string }{
		{"the drill", "homelab/Backups.md", "restore-drill"},
		{"backups", "homelab/Backups.md", ""},
		{"the quokka", "web/Quokka.md", ""},
	} {
		b.open(t, "#/note?path=web%2FSite.md", "okapi")
		b.do(t, "click "+tc.text, chromedp.Evaluate[chromedp.Void](
			`[...document.querySelectorAll("#reader-content a")].find(a => a.textContent === `+jsString(tc.text)+`).click()`))
		b.wait(t, tc.path, `(document.querySelector("#reader-title .path") || {}).textContent === `+jsString(tc.path))
		if tc.target != "" {
			b.wait(t, "its section", `document.querySelector("#reader-content .target") && document.querySelector("#reader-content .target").id === `+jsString(tc.target))
		}
	}

	b.open(t, "#/note?path=web%2FSite.md", "okapi")
	b.do(t, "click its size", chromedp.Evaluate[chromedp.Void](
		`[...document.querySelectorAll("#reader-content a")].find(a => a.textContent === "its size").click()`))
	b.wait(t, "the heading", `document.querySelector("#reader-content .target") && document.querySelector("#reader-content .target").id === "how-large-can-it-be"`)
	if got := b.js(t, `String(document.getElementById("reader-notice").hidden)`); got != "true" {
		t.Errorf("a notice says the heading is missing: %q", b.js(t, `document.getElementById("reader-notice").textContent`))
	}

	b.open(t, "#/note?path=web%2FSite.md&block=okapi-fact", "okapi")
	b.wait(t, "the callout open at the block", `document.querySelector("#reader-content .block-target") && document.querySelector("#reader-content .block-target").closest("details.callout").open`)

	b.do(t, "home", chromedp.Navigate(b.base+"/"))
	b.search(t, "hidden okapi answer")
	b.wait(t, "its status", `document.getElementById("status").textContent.includes("results")`)
	status := b.js(t, `document.getElementById("status").textContent`)
	b.do(t, "open the first result", chromedp.Click(chromedp.CSS("#result-0 .text")))
	b.wait(t, "the callout open at the hit", `document.querySelector("#reader-content details.callout.hit") && document.querySelector("#reader-content details.callout.hit").open`)
	b.do(t, "Esc", press(kb.Escape))
	b.wait(t, "results again", `document.getElementById("reader").hidden && document.querySelectorAll(".result").length > 0`)
	if got := b.js(t, `document.getElementById("status").textContent`); got != status || !strings.Contains(got, "result") {
		t.Errorf("status back from the note %q, before it %q", got, status)
	}
	// A search after a note opened from one has a history entry of its
	// own: Back returns to the search before it.
	b.search(t, "zebu lantern")
	b.do(t, "back", chromedp.NavigateBack())
	b.wait(t, "the search before", `document.getElementById("q").value === "hidden okapi answer" && document.querySelectorAll(".result").length > 0`)
}
