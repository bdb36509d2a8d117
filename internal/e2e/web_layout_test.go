package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// layoutNote has a heading between screens of text, a table whose
// columns are aligned, and a tag too long for a phone's width.
var layoutNote = "# Layout\n\n" + strings.Repeat("Okapi filler paragraph of the layout note.\n\n", 60) +
	"## Far okapi heading\n\nThe okapi section's text.\n\n| left | middle | right |\n|:--|:-:|--:|\n| a | b | c |\n\n" +
	"#an-okapi-tag-far-too-long-for-the-narrow-screen-of-a-phone-held-upright\n\n" +
	strings.Repeat("Okapi tail paragraph, so the heading can scroll to the top.\n\n", 40)

// A jump to a heading stops below the sticky header, whatever its height
// (it wraps on a phone): it used to stop under it.
func webHeaderClear(t *testing.T, b browser) {
	for _, w := range []int64{1100, 390} {
		b.do(t, "the width", chromedp.EmulateViewport(w, 844))
		b.do(t, "leave the note", chromedp.Evaluate[chromedp.Void](`location.hash = "#/search"`))
		b.open(t, "#/note?path=web%2FLayout.md&id=far-okapi-heading", "Okapi")
		b.wait(t, "the heading below the header", headingClear)
	}
	b.do(t, "the desktop width", chromedp.EmulateViewport(1100, 900))
}

// headingClear tests that the far heading is on screen below the header.
const headingClear = `(() => { const h = document.getElementById("far-okapi-heading");
	const bar = document.querySelector("header"); if (!h || !bar) return false;
	const top = h.getBoundingClientRect().top;
	return top >= bar.getBoundingClientRect().bottom - 1 && top < innerHeight; })()`

// Aligned table columns keep their alignment: a style attribute, which the
// page's policy blocks, left every column to the left.
func webTableAlign(t *testing.T, b browser) {
	b.open(t, "#/note?path=web%2FLayout.md", "Okapi")
	got := b.js(t, `[...document.querySelectorAll("#reader-content th")].map(c => getComputedStyle(c).textAlign).join(",")`)
	if got != "left,center,right" {
		t.Errorf("header cells aligned %s, want left,center,right", got)
	}
}

// At a phone's width nothing scrolls sideways: the filters, a result list
// and a note with a long tag fit the screen.
func webPhoneWidth(t *testing.T, b browser) {
	b.do(t, "a phone's width", chromedp.EmulateViewport(390, 844))
	defer b.do(t, "the desktop width", chromedp.EmulateViewport(1100, 900))
	fits := `document.documentElement.scrollWidth <= innerWidth`
	b.search(t, "okapi filler")
	b.wait(t, "results that fit", fits)
	b.open(t, "#/note?path=web%2FLayout.md", "Okapi")
	b.wait(t, "a note that fits", fits)
}

// A link naming a heading's text opens the section's heading, as read
// reads it, not a heading of that text inside a quote before it.
func webNestedHeading(t *testing.T, b browser) {
	b.open(t, "#/note?path=web%2FNested.md&heading=Setup", "gnu")
	if h := b.js(t, `location.hash`); !strings.Contains(h, "id=setup") || strings.Contains(h, "id=setup-1") {
		t.Errorf("heading=Setup opened %s, want the section's heading (id=setup)", h)
	}
}
