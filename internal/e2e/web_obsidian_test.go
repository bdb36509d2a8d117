package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// obsidianNote is a note of the Obsidian syntax the page acts on: a link
// to a block far down another note.
const obsidianNote = "# Obsidian\n\nSee [[Blocks#^far-block]] for the wombat block.\n"

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
