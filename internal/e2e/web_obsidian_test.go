package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"maps"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// obsidianNote is a note of the Obsidian syntax the page acts on: a link
// to a block far down another note, a tag, an image from the vault.
const obsidianNote = "# Obsidian\n\nSee [[Blocks#^far-block]] for the wombat block, tagged #wombat/notes.\n\n" +
	"A wombat drawn: ![[wombat.png|40]]\n"

// wombatPNG is a 2×2 PNG in an assets folder, which the note embeds by
// its name.
var wombatPNG = func() string {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		panic(err)
	}
	return b.String()
}()

// blocksNote holds a block id below a screen of text.
var blocksNote = "# Blocks\n\n" + strings.Repeat("Filler paragraph about nothing in particular.\n\n", 60) +
	"The far wombat paragraph. ^far-block\n\nAfter it.\n"

// A block reference opens the note at the block it names, marked.
func webBlockLink(t *testing.T, b browser) {
	b.open(t, "#/note?path=web%2FObsidian.md", "wombat")
	b.do(t, "click the block link", chromedp.Evaluate[chromedp.Void](`document.querySelector("#reader-content a.wikilink").click()`))
	b.wait(t, "the block marked", `(document.querySelector("#reader-content .block-target") || {}).id === "^far-block"`)
	b.wait(t, "the block on screen", inView("#reader-content .block-target"))
	if got := b.js(t, `document.querySelector("#reader-content .block-target").textContent`); got != "The far wombat paragraph." {
		t.Errorf("block shown as %q", got)
	}
}

// A tag in a note searches the notes with that tag for the words in the
// box, or lists them when the box is empty.
func webTagChip(t *testing.T, b browser) {
	b.search(t, "zebu lantern")
	b.open(t, "#/note?path=web%2FObsidian.md", "wombat")
	b.do(t, "click the tag", chromedp.Evaluate[chromedp.Void](`document.querySelector("#reader-content a.tag").click()`))
	b.wait(t, "a search in the tag", `document.getElementById("tag").value === "wombat/notes" && !document.getElementById("results").hidden &&
		new URLSearchParams(location.hash.split("?")[1]).get("tag") === "wombat/notes" &&
		new URLSearchParams(location.hash.split("?")[1]).get("q") === "zebu lantern"`)
	b.open(t, "#/note?path=web%2FObsidian.md", "wombat")
	b.do(t, "no words, then the tag", chromedp.Evaluate[chromedp.Void](`document.getElementById("q").value = ""; document.querySelector("#reader-content a.tag").click()`))
	if got := b.js(t, `String(operatorsOnly('tag:a -[x:y] path:"a b" file:c') && operatorsOnly("tag:a (path:b OR path:c)") && !operatorsOnly("tag:a bread") && !operatorsOnly("bread") && operatorsOnly('tag:a -draft -"new tab"') && operatorsOnly("-brouillon") && !operatorsOnly("bread -rye") && !operatorsOnly("tag:a -la") && operatorsOnly("tag:a -draft, -cafe\u0301") && !operatorsOnly('-"?"') && !operatorsOnly("-plug*") && operatorsOnly("task-todo:") && operatorsOnly('task-done:"" tag:a') && !operatorsOnly("task-todo:call") && !operatorsOnly("task:x"))`); got != "true" {
		t.Errorf("operatorsOnly tells operators alone from a search: %s", got)
	}
	b.wait(t, "the tag's notes listed", `/^1 note matches tag "wombat\/notes", listed by path.* · \d+ ms$/.test(document.getElementById("status").textContent) &&
		[...document.querySelectorAll(".result .path")].map(p => p.textContent).join() === "web/Obsidian.md" &&
		!document.querySelector(".result .score") && document.getElementById("intro").hidden`)
	b.do(t, "clear the tag", chromedp.Evaluate[chromedp.Void](`location.hash = "#/search"`))
	b.wait(t, "no tag", `document.getElementById("tag").value === ""`)
}

// An image a note embeds is served from the vault and shown, at the width
// the embed gives.
func webImageEmbed(t *testing.T, b browser) {
	b.open(t, "#/note?path=web%2FObsidian.md", "wombat")
	b.wait(t, "the image loaded", `(() => { const i = document.querySelector("#reader-content img.attachment");
		return i && i.complete && i.naturalWidth === 2 && i.getAttribute("width") === "40"; })()`)
	if got := b.js(t, `document.querySelector("#reader-content img.attachment").getAttribute("src")`); got != "/api/v1/attachments/web/assets/wombat.png?collection=vault" {
		t.Errorf("image src %q", got)
	}
}

// withLedger is notes with a folder of more notes than a list shows at
// once (mdsearch.MaxN), for webMoreNotes.
func withLedger(notes map[string]string) map[string]string {
	out := maps.Clone(notes)
	for i := range ledgerNotes {
		out[fmt.Sprintf("ledger/Entry %02d.md", i+1)] = fmt.Sprintf("---\ntags: [quokka]\n---\n# Entry %02d\n\nA quokka ledger entry, number %d.\n", i+1, i+1)
	}
	out["ledger/Entry 53.md"] += "\n- [ ] file the receipt\n" // the one a negated task operator leaves out
	return out
}

const ledgerNotes = 53

// A list longer than a page shows 50 notes and offers the rest: "More
// notes" adds them below the first, and selects the first it added.
func webMoreNotes(t *testing.T, b browser) {
	b.do(t, "list the ledger", chromedp.Evaluate[chromedp.Void](`location.hash = "#/search?q=" + encodeURIComponent("path:ledger/")`))
	b.wait(t, "the first 50 listed", `document.querySelectorAll(".result").length === 50 &&
		/^53 notes match path has "ledger\/": the first 50 by path/.test(document.getElementById("status").textContent) &&
		!document.getElementById("more").hidden && document.getElementById("more").textContent === "More notes (50 of 53 shown)"`)
	b.do(t, "more notes", chromedp.Evaluate[chromedp.Void](`document.getElementById("more").click()`))
	b.wait(t, "the rest added", `document.querySelectorAll(".result").length === 53 && document.getElementById("more").hidden &&
		document.querySelectorAll(".result .path")[50].textContent === "ledger/Entry 51.md" &&
		document.querySelectorAll(".result")[50].getAttribute("aria-selected") === "true" &&
		/^all 53 notes shown · 53 notes match .*notes 51-53 by path, the last of them/.test(document.getElementById("status").textContent)`)
	b.search(t, "zebu lantern")
	b.wait(t, "no more for a search", `document.getElementById("more").hidden`)
	// A negated task operator beside a folder lists the notes without
	// such a task, 50 at a time too.
	b.do(t, "the ledger without open tasks", chromedp.Evaluate[chromedp.Void](`location.hash = "#/search?q=" + encodeURIComponent("path:ledger/ -task-todo:")`))
	b.wait(t, "52 of them, the first 50 listed", `document.querySelectorAll(".result").length === 50 &&
		/^52 notes match .*"-task-todo:".*: the first 50 by path/.test(document.getElementById("status").textContent) &&
		document.getElementById("more").textContent === "More notes (50 of 52 shown)"`)
	// A note's frontmatter tags are links too, under its properties.
	b.open(t, "#/note?path=ledger%2FEntry%2007.md", "number 7")
	b.do(t, "no words, then the frontmatter tag", chromedp.Evaluate[chromedp.Void](`document.getElementById("q").value = ""; document.querySelector("#reader-content p.tags a.tag").click()`))
	b.wait(t, "the tag's notes listed", `/^53 notes match tag "quokka": the first 50 by path/.test(document.getElementById("status").textContent)`)
	// A list asked last changed first, and back by path.
	b.do(t, "last changed first", chromedp.Evaluate[chromedp.Void](`document.getElementById("order").click()`))
	b.wait(t, "the list last changed first", `/^53 notes match tag "quokka": the first 50, last changed first/.test(document.getElementById("status").textContent) &&
		location.hash.includes("sort=modified") && document.querySelector(".result .meta").textContent.includes(" · changed 20") &&
		document.getElementById("order").textContent === "By path"`)
	// The order outlives a search, and operators the engine reads as words
	// search, asked without it.
	b.search(t, "[nosuch:quokka]")
	b.wait(t, "a search, not a refusal", `!document.getElementById("status").classList.contains("error") &&
		/ · (hybrid|keyword) · /.test(document.getElementById("status").textContent)`)
	b.do(t, "no words", chromedp.Evaluate[chromedp.Void](`(() => { const q = document.getElementById("q");
		q.value = ""; q.dispatchEvent(new Event("input", {bubbles: true})); })()`))
	b.wait(t, "the list last changed first still", `/^53 notes match tag "quokka": the first 50, last changed first/.test(document.getElementById("status").textContent)`)
	b.do(t, "by path", chromedp.Evaluate[chromedp.Void](`document.getElementById("order").click()`))
	b.wait(t, "the list by path again", `/^53 notes match tag "quokka": the first 50 by path/.test(document.getElementById("status").textContent) &&
		!location.hash.includes("sort=") && !document.querySelector(".result .meta").textContent.includes("changed")`)
	b.search(t, "zebu lantern")
	b.wait(t, "no order for a search", `document.getElementById("order").hidden`)
}

// Under a note, the places in other notes that link to it, each opening
// that note at its line.
func webLinkedFrom(t *testing.T, b browser) {
	b.open(t, "#/note?path=web%2FBlocks.md", "wombat")
	b.wait(t, "the places that link to it", `!document.getElementById("linked-from").hidden`)
	if got := b.js(t, `document.querySelector("#linked-from h2").textContent + " | " + document.querySelector("#linked-from a").textContent`); got != "Linked from 1 place in 1 note | web/Obsidian.md › Obsidian" {
		t.Errorf("linked from: %q", got)
	}
	b.do(t, "click the place", chromedp.Evaluate[chromedp.Void](`document.querySelector("#linked-from a").click()`))
	b.wait(t, "the linking line marked", `(document.querySelector("#reader-content .hit") || {textContent: ""}).textContent.includes("See Blocks")`)
	b.wait(t, "no place links to it", `document.getElementById("linked-from").hidden`)
}
