package notehtml

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// Hostile notes render in bounded time: goldmark pairs emphasis markers
// in time quadratic in their number.
func TestHostileNoteRendersQuickly(t *testing.T) {
	cases := []struct{ name, body string }{
		{"alternating * and _", strings.Repeat("*a_", 133000)},
		{"alternating ** and __", strings.Repeat("**a__", 80000)},
		{"strikethrough runs", strings.Repeat("~a~~", 100000)},
		{"open brackets", strings.Repeat("[", 200000) + strings.Repeat("]", 200000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte("# E\n\n" + c.body + "\n")
			start := time.Now()
			r := HTML(src, Options{})
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("rendering took %v", d)
			}
			if !strings.Contains(r.HTML, "<h1") || len(r.HTML) < len(c.body)/2 {
				t.Errorf("rendered %d bytes: %.200s", len(r.HTML), r.HTML)
			}
		})
	}
}

// The emphasis guard leaves ordinary emphasis alone.
func TestDelimiterGuardKeepsEmphasis(t *testing.T) {
	src := strings.Repeat("*a* ", maxDelimiters/2) + "**b**\n"
	if got := HTML([]byte(src), Options{}).HTML; strings.Count(got, "<em>") != maxDelimiters/2 || strings.Contains(got, "<strong>") {
		t.Errorf("first %d runs: %d <em>, <strong> %v", maxDelimiters, strings.Count(got, "<em>"), strings.Contains(got, "<strong>"))
	}
	if got := HTML([]byte("*a* **b** ~~c~~\n"), Options{}).HTML; !strings.Contains(got, "<em>a</em> <strong>b</strong> <del>c</del>") {
		t.Errorf("got %s", got)
	}
}

// A reader who leaves stops the rendering: HTMLContext looks at its
// context between blocks.
func TestRenderStopsWhenCancelled(t *testing.T) {
	var b strings.Builder
	para := strings.Repeat("Some *text* with [a link](x.md) and `code`. ", 8)
	for b.Len() < MaxRenderSize-1000 {
		b.WriteString("## Heading\n\n" + para + "\n\n- a\n- b\n\n")
	}
	src := []byte(b.String())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := HTMLContext(ctx, src, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: err %v", err)
	}
	start := time.Now()
	full, err := HTMLContext(context.Background(), src, Options{})
	whole := time.Since(start)
	if err != nil || !strings.Contains(full.HTML, "<h2") {
		t.Fatalf("uncancelled: err %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(whole/4, cancel)
	start = time.Now()
	if _, err := HTMLContext(ctx, src, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled during: err %v (whole render %v)", err, whole)
	}
	t.Logf("whole render %v, cancelled one stopped after %v", whole, time.Since(start))
}

// A note that would cost too much to parse is shown as its text: 2 MiB of
// headings, of list items or of nested quotes.
func TestCostlyNoteShownAsText(t *testing.T) {
	for _, line := range []string{"# h\n", "- item\n", strings.Repeat("> ", 60) + "x\n"} {
		src := []byte(strings.Repeat(line, MaxRenderSize/len(line)))
		start := time.Now()
		r := HTML(src, Options{})
		if !strings.Contains(r.HTML, "too many headings, list items or nested quotes") || !strings.Contains(r.HTML, "<pre>") {
			t.Errorf("%q: got %.200s", line, r.HTML)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q: %v to show as text", line, d)
		}
	}
}

// A note over MaxRenderSize is shown as its text, escaped, with a notice.
func TestTooBigNoteShownAsText(t *testing.T) {
	src := []byte("# Big <b>\n\n" + strings.Repeat("x", MaxRenderSize))
	r := HTML(src, Options{})
	if !strings.Contains(r.HTML, `class="render-notice"`) || !strings.Contains(r.HTML, "<pre># Big &lt;b&gt;") || strings.Contains(r.HTML, "<h1") {
		t.Errorf("got %.300s", r.HTML)
	}
}

// Fenced divs nested thousands deep (8 bytes a level) render in bounded
// time: past maxFencedDepth a marker line is text. goldmark copies its
// stack of open blocks a line, so depth cost the square of the size.
func TestDeepFencedDivsRenderQuickly(t *testing.T) {
	src := []byte("# Nested\n" + strings.Repeat("::: tip\n", 10000) + "text\n")
	start := time.Now()
	r := HTML(src, Options{})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("rendering took %v", d)
	}
	if n := strings.Count(r.HTML, `class="callout"`); n != maxFencedDepth {
		t.Errorf("%d callouts, want %d", n, maxFencedDepth)
	}
}
