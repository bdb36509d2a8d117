package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// fakeClock advances by step at every reading.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(step); return t }
}

func TestTrackerMonotonicWithETA(t *testing.T) {
	// A cold run: 100 files parsed (10 passages, 50 windows each), then
	// 5000 windows embedded.
	var reports []mdsearch.IndexProgress
	for f := 0; f <= 100; f += 10 {
		reports = append(reports, mdsearch.IndexProgress{FilesTotal: 100, FilesDone: f, ChunksTotal: 10 * f, WindowsTotal: 50 * f, WindowsNew: 50 * f})
	}
	for e := 0; e <= 5000; e += 500 {
		reports = append(reports, mdsearch.IndexProgress{FilesTotal: 100, FilesDone: 100, ChunksTotal: 1000, WindowsTotal: 5000,
			WindowsToEmbed: 5000, WindowsEmbedded: e, EmbedsPerSecond: guessEmbedsPerSecond})
	}
	for _, c := range []struct {
		name   string
		embeds bool
		first  int // first report seen (an incremental run starts with files done)
	}{
		{"with embedder", true, 0},
		{"keyword only", false, 0},
		{"unchanged files counted first", true, 3},
	} {
		tr := newTracker(c.embeds, fakeClock(time.Second))
		prev := -1.0
		var lastFiles, lastEmbed progressView
		for _, p := range reports[c.first:] {
			v := tr.view(p)
			if v.Percent < prev || v.Percent > 100 {
				t.Errorf("%s: percent went %.1f → %.1f at %+v", c.name, prev, v.Percent, p)
			}
			prev = v.Percent
			if v.Phase == "files" {
				lastFiles = v
			} else {
				lastEmbed = v
			}
		}
		if lastEmbed.Percent != 100 || lastEmbed.ETA != 0 {
			t.Errorf("%s: end of embedding at %.1f%%, ETA %v", c.name, lastEmbed.Percent, lastEmbed.ETA)
		}
		// Embedding 5000 windows at the guessed rate takes about as long as
		// parsing 100 files at 10/s.
		if c.embeds && (lastFiles.Percent < 40 || lastFiles.Percent > 80) {
			t.Errorf("%s: parsing ends at %.1f%%; want its share of the time", c.name, lastFiles.Percent)
		}
		if !c.embeds && lastFiles.Percent != 100 {
			t.Errorf("%s: parsing ends at %.1f%%; without embedding it is the whole job", c.name, lastFiles.Percent)
		}
	}
}

// Notes cut again whose windows keep their vectors (an index an older
// mdsearch cut) owe the model nothing: the bar follows the files, and the
// ETA the time they take.
func TestTrackerRecut(t *testing.T) {
	tr := newTracker(true, fakeClock(time.Second))
	var v progressView
	for f := 0; f <= 50; f += 10 {
		v = tr.view(mdsearch.IndexProgress{FilesTotal: 100, FilesDone: f, ChunksTotal: 10 * f, WindowsTotal: 50 * f})
	}
	if v.Percent < 45 || v.Percent > 55 || v.ETA > 20*time.Second {
		t.Errorf("half the files cut again: %.1f%%, ETA %v; want about 50%% and the other half's parse time", v.Percent, v.ETA)
	}
}

func TestProgressLineFits(t *testing.T) {
	files := mdsearch.IndexProgress{FilesTotal: 648, FilesDone: 324, ChunksTotal: 9000}
	emb := mdsearch.IndexProgress{FilesTotal: 648, FilesDone: 648, ChunksTotal: 9000, WindowsToEmbed: 9000, WindowsEmbedded: 4100, EmbedsPerSecond: 412}
	fv := progressView{Phase: "files", Percent: 25, ETA: 83 * time.Second}
	ev := progressView{Phase: "embed", Percent: 72.5, ETA: 19 * time.Second}
	for _, c := range []struct {
		p     mdsearch.IndexProgress
		v     progressView
		width int
		want  string
	}{
		{files, fv, 80, "[#######----------------------]  25% · 324/648 files · 9000 passages · ETA 1:23"},
		{files, progressView{Phase: "files", Percent: 0, ETA: -1}, 60, "[--------------------]   0% · 324/648 files · 9000 passages"},
		{emb, ev, 120, "[#####################---------]  72% · 648/648 files · 9000 passages · 4100/9000 embedded · 412/s · ETA 0:19"},
		{emb, ev, 80, "[###########-----]  72% · 648/648 files · 4100/9000 embedded · 412/s · ETA 0:19"},
		{emb, ev, 60, "[########----]  72% · 4100/9000 embedded · 412/s · ETA 0:19"},
		{emb, ev, 40, " 72% · 4100/9000 embedded · ETA 0:19"},
		{emb, ev, 20, " 72% · ETA 0:19"},
		{emb, ev, 4, " 72"},
		{emb, progressView{Phase: "embed", Percent: 99, ETA: 3725 * time.Second}, 40, " 99% · 4100/9000 embedded · ETA 1:02:05"},
	} {
		got := progressLine(c.p, c.v, c.width)
		if got != c.want {
			t.Errorf("width %d:\n got %q\nwant %q", c.width, got, c.want)
		}
		if n := len([]rune(got)); n > c.width-1 {
			t.Errorf("width %d: %d runes", c.width, n)
		}
	}
}

func TestIndexJSONProgress(t *testing.T) {
	noModel(t)
	index := t.TempDir() + "/index.db"
	code, out, errOut := run(t, index, "index", "../sample-vault", "--name", "sample", "--json")
	if code != 0 {
		t.Fatalf("index: %d %s %s", code, out, errOut)
	}
	var st mdsearch.IndexStats
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Files != 6 {
		t.Fatalf("stdout is not the stats: %v\n%s", err, out)
	}
	var events []progressEvent
	sc := bufio.NewScanner(strings.NewReader(errOut))
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), "{") {
			continue // the missing model's notice
		}
		var ev progressEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev.Event != "progress" {
			t.Fatalf("stderr line %q: %v", sc.Text(), err)
		}
		events = append(events, ev)
	}
	if len(events) < 2 {
		t.Fatalf("want progress events on stderr, got:\n%s", errOut)
	}
	// The windows' counts come under their names and their old ones.
	for _, k := range []string{"windows_embedded", "windows_to_embed", "chunks_embedded", "chunks_to_embed"} {
		if !strings.Contains(errOut, `"`+k+`":`) {
			t.Errorf("no %s in the events:\n%s", k, errOut)
		}
	}
	prev := -1.0
	for _, ev := range events {
		if ev.Percent < prev || ev.ETASeconds == nil && ev.Phase == "done" {
			t.Errorf("event %+v after %.1f%%", ev, prev)
		}
		prev = ev.Percent
	}
	if last := events[len(events)-1]; last.Phase != "done" || last.Percent != 100 || last.FilesDone != 6 || last.Collection != "sample" {
		t.Errorf("last event %+v", last)
	}
}

// TestJSONProgressStopped: a run that failed or was interrupted ends its
// progress with phase "stopped" at the percent it reached, not "done" at
// 100 %; a run that never started ends with no event.
func TestJSONProgressStopped(t *testing.T) {
	for _, c := range []struct {
		st    *mdsearch.IndexStats
		err   error
		phase string // of the last event; "" for none
	}{
		{&mdsearch.IndexStats{}, nil, "done"},
		{&mdsearch.IndexStats{Collection: "v", Stopped: true, Embedded: 96}, errors.New("interrupted"), "stopped"},
		{nil, errors.New("no such folder"), ""},
	} {
		var buf bytes.Buffer
		j := &jsonProgress{w: &buf, t: newTracker(false, time.Now)}
		if c.st != nil {
			j.update(mdsearch.IndexProgress{Collection: "v", FilesTotal: 4, FilesDone: 4, WindowsEmbedded: 64})
			buf.Reset()
		}
		j.done(c.st, c.err)
		var ev progressEvent
		if c.phase == "" {
			if buf.Len() != 0 {
				t.Errorf("never started: %s", buf.String())
			}
			continue
		}
		if err := json.Unmarshal(buf.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		// A stopped run's last event counts what its summary does, batches
		// saved after the last report included.
		if ev.Phase != c.phase || c.phase == "stopped" && (ev.Percent >= 100 || ev.ETASeconds != nil || ev.WindowsEmbedded != 96) {
			t.Errorf("err %v: last event %+v", c.err, ev)
		}
	}
}

// Over several collections, each event gives the collection's place; its
// percent is the collection's, elapsed_seconds the job's.
func TestJSONProgressPlace(t *testing.T) {
	var buf bytes.Buffer
	j := &jsonProgress{w: &buf, t: newTracker(false, fakeClock(time.Second))}
	j.t.names = []string{"notes", "rfcs"}
	for _, p := range []mdsearch.IndexProgress{{Collection: "notes", FilesTotal: 2}, {Collection: "notes", FilesTotal: 2, FilesDone: 2},
		{Collection: "rfcs", FilesTotal: 2}, {Collection: "rfcs", FilesTotal: 2, FilesDone: 1}} {
		j.last = time.Time{} // each one an event
		j.update(p)
	}
	var ev progressEvent
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Collection != "rfcs" || ev.CollectionNumber != 2 || ev.Collections != 2 || ev.Percent != 50 || ev.Elapsed < 2 {
		t.Errorf("%s", lines)
	}
}

func TestSummaryNamesEveryCount(t *testing.T) {
	for _, c := range []struct {
		st   mdsearch.IndexStats
		want string
	}{
		{mdsearch.IndexStats{Collection: "notes", Files: 173, Added: 1, Changed: 12, Unchanged: 160, Chunks: 120, Windows: 700, Embedded: 675, Reused: 25,
			Skipped: []mdsearch.FileIssue{{}, {}}, TookMS: 41000},
			"notes: 173 files (1 added, 12 changed, 160 unchanged); 120 passages in 700 windows from the 13 added or changed files (675 embedded now, 25 reused from earlier runs); 2 files skipped; took 41s"},
		{mdsearch.IndexStats{Collection: "v", Files: 6, Unchanged: 5, Deleted: 1, TookMS: 12},
			"v: 6 files (5 unchanged, 1 deleted from the index); nothing to read again; took 12ms"},
		// The first run of `mdsearch index` embeds what every collection's lacks.
		{mdsearch.IndexStats{Collection: "tv", Files: 3, Unchanged: 3, Embedded: 3985, EmbeddedEarlier: 3985, Skipped: []mdsearch.FileIssue{{}}, TookMS: 17698},
			"tv: 3 files (3 unchanged); nothing to read again; 3985 windows that earlier runs left without vectors embedded now, any collection's; 1 file skipped; took 17.698s"},
		// ... and says which windows it embedded were its own.
		{mdsearch.IndexStats{Collection: "sample-vault", Files: 6, Added: 6, Chunks: 28, Windows: 30, Embedded: 2739, EmbeddedEarlier: 2709, TookMS: 9000},
			"sample-vault: 6 files (6 added); 28 passages in 30 windows from the 6 added or changed files (30 embedded now); " +
				"2709 windows that earlier runs left without vectors embedded now, any collection's; took 9s"},
		{mdsearch.IndexStats{Collection: "full", Files: 173, TookMS: 40, Stopped: true}, // a disk full before its first batch
			"full (stopped early): 173 files; stopped before it wrote a note; took 40ms"},
		{mdsearch.IndexStats{Collection: "v", Files: 1, Unchanged: 1, TookMS: 0.3},
			"v: 1 file (1 unchanged); nothing to read again; took <1ms"},
		{mdsearch.IndexStats{Collection: "v", Files: 1, Added: 1, Chunks: 1, Windows: 2, Embedded: 2, TookMS: 1},
			"v: 1 file (1 added); 1 passage in 2 windows from the 1 added or changed file (2 embedded now); took 1ms"},
		{mdsearch.IndexStats{Collection: "b", Files: 112, Added: 112, Chunks: 927, Windows: 7336, Embedded: 7276, TookMS: 66697},
			"b: 112 files (112 added); 927 passages in 7336 windows from the 112 added or changed files (7276 embedded now, 60 repeating another window's text); took 1m6.697s"},
		{mdsearch.IndexStats{Collection: "b", Files: 112, Added: 112, Chunks: 927, Windows: 7336, Embedded: 2000, TookMS: 5000, Stopped: true},
			"b (stopped early): 112 files (112 added); 927 passages in 7336 windows from the 112 added or changed files (2000 embedded now, 5336 not embedded yet); took 5s"},
	} {
		if got := summary(&c.st); got != c.want {
			t.Errorf("summary:\n got %q\nwant %q", got, c.want)
		}
	}
}

// Columns line up on screen when a cell holds characters two columns wide.
func TestPrintTable(t *testing.T) {
	var b strings.Builder
	printTable(&b, [][]string{{"NAME", "N", "ROOT"}, {"中文笔记", "19", "/a"}, {"notes", "6", "/b"}})
	want := "NAME      N   ROOT\n中文笔记  19  /a\nnotes     6   /b\n"
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
	if w := displayWidth("ｄｏｃｋｅｒ e\u0301"); w != 14 {
		t.Errorf("displayWidth = %d, want 14", w)
	}
}

// The time left is estimated from the work left in tokens: a run that
// embeds long texts first, then many short ones, is priced within ±25 %
// from 20 % of the way, with the model's true fixed cost per text from two
// thirds to one and a half times the one assumed, and within 1 % once the
// run has timed it, however far from the guess, where a rate in texts is
// off by twice or more.
func TestEmbedETA(t *testing.T) {
	for _, tt := range []struct {
		name      string
		perText   float64  // the model's true fixed cost of a text, in tokens
		timed     *float64 // IndexProgress.TextTokens
		tolerance float64
	}{
		{"as assumed", guessTextTokens, nil, 0.01},
		{"cheaper texts", guessTextTokens * 2 / 3, nil, 0.25},
		{"dearer texts", guessTextTokens * 3 / 2, nil, 0.25},
		{"timed, nearly free", 3, ptr(3.0), 0.01},
		{"timed, dear", 120, ptr(120.0), 0.01},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lens := longestFirst(2000)
			const tokensPerSecond = 60000.0
			cost := func(n int) float64 { return (float64(n) + tt.perText) / tokensPerSecond }
			p := mdsearch.IndexProgress{WindowsToEmbed: len(lens), TextTokens: tt.timed}
			var total float64
			for _, n := range lens {
				p.TokensToEmbed += n
				total += cost(n)
			}
			elapsed, countOff := 0.0, 0.0
			for i := 0; i < len(lens); i += 64 {
				for _, n := range lens[i:min(i+64, len(lens))] {
					elapsed += cost(n)
					p.WindowsEmbedded++
					p.TokensEmbedded += n
				}
				p.EmbedsPerSecond = float64(p.WindowsEmbedded) / elapsed
				done, eta := embedLeft(p)
				left := total - elapsed
				if done < 0.2 || left < 1 {
					continue
				}
				if off := eta.Seconds()/left - 1; math.Abs(off) > tt.tolerance {
					t.Errorf("at %.0f%%: ETA %.1fs, %.1fs left (%+.0f%%)", 100*done, eta.Seconds(), left, 100*off)
				}
				countOff = math.Max(countOff, float64(p.WindowsToEmbed-p.WindowsEmbedded)/p.EmbedsPerSecond/left)
			}
			if countOff < 2 {
				t.Errorf("a rate in texts is off by at most %.1f times: the test's texts are too even", countOff)
			}
		})
	}
}

// Before the first batch the guessed rate prices the work; texts the
// counter gave no tokens still cost their fixed part.
func TestEmbedETAGuessed(t *testing.T) {
	p := mdsearch.IndexProgress{WindowsToEmbed: 1000, TokensToEmbed: 87000}
	if done, eta := embedLeft(p); done != 0 || eta != 2*time.Second {
		t.Errorf("before a batch: %.2f done, ETA %v; want 0 and 1000 texts at %d/s", done, eta, guessEmbedsPerSecond)
	}
	p = mdsearch.IndexProgress{WindowsToEmbed: 10, WindowsEmbedded: 5, EmbedsPerSecond: 5}
	if done, eta := embedLeft(p); done != 0.5 || eta != time.Second {
		t.Errorf("texts of no tokens: %.2f done, ETA %v", done, eta)
	}
}

// longestFirst is n text lengths in tokens as an index run embeds them:
// longest first, a few near the model's window and many short ones.
func longestFirst(n int) []int {
	lens := make([]int, n)
	for i := range lens {
		x := float64(n-i) / float64(n) // 1 → 0
		lens[i] = 4 + int(500*math.Pow(x, 4))
	}
	return lens
}

// TestEmbedETAFollowsSpeed checks that when the machine's other load
// slows the first half of the embedding and then lifts, the ETA from 70 %
// on follows the new speed (within 25 %), where the run's mean rate would
// over-estimate the time left.
func TestEmbedETAFollowsSpeed(t *testing.T) {
	lens := longestFirst(4000)
	const fast = 6000.0 // tokens a second, once the load lifts (a run of minutes)
	p := mdsearch.IndexProgress{WindowsToEmbed: len(lens)}
	for _, n := range lens {
		p.TokensToEmbed += n
	}
	clock := time.Unix(0, 0)
	tr := newTracker(true, func() time.Time { return clock })
	totalWork := embedWork(p, p.TokensToEmbed, p.WindowsToEmbed)
	var elapsed time.Duration
	meanOff := 0.0
	for i := 0; i < len(lens); i += 64 {
		for _, n := range lens[i:min(i+64, len(lens))] {
			speed := fast
			if embedWork(p, p.TokensEmbedded, p.WindowsEmbedded) < totalWork/2 {
				speed = fast / 3
			}
			d := time.Duration(float64(n+guessTextTokens) / speed * float64(time.Second))
			clock, elapsed = clock.Add(d), elapsed+d
			p.WindowsEmbedded++
			p.TokensEmbedded += n
		}
		p.EmbedsPerSecond = float64(p.WindowsEmbedded) / elapsed.Seconds()
		v := tr.view(p)
		work := embedWork(p, p.TokensEmbedded, p.WindowsEmbedded)
		left := (totalWork - work) / fast
		if work < totalWork*0.7 || left < 1 {
			continue
		}
		if off := v.ETA.Seconds()/left - 1; math.Abs(off) > 0.25 {
			t.Errorf("at %.0f%% of the work: ETA %.1fs, %.1fs left (%+.0f%%)", 100*work/totalWork, v.ETA.Seconds(), left, 100*off)
		}
		_, mean := embedLeft(p)
		meanOff = math.Max(meanOff, mean.Seconds()/left)
	}
	if meanOff < 1.5 {
		t.Errorf("the mean rate is off by at most %.1f times: the test's change of speed is too small", meanOff)
	}
}

func ptr[T any](v T) *T { return &v }

// TestEmbedETATimed: the fixed cost of a text, timed a few batches into
// the run and far from the guess, prices the rest from then on (within
// 5 % from 20 % of the way, though the rate measured so far was taken
// at the guessed price), and the percent never goes back.
func TestEmbedETATimed(t *testing.T) {
	lens := longestFirst(4000)
	const speed, perText = 6000.0, 2.0 // tokens a second; the true fixed cost
	p := mdsearch.IndexProgress{WindowsToEmbed: len(lens)}
	for _, n := range lens {
		p.TokensToEmbed += n
	}
	clock := time.Unix(0, 0)
	tr := newTracker(true, func() time.Time { return clock })
	var total, elapsed float64
	for _, n := range lens {
		total += (float64(n) + perText) / speed
	}
	last := 0.0
	for i := 0; i < len(lens); i += 64 {
		for _, n := range lens[i:min(i+64, len(lens))] {
			d := (float64(n) + perText) / speed
			clock, elapsed = clock.Add(time.Duration(d*float64(time.Second))), elapsed+d
			p.WindowsEmbedded++
			p.TokensEmbedded += n
		}
		if i == 2*64 {
			p.TextTokens = ptr(perText)
		}
		p.EmbedsPerSecond = float64(p.WindowsEmbedded) / elapsed
		v := tr.view(p)
		if v.Percent < last {
			t.Fatalf("percent went back from %.2f to %.2f", last, v.Percent)
		}
		last = v.Percent
		if elapsed < 0.2*total || total-elapsed < 1 {
			continue
		}
		if off := v.ETA.Seconds()/(total-elapsed) - 1; math.Abs(off) > 0.05 {
			t.Errorf("at %.0f%% of the time: ETA %.1fs, %.1fs left (%+.0f%%)", 100*elapsed/total, v.ETA.Seconds(), total-elapsed, 100*off)
		}
	}
}

// Off a terminal, progress is a plain line now and then (every plainEvery),
// never a redraw: a long run in a log or a pipe is not taken for a hung one.
func TestProgressOffTerminal(t *testing.T) {
	for _, tc := range []struct {
		every time.Duration
		lines int
	}{{0, 2}, {time.Hour, 0}} {
		var buf bytes.Buffer
		b := newProgressBar(&Env{Stderr: &buf}, newTracker(false, time.Now))
		b.every = tc.every
		for i := range 2 {
			b.update(mdsearch.IndexProgress{Collection: "notes", FilesTotal: 10, FilesDone: 4 + i})
		}
		b.done(nil, nil)
		out := buf.String()
		if strings.Count(out, "\n") != tc.lines || strings.Contains(out, "\r") || tc.lines > 0 && !strings.Contains(out, "5/10 files") {
			t.Errorf("every %v: %q, want %d lines", tc.every, out, tc.lines)
		}
	}
}

// A job of several collections names the one each line is about, with its
// place, on a terminal and off it; a job of one does not (its command named
// it).
func TestProgressNamesCollection(t *testing.T) {
	for _, colls := range [][]string{{"notes", "rfcs"}, nil} {
		var buf bytes.Buffer
		b := newProgress(&Env{Stderr: &buf}, false, false, colls).(*progressBar)
		b.every = 0
		for _, name := range []string{"notes", "rfcs"} {
			b.update(mdsearch.IndexProgress{Collection: name, FilesTotal: 10, FilesDone: 5})
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		for i, name := range []string{"notes", "rfcs"} {
			named := i < len(lines) && strings.Contains(lines[i], fmt.Sprintf("%% · %s (%d of 2) · 5/10 files", name, i+1))
			if named != (colls != nil) {
				t.Errorf("collections %v: line %d %q names %s: %v", colls, i, lines, name, named)
			}
		}
	}
	emb := mdsearch.IndexProgress{Collection: "rfcs", FilesTotal: 648, FilesDone: 648, WindowsToEmbed: 9000, WindowsEmbedded: 4100, EmbedsPerSecond: 412}
	v := progressView{Phase: "embed", Percent: 72.5, ETA: 19 * time.Second, Collection: "rfcs", Place: 2, Of: 3}
	for width, want := range map[int]string{
		79: "[##########-----]  72% · rfcs (2 of 3) · 4100/9000 embedded · 412/s · ETA 0:19",
		40: " 72% · rfcs (2 of 3) · ETA 0:19", // kept before the counts
		30: " 72%",                            // the collection goes with the ETA, before the percent
	} {
		if got := progressLine(emb, v, width); got != want {
			t.Errorf("width %d:\n got %q\nwant %q", width, got, want)
		}
	}
}

// A job of several collections shows each one's percent, from its start to
// 100 at its end: the next one's files are not counted before its run walks
// them, so no figure for the whole job could be honest. The first must not
// hold the bar at 100 while the second works.
func TestTrackerSeveralCollections(t *testing.T) {
	tr := newTracker(true, fakeClock(time.Second))
	for _, coll := range []string{"notes", "rfcs"} {
		prev := -1.0
		var v progressView
		for f := 0; f <= 10; f += 5 {
			v = tr.view(mdsearch.IndexProgress{Collection: coll, FilesTotal: 10, FilesDone: f, WindowsTotal: 50 * f, WindowsNew: 50 * f})
			if v.Percent < prev {
				t.Errorf("%s: percent went %.1f → %.1f", coll, prev, v.Percent)
			}
			if f == 5 && (v.Percent <= 0 || v.Percent >= 100) {
				t.Errorf("%s: half its files parsed at %.1f%%", coll, v.Percent)
			}
			prev = v.Percent
		}
		for e := 0; e <= 500; e += 250 {
			v = tr.view(mdsearch.IndexProgress{Collection: coll, FilesTotal: 10, FilesDone: 10, WindowsTotal: 500,
				WindowsToEmbed: 500, WindowsEmbedded: e, EmbedsPerSecond: guessEmbedsPerSecond})
			if v.Percent < prev {
				t.Errorf("%s: percent went %.1f → %.1f", coll, prev, v.Percent)
			}
			prev = v.Percent
		}
		if v.Percent != 100 {
			t.Errorf("%s: ends at %.1f%%", coll, v.Percent)
		}
	}
}
