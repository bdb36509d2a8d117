package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
)

// progressBar draws indexing progress on a terminal (stderr) and does
// nothing elsewhere, so piped output stays clean.
type progressBar struct {
	w     io.Writer
	width int
	on    bool
	last  time.Time
	drawn bool
}

func newProgressBar(env *Env) *progressBar {
	on, width := isTerminal(env.Stderr)
	return &progressBar{w: env.Stderr, width: width, on: on}
}

// update redraws at most ten times a second.
func (b *progressBar) update(p mdsearch.IndexProgress) {
	if !b.on || time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	line := progressLine(p, b.width)
	fmt.Fprint(b.w, "\r\033[K"+line)
	b.drawn = true
}

// done clears the bar.
func (b *progressBar) done() {
	if b.drawn {
		fmt.Fprint(b.w, "\r\033[K")
	}
}

// progressLine renders "[####----]  52% 340/648 files · 9000 chunks ·
// 4100/9000 embedded · 412/s · ETA 0:19", cut to width.
func progressLine(p mdsearch.IndexProgress, width int) string {
	var frac float64
	var eta string
	if p.ChunksToEmbed > 0 {
		frac = float64(p.ChunksEmbedded) / float64(p.ChunksToEmbed)
		if p.EmbedsPerSecond > 0 {
			left := time.Duration(float64(p.ChunksToEmbed-p.ChunksEmbedded) / p.EmbedsPerSecond * float64(time.Second))
			eta = " · ETA " + clock(left)
		}
	} else if p.FilesTotal > 0 {
		frac = float64(p.FilesDone) / float64(p.FilesTotal)
	}
	text := fmt.Sprintf("%3.0f%% %d/%d files · %d chunks", frac*100, p.FilesDone, p.FilesTotal, p.ChunksTotal)
	if p.ChunksToEmbed > 0 {
		text += fmt.Sprintf(" · %d/%d embedded · %.0f/s%s", p.ChunksEmbedded, p.ChunksToEmbed, p.EmbedsPerSecond, eta)
	}
	if width >= 60 {
		const bar = 16
		fill := int(frac * bar)
		text = "[" + strings.Repeat("#", fill) + strings.Repeat("-", bar-fill) + "] " + text
	}
	if r := []rune(text); len(r) > width-1 {
		text = string(r[:max(width-1, 0)])
	}
	return text
}

// clock formats a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
