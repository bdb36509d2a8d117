package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
)

// guessEmbedsPerSecond prices the embedding still to come before the model
// has run: about what USE-lite (int8) does on two cores, in windows a
// second (565 on the Rust RFCs, docs/benchmarks.md). Once embedding starts
// the measured rate replaces it.
const guessEmbedsPerSecond = 500

// guessTextTokens is what the model's time for a text beyond its tokens
// is worth, in tokens (the sequence's fixed layers, the vector's write),
// until the run has timed it (IndexProgress.TextTokens): between the
// machines measured, 0–20 on AVX2 and about 80 with VNNI.
const guessTextTokens = 40

// embedWork is the embedding's cost in tokens, each text's fixed part
// included.
func embedWork(p mdsearch.IndexProgress, tokens, texts int) float64 {
	k := float64(guessTextTokens)
	if p.TextTokens != nil {
		k = *p.TextTokens
	}
	return float64(tokens) + k*float64(texts)
}

// tracker turns the engine's progress reports into one figure for each
// collection: files parsed, then texts embedded, each share weighted by its
// estimated time. The percent never goes down within a collection; a job of
// several starts again at the next one, whose files are not counted before
// its run walks them (named, with its place, so the drop reads as a new
// collection).
type tracker struct {
	now      func() time.Time
	embeds   bool      // an embedder runs after parsing
	began    time.Time // the job's start
	start    time.Time // the collection's
	base     int       // files already done at the first report: unchanged, no work
	embedAt  float64   // percent shown when embedding began; -1 before
	last     float64   // highest percent shown so far
	observed bool
	samples  []workSample // embedding work done, as reports came, the last stretch's
	embedGo  time.Time    // the first embedding report
	coll     string       // the collection reported on
	names    []string     // the job's collections, where it has several: the line names each, with its place
}

// workSample is the embedding done at one report, priced by embedWork
// when the rate is taken: the price of a text may be timed in between.
type workSample struct {
	at            time.Time
	tokens, texts int
}

// recentShare is the part of the embedding's time so far over which the
// rate is measured: the machine's other load changes the speed, so the
// rate of the last stretch predicts the next better than the run's mean.
const recentShare = 8

func newTracker(embeds bool, now func() time.Time) *tracker {
	t := &tracker{now: now, embeds: embeds, start: now(), embedAt: -1}
	t.began = t.start
	return t
}

// progressView is the collection's state, as the bar and JSON events show it.
type progressView struct {
	Phase   string        // "files", "embed" or "done"
	Percent float64       // 0–100
	ETA     time.Duration // < 0: unknown
	// Collection is the one being indexed where the job has several,
	// else "": a job of one was named by its command. Place is its
	// number among the job's Of collections, 0 if not among them.
	Collection string
	Place, Of  int
}

// view folds one report into the collection's percent and estimated time
// left.
func (t *tracker) view(p mdsearch.IndexProgress) progressView {
	if t.observed && p.Collection != t.coll { // the next collection: its own figure from 0
		*t = tracker{now: t.now, embeds: t.embeds, began: t.began, start: t.now(), embedAt: -1, names: t.names}
	}
	t.coll = p.Collection
	if !t.observed {
		t.observed, t.base = true, p.FilesDone
	}
	var v progressView
	if p.WindowsToEmbed > 0 {
		v = t.embedView(p)
	} else {
		v = t.filesView(p)
	}
	v.Percent = math.Min(100, math.Max(v.Percent, t.last))
	t.last = v.Percent
	if len(t.names) > 1 {
		v.Collection = p.Collection
		v.Place, v.Of = t.place(p.Collection)
	}
	return v
}

// place is a collection's number among the job's of, 0 if not among them.
func (t *tracker) place(name string) (n, of int) {
	return slices.Index(t.names, name) + 1, len(t.names)
}

// filesView estimates the parse time from the files done so far and the
// embedding time from the chunks they produced, priced at the guessed rate.
func (t *tracker) filesView(p mdsearch.IndexProgress) progressView {
	v := progressView{Phase: "files", ETA: -1}
	work := p.FilesTotal - t.base
	if work <= 0 {
		return v
	}
	f := float64(p.FilesDone-t.base) / float64(work)
	if f <= 0 {
		return v
	}
	elapsed := t.now().Sub(t.start).Seconds()
	parse := elapsed / f
	embed := 0.0
	if t.embeds {
		embed = float64(p.WindowsNew) / f / guessEmbedsPerSecond // windows without a vector are what the model embeds
	}
	share := 1.0
	if parse+embed > 0 {
		share = parse / (parse + embed)
	}
	v.Percent = 100 * f * share
	v.ETA = seconds(parse - elapsed + embed)
	return v
}

// embedView spreads the rest of the bar, from where parsing left it, over
// the tokens to embed.
func (t *tracker) embedView(p mdsearch.IndexProgress) progressView {
	if t.embedAt < 0 {
		t.embedAt = t.last
	}
	done, eta := embedLeft(p)
	if rate, ok := t.recentRate(p); ok {
		total := embedWork(p, p.TokensToEmbed, p.WindowsToEmbed)
		eta = seconds(total * (1 - done) / rate)
	}
	return progressView{Phase: "embed", Percent: t.embedAt + (100-t.embedAt)*done, ETA: eta}
}

// recentRate is the embedding work done a second over the last
// 1/recentShare of the embedding's time so far (at least minRecent); ok is
// false until that stretch is long enough to measure.
func (t *tracker) recentRate(p mdsearch.IndexProgress) (rate float64, ok bool) {
	const minRecent = 5 * time.Second
	now, work := t.now(), embedWork(p, p.TokensEmbedded, p.WindowsEmbedded)
	if len(t.samples) == 0 {
		t.embedGo = now
	}
	t.samples = append(t.samples, workSample{now, p.TokensEmbedded, p.WindowsEmbedded})
	span := max(now.Sub(t.embedGo)/recentShare, minRecent)
	i := 0
	for i < len(t.samples)-1 && now.Sub(t.samples[i+1].at) >= span {
		i++
	}
	t.samples = t.samples[i:] // older ones are never needed again
	from := t.samples[0]
	was := embedWork(p, from.tokens, from.texts)
	if d := now.Sub(from.at); d >= minRecent && work > was {
		return (work - was) / d.Seconds(), true
	}
	return 0, false
}

// embedLeft is the share of the embedding done and the time it still
// takes, by embedWork: texts go longest first, so the texts left are
// shorter than those done, and a rate in texts would price them at the
// long ones' speed (twice the time left at half way on the Rust RFCs).
// Before a batch is done the guessed rate prices them.
func embedLeft(p mdsearch.IndexProgress) (done float64, eta time.Duration) {
	total := embedWork(p, p.TokensToEmbed, p.WindowsToEmbed)
	work := embedWork(p, p.TokensEmbedded, p.WindowsEmbedded)
	rate := total / float64(p.WindowsToEmbed) * guessEmbedsPerSecond
	if p.EmbedsPerSecond > 0 && p.WindowsEmbedded > 0 {
		rate = work / (float64(p.WindowsEmbedded) / p.EmbedsPerSecond) // the work over the time it took
	}
	return work / total, seconds((total - work) / rate)
}

// snapshotView is the view of one report seen alone (`status`, from another
// process): the current phase's own percent, and an ETA once embedding runs.
func snapshotView(p mdsearch.IndexProgress) progressView {
	if p.WindowsToEmbed > 0 {
		done, eta := embedLeft(p)
		v := progressView{Phase: "embed", Percent: 100 * done, ETA: -1}
		if p.EmbedsPerSecond > 0 {
			v.ETA = eta
		}
		return v
	}
	v := progressView{Phase: "files", ETA: -1}
	if p.FilesTotal > 0 {
		v.Percent = 100 * float64(p.FilesDone) / float64(p.FilesTotal)
	}
	return v
}

func seconds(s float64) time.Duration {
	return time.Duration(math.Max(s, 0) * float64(time.Second))
}

// progressLine renders a report as one line of at most width-1 runes:
// "[####----]  52% · notes · 340/648 files · 9000 chunks · 4100/9000
// embedded · 412/s · ETA 0:19", the collection named where v names it
// ("notes (2 of 3)" with its place).
// When the line does not fit, the least useful parts go first (the chunk
// count, the other phase's count, the bar, the rate, then the collection
// with the ETA), never the percent.
func progressLine(p mdsearch.IndexProgress, v progressView, width int) string {
	parts := lineParts(p, v)
	limit := max(width-1, 0)
	for drop := barRank + 3; drop > 0; drop-- {
		var keep []string
		for _, pt := range parts {
			if pt.rank < drop {
				keep = append(keep, pt.text)
			}
		}
		text := strings.Join(keep, " · ")
		room := limit - len([]rune(text))
		switch {
		case barRank < drop && room >= minBar+3:
			return bar(v.Percent, min(room-3, maxBar)) + " " + text
		case barRank >= drop && room >= 0:
			return text
		}
	}
	return string([]rune(parts[0].text)[:min(limit, len([]rune(parts[0].text)))])
}

// linePart is one piece of a progress line; lower ranks are kept longer.
type linePart struct {
	text string
	rank int
}

// The bar's rank among the parts, and its size between the brackets.
const (
	barRank = 4
	minBar  = 10
	maxBar  = 30
)

func lineParts(p mdsearch.IndexProgress, v progressView) []linePart {
	parts := []linePart{{fmt.Sprintf("%3.0f%%", v.Percent), 0}}
	if v.Place > 0 {
		parts = append(parts, linePart{fmt.Sprintf("%s (%d of %d)", v.Collection, v.Place, v.Of), 1})
	} else if v.Collection != "" {
		parts = append(parts, linePart{v.Collection, 1})
	}
	files := fmt.Sprintf("%d/%d %s", p.FilesDone, p.FilesTotal, plural.Noun(p.FilesTotal, "file", "files"))
	if v.Phase == "embed" {
		parts = append(parts, linePart{files, 5}, linePart{plural.Count(p.ChunksTotal, "passage", "passages"), 6},
			linePart{fmt.Sprintf("%d/%d embedded", p.WindowsEmbedded, p.WindowsToEmbed), 2},
			linePart{fmt.Sprintf("%.0f/s", p.EmbedsPerSecond), 3})
	} else {
		parts = append(parts, linePart{files, 2}, linePart{plural.Count(p.ChunksTotal, "passage", "passages"), 6})
	}
	if v.ETA >= 0 && v.Phase != "done" {
		parts = append(parts, linePart{"ETA " + clock(v.ETA), 1})
	}
	return parts
}

// bar draws "[####----]" with n runes between the brackets.
func bar(percent float64, n int) string {
	fill := min(n, int(percent/100*float64(n)))
	return "[" + strings.Repeat("#", fill) + strings.Repeat("-", n-fill) + "]"
}

// clock formats a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// progressSink shows indexing progress somewhere.
type progressSink interface {
	update(mdsearch.IndexProgress)
	done(st *mdsearch.IndexStats, err error) // st nil: the run never started
}

// newProgress picks the sink: JSON lines on stderr for programs, a bar on
// a terminal's stderr for people, a line now and then otherwise. colls are
// the job's collections where it indexes them all (nil for one): with
// several, the line names the one it is on and its place among them (JSON
// events always name it).
func newProgress(env *Env, asJSON, embeds bool, colls []string) progressSink {
	t := newTracker(embeds, time.Now)
	t.names = colls
	if asJSON {
		return &jsonProgress{w: env.Stderr, t: t}
	}
	return newProgressBar(env, t)
}

// progressBar draws the job's progress on a terminal (stderr), refitted to
// the terminal's current width at every redraw; elsewhere (a log, a pipe)
// it writes the same as a line every plainEvery, so a long run is not
// taken for a hung one.
type progressBar struct {
	w     io.Writer
	t     *tracker
	width func() int
	last  time.Time
	drawn bool
	every time.Duration // off a terminal: how often a line is written
}

// plainEvery is how often a run off a terminal says how far it is: never
// for a run shorter than that.
const plainEvery = 30 * time.Second

func newProgressBar(env *Env, t *tracker) *progressBar {
	b := &progressBar{w: env.Stderr, t: t, last: time.Now(), every: plainEvery}
	if on, _ := isTerminal(env.Stderr); on {
		b.width = func() int { _, w := isTerminal(env.Stderr); return w }
	}
	return b
}

// update redraws at most ten times a second, off a terminal writes a
// line every b.every.
func (b *progressBar) update(p mdsearch.IndexProgress) {
	v := b.t.view(p) // every report counts toward the estimates
	if b.width == nil {
		if time.Since(b.last) >= b.every {
			b.last = time.Now()
			fmt.Fprintln(b.w, progressLine(p, v, 100))
		}
		return
	}
	if time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	fmt.Fprint(b.w, "\r\033[K"+progressLine(p, v, b.width()))
	b.drawn = true
}

// done clears the bar.
func (b *progressBar) done(*mdsearch.IndexStats, error) {
	if b.drawn {
		fmt.Fprint(b.w, "\r\033[K")
	}
}

// progressEvent is one JSON line of `index --json` progress on stderr.
type progressEvent struct {
	Event      string   `json:"event"` // "progress"
	Phase      string   `json:"phase"` // files, embed, done
	Percent    float64  `json:"percent"`
	ETASeconds *float64 `json:"eta_seconds"`     // null when unknown
	Elapsed    float64  `json:"elapsed_seconds"` // since the run began, to check the ETA against
	// The collection's place among the job's, for `index` alone over
	// several: percent and ETA are the collection's.
	CollectionNumber int `json:"collection_number,omitempty"`
	Collections      int `json:"collections,omitempty"`
	mdsearch.IndexProgress
}

// jsonProgress writes a progress event a line, at most ten a second plus
// every change of phase and a last one at 100%.
type jsonProgress struct {
	w     io.Writer
	t     *tracker
	last  time.Time
	phase string
	p     mdsearch.IndexProgress
}

func (j *jsonProgress) update(p mdsearch.IndexProgress) {
	v := j.t.view(p)
	j.p = p
	if v.Phase == j.phase && time.Since(j.last) < 100*time.Millisecond {
		return
	}
	j.last, j.phase = time.Now(), v.Phase
	j.emit(v)
}

// done ends with a last event at 100%, or, for a run that failed or was
// interrupted, one of phase "stopped" at the percent it reached.
func (j *jsonProgress) done(st *mdsearch.IndexStats, err error) {
	switch {
	case st == nil:
	case err == nil:
		j.emit(progressView{Phase: "done", Percent: 100})
	default:
		if st.Collection == j.p.Collection && st.Embedded > j.p.WindowsEmbedded {
			// Batches saved after the last report count: the event
			// agrees with the summary's "embedded now".
			j.p.WindowsEmbedded, j.p.ChunksEmbedded = st.Embedded, st.Embedded
		}
		v := j.t.view(j.p)
		v.Phase, v.ETA = "stopped", -1
		j.emit(v)
	}
}

func (j *jsonProgress) emit(v progressView) {
	ev := progressEvent{Event: "progress", Phase: v.Phase, Percent: math.Round(v.Percent*10) / 10, IndexProgress: j.p,
		Elapsed: math.Round(j.t.now().Sub(j.t.began).Seconds()*10) / 10}
	if len(j.t.names) > 1 {
		ev.CollectionNumber, ev.Collections = j.t.place(j.p.Collection)
	}
	if v.ETA >= 0 && v.Phase != "done" {
		s := math.Round(v.ETA.Seconds()*10) / 10
		ev.ETASeconds = &s
	} else if v.Phase == "done" {
		zero := 0.0
		ev.ETASeconds = &zero
	}
	b, _ := json.Marshal(ev)
	fmt.Fprintf(j.w, "%s\n", b)
}
