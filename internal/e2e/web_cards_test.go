package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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
		"see [Foo](https://en.example/Foo_(bar)) and [a](b)":            "see Foo and a",
		"[click me](javascript:alert(3)) link":                          "click me link",
		"![img](x.png) [[Note#Part|alias]] (aside)":                     "img alias (aside)",
		"> [!faq]- Folded\n> A block paragraph. ^blk1":                  "> Folded\n> A block paragraph.",
		"> [!tip]\n> > Never ==water== at noon.\n>\n> Why.\n> ^qb":      "> Never water at noon.\n\n> Why.",
		"- a list\n\n^list-1\n\nAfter, a == b.":                         "- a list\n\nAfter, a == b.",
		"```\nif x==1 and y==2:\n```\nSee `a==b || c==d` and ==this==.": "if x==1 and y==2:\nSee a==b || c==d and this.",
		// Inline HTML as the note's page shows it: tags omitted, an image by
		// its alt text; a code span's tags, an autolink and a comparison stay.
		"<div class=\"options-api\">\n\nUse <span class=\"x\">`<KeepAlive>`</span> here.\n\n</div>":                     "Use <KeepAlive> here.",
		"A <img src=\"a.png\" alt=\"the diagram\" width=\"40\"> and <img src='b.png'>, <https://x.example>, a < b > c.": "A the diagram and , <https://x.example>, a < b > c.",
		// A fenced div's marker lines go, its title stays.
		"::: tip Read this\nBody.\n:::\n\n:::danger[Breaking]\nMore.\n:::": "Read this\nBody.\n\nBreaking\nMore.",
		"```\n::: tip\n<b>x</b>\n```":                                      "::: tip\n<b>x</b>",
	} {
		if got := b.js(t, "plainMarkdown("+jsString(md)+")"); got != want {
			t.Errorf("plainMarkdown(%q) = %q, want %q", md, got, want)
		}
	}
	// As a card reads a passage: its wrapped lines joined first, a fenced
	// div's marker lines kept apart so that they go.
	for md, want := range map[string]string{
		"Intro.\n::: warning\nBody.\n:::":                                           "Intro.\nBody.",
		"::: tip Read this\nBody\nwrapped.\n:::\n\n:::danger[Breaking]\nMore.\n:::": "Read this\nBody wrapped.\n\nBreaking\nMore.",
	} {
		if got := b.js(t, "plainMarkdown(joinSoftBreaks("+jsString(md)+"))"); got != want {
			t.Errorf("plainMarkdown(joinSoftBreaks(%q)) = %q, want %q", md, got, want)
		}
	}
}
