package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// failAfter embeds its first calls, then fails: a run stopped midway.
type failAfter struct {
	*bow
	left int
}

func (f *failAfter) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.left == 0 {
		return nil, errors.New("the model stopped")
	}
	f.left--
	return f.bow.Embed(ctx, texts)
}

// TestPendingNotice: after an index run stopped while embedding, search
// and status say that meaning covers only part of the index and what
// completes it; once a run completes, they no longer do.
func TestPendingNotice(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	path := filepath.Join(t.TempDir(), "index.db")
	e, err := Open(bg, Options{IndexPath: path, Embedder: &failAfter{bow: newBow("bow"), left: 1}, EmbedBatch: 4})
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
	if err == nil || st == nil || !st.Stopped {
		t.Fatalf("the run did not fail, or its stats do not say it stopped: %v, %+v", err, st)
	}
	e.Close()

	e = openEngine(t, path, newBow("bow"))
	notices := func() (string, string) {
		st, err := e.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		return search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice, st.Notice
	}
	sn, stn := notices()
	for _, n := range []string{sn, stn} {
		if !strings.Contains(n, "stopped before it finished") || !strings.Contains(n, "mdsearch index") {
			t.Errorf("notice %q does not say embedding is incomplete and what completes it", n)
		}
	}
	if !strings.Contains(stn, " of ") {
		t.Errorf("status notice %q does not count the vectors", stn)
	}

	// While a run holds the lock (another process's, as far as this
	// engine knows), search and status say one is embedding.
	unlock, err := lockIndex(bg, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	sn, stn = notices()
	unlock()
	for _, n := range []string{sn, stn} {
		if !strings.Contains(n, "another process is embedding") {
			t.Errorf("during a run: notice %q", n)
		}
	}

	index(t, e, vault, "v")
	if sn, stn := notices(); sn != "" || stn != "" {
		t.Errorf("after a complete run: search %q, status %q", sn, stn)
	}
}

// TestKeywordOnlyRunClearsPending: a run that drops the vectors on
// purpose (no model) owes none, so nothing says embedding is unfinished.
func TestKeywordOnlyRunClearsPending(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	path := filepath.Join(t.TempDir(), "index.db")
	e, err := Open(bg, Options{IndexPath: path, Embedder: &failAfter{bow: newBow("bow"), left: 1}, EmbedBatch: 4})
	if err != nil {
		t.Fatal(err)
	}
	e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
	e.Close()
	e, err = Open(bg, Options{IndexPath: path, KeywordOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	index(t, e, vault, "v")
	if st, err := e.Status(bg); err != nil || st.Notice != "" {
		t.Errorf("status notice %q, %v", st.Notice, err)
	}
}

// TestStoppedStatsAreKept: a run interrupted while reading notes reports
// what the index kept, not the notes of the batch it rolled back.
func TestStoppedStatsAreKept(t *testing.T) {
	vault := t.TempDir()
	for i := range 900 {
		write(t, vault, fmt.Sprintf("n%03d.md", i), fmt.Sprintf("# Note %d\n\nSome words about note %d.\n", i, i))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	testHookWritten = func(files int) {
		if files == 300 { // a batch of about 250 notes is committed by then
			cancel()
		}
	}
	defer func() { testHookWritten = nil }()
	st, err := e.Index(ctx, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
	if err == nil || st == nil || !st.Stopped {
		t.Fatalf("the run was not stopped: %v, %+v", err, st)
	}
	s, err := e.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Collections[0]
	if st.Added != c.Files || st.Chunks != c.Chunks || st.Windows != c.Windows || st.Added == 0 || st.Added == 900 || st.Files != 900 {
		t.Errorf("stopped stats: %d files, %d added, %d passages, %d windows; the index kept %d files, %d passages, %d windows",
			st.Files, st.Added, st.Chunks, st.Windows, c.Files, c.Chunks, c.Windows)
	}
}

// TestPendingNoticeOfCollection: a search of one collection hears of an
// unfinished run only where its own windows lack vectors.
func TestPendingNoticeOfCollection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, path, newBow("bow"))
	index(t, e, copyDir(t, "../sample-vault"), "done")
	e.Close()
	stopped, err := Open(bg, Options{IndexPath: path, Embedder: &failAfter{bow: newBow("bow"), left: 0}, EmbedBatch: 4})
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	write(t, other, "Plants.md", "# Plants\n\nWater the basil every morning.\n")
	if st, err := stopped.Index(bg, mdsearch.IndexRequest{Dir: other, Name: "half"}, nil); err == nil || st == nil || !st.Stopped {
		t.Fatalf("the run did not stop: %v", err)
	}
	stopped.Close()

	e = openEngine(t, path, newBow("bow"))
	for _, tc := range []struct {
		collection string
		says       bool
	}{{"", true}, {"half", true}, {"done", false}} {
		n := search(t, e, mdsearch.SearchRequest{Query: "backups", Collection: tc.collection}).Notice
		if says := strings.Contains(n, "meaning covers only the windows embedded so far"); says != tc.says {
			t.Errorf("collection %q: notice %q", tc.collection, n)
		}
	}
}

// TestStoppedRecutOwesNothing: a run stopped while cutting notes again
// whose windows all keep their vectors (an index an older mdsearch cut)
// leaves no notice that meaning covers only part of the index.
func TestStoppedRecutOwesNothing(t *testing.T) {
	vault := t.TempDir()
	for i := range 600 {
		write(t, vault, fmt.Sprintf("n%03d.md", i), fmt.Sprintf("# Note %d\n\nSome words about note %d.\n", i, i))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	colls, err := e.st.Collections(bg)
	if err != nil {
		t.Fatal(err)
	}
	older := strings.Replace(colls[0].Chunking, " v=", " v=1", 1)
	if err := e.st.SetIndexed(bg, colls[0].ID, older, time.Now()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	testHookWritten = func(files int) {
		if files == 300 {
			cancel()
		}
	}
	defer func() { testHookWritten = nil }()
	if st, err := e.Index(ctx, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); err == nil || st == nil || !st.Stopped || st.Recut == 0 {
		t.Fatalf("the re-cut was not stopped midway: %v, %+v", err, st)
	}
	if n := search(t, e, mdsearch.SearchRequest{Query: "note words"}).Notice; strings.Contains(n, "finished embedding") {
		t.Errorf("a stopped re-cut that owes no vector: notice %q", n)
	}
	st, err := e.Status(bg)
	if err != nil || strings.Contains(st.Notice, "finished embedding") {
		t.Errorf("status notice %q, %v", st.Notice, err)
	}
}

// TestKilledRunMarkOwesNothing: a run killed (SIGKILL: no deferred
// cleanup) after every window had its vector leaves the pending mark set;
// a search then says nothing of unfinished embedding, since the windows
// themselves show none missing.
func TestKilledRunMarkOwesNothing(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, copyDir(t, "../sample-vault"), "v")
	if err := e.st.SetMeta(bg, metaPending, "1"); err != nil {
		t.Fatal(err)
	}
	if n := search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice; strings.Contains(n, "finished embedding") {
		t.Errorf("every window has its vector, yet the notice is %q", n)
	}
}

// pauseAfter embeds its first calls, then holds the next one until
// release closes (reached closes when it starts waiting); calls after it
// go through, as a search's query does while the run waits.
type pauseAfter struct {
	*bow
	left             int
	reached, release chan struct{}
}

func (p *pauseAfter) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if p.left == 0 {
		p.left = -1
		close(p.reached)
		select {
		case <-p.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	} else if p.left > 0 {
		p.left--
	}
	return p.bow.Embed(ctx, texts)
}

// TestPendingNoticeWhileIndexing: a search while this process's run is
// still embedding a collection says that meaning covers only part of it,
// and after the run, nothing.
func TestPendingNoticeWhileIndexing(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	emb := &pauseAfter{bow: newBow("bow"), left: 1, reached: make(chan struct{}), release: make(chan struct{})}
	e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "index.db"), Embedder: emb, EmbedBatch: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	done := make(chan error, 1)
	go func() {
		_, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
		done <- err
	}()
	<-emb.reached
	n := search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice
	close(emb.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n, "meaning covers only the windows embedded so far: this process is indexing") {
		t.Errorf("during the run: notice %q", n)
	}
	if n := search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice; strings.Contains(n, "embedded so far") {
		t.Errorf("after the run: notice %q", n)
	}
}

// TestBackFromStoppedSwitch: a run with another model, stopped, then one
// with the index's model again, which owes no vector: the index is that
// model's again, by its name, its vectors counted, its search by meaning.
func TestBackFromStoppedSwitch(t *testing.T) {
	vault, path := bowIndexed(t)
	other, err := Open(bg, Options{IndexPath: path, Embedder: &failAfter{bow: newBow("other"), left: 1}, EmbedBatch: 4})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := other.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); err == nil || st == nil || !st.Stopped {
		t.Fatalf("the switch did not stop: %v", err)
	}
	other.Close()

	e := openEngine(t, path, newBow("bow"))
	if st := index(t, e, vault, "v"); st.Embedded != 0 {
		t.Errorf("the run embedded %d windows: the index held them all", st.Embedded)
	}
	s, err := e.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	if s.ModelID != "bow" || s.Vectors != s.Windows || s.Windows == 0 || s.Notice != "" {
		t.Errorf("status: model %q, %d of %d windows have vectors, notice %q", s.ModelID, s.Vectors, s.Windows, s.Notice)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "backups", Mode: mdsearch.ModeSemantic}); resp.Mode != mdsearch.ModeSemantic || resp.Notice != "" {
		t.Errorf("semantic search: mode %s, notice %q", resp.Mode, resp.Notice)
	}
}

// TestKeepModel: with KeepModel (watch, serve, mcp), a run with another
// embedder than the index's, or none, is refused before anything is
// written, and the index's vectors stay; with the same one it runs. An
// index run without it switches, as `mdsearch index` does.
func TestKeepModel(t *testing.T) {
	vault, path := bowIndexed(t)
	write(t, vault, "new.md", "# New\n\nA note added since.\n")
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"another model", Options{IndexPath: path, Embedder: newBow("other"), KeepModel: true}},
		{"no model", Options{IndexPath: path, KeywordOnly: true, KeepModel: true}},
	} {
		k, err := Open(bg, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := k.CheckModel(bg); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "holds vectors of bow") {
			t.Errorf("%s: CheckModel %v", tc.name, err)
		}
		if _, err := k.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); mdsearch.KindOf(err) != mdsearch.KindInvalid {
			t.Errorf("%s: run not refused: %v", tc.name, err)
		}
		if _, err := k.Refresh(bg, "v", []string{"new.md"}); mdsearch.KindOf(err) != mdsearch.KindInvalid {
			t.Errorf("%s: refresh not refused: %v", tc.name, err)
		}
		k.Close()
	}
	e := openEngine(t, path, newBow("bow"))
	if err := e.CheckModel(bg); err != nil {
		t.Errorf("the index's own model: %v", err)
	}
	s, err := e.Status(bg)
	if err != nil || s.ModelID != "bow" || s.Vectors != s.Windows || s.Files != 6 {
		t.Errorf("after the refused runs: %+v, %v", s, err)
	}
	e.Close()
	k, err := Open(bg, Options{IndexPath: path, Embedder: newBow("bow"), KeepModel: true})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if st, err := k.Refresh(bg, "v", []string{"new.md"}); err != nil || st.Added != 1 {
		t.Errorf("the index's own model, kept: %+v, %v", st, err)
	}
}

// bowIndexed is a copy of the sample vault and its index, embedded by
// newBow("bow"), closed.
func bowIndexed(t *testing.T) (vault, path string) {
	t.Helper()
	vault, path = copyDir(t, "../sample-vault"), filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, path, newBow("bow"))
	index(t, e, vault, "v")
	e.Close()
	return vault, path
}

// A server's embedder whose dimension is not known yet (its probe still
// waits) is checked by its API and model: another model is refused at
// once, so a server's watcher never starts only to have every refresh
// refused; the same model is left to the probe.
func TestKeepModelBeforeDimensionKnown(t *testing.T) {
	vault := copyDir(t, sampleVault)
	path := filepath.Join(t.TempDir(), "index.db")
	e := openEngine(t, path, newBow("ollama:nomic-embed-text@64"))
	index(t, e, vault, "v")
	e.Close()
	down := errors.New("not answered yet")
	for _, tc := range []struct {
		id, want string // want: "" for no error
	}{
		{"ollama:nomic-embed-text@0", ""},
		{"ollama:mxbai-embed-large@0", "and this process has ollama:mxbai-embed-large"},
		{"openai:nomic-embed-text@0", "and this process has openai:nomic-embed-text"},
	} {
		u := &unready{bow: newBow(tc.id)}
		u.set(down)
		k, err := Open(bg, Options{IndexPath: path, Embedder: u, KeepModel: true})
		if err != nil {
			t.Fatal(err)
		}
		err = k.CheckModel(bg)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.id, err)
		case tc.want != "" && (mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), tc.want) ||
			!strings.Contains(err.Error(), "--embedder ollama --embed-model nomic-embed-text")):
			t.Errorf("%s: %v, want it refused naming the index's settings", tc.id, err)
		}
		k.Close()
	}
}

// An index of notes without vectors, opened with an embedder, says that
// keeping it current embeds every note; one with vectors, a new one, or
// one opened keyword-only says nothing.
func TestAdoptNotice(t *testing.T) {
	vault := copyDir(t, sampleVault)
	dir := t.TempDir()
	kw := filepath.Join(dir, "keyword.db")
	k, err := Open(bg, Options{IndexPath: kw, KeywordOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	index(t, k, vault, "v")
	k.Close()
	stopped := filepath.Join(dir, "stopped.db") // a run stopped before its first vector
	s, err := Open(bg, Options{IndexPath: stopped, Embedder: &failAfter{bow: newBow("bow")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); err == nil {
		t.Fatal("the run did not stop")
	}
	s.Close()
	_, embedded := bowIndexed(t)
	for _, tc := range []struct {
		name, path string
		opts       Options
		want       bool
	}{
		{"keyword-only index, an embedder", kw, Options{Embedder: newBow("bow")}, true},
		{"stopped before embedding, an embedder", stopped, Options{Embedder: newBow("bow")}, true},
		{"keyword-only index, none", kw, Options{KeywordOnly: true}, false},
		{"embedded index", embedded, Options{Embedder: newBow("bow")}, false},
		{"new index", filepath.Join(dir, "new.db"), Options{Embedder: newBow("bow")}, false},
	} {
		tc.opts.IndexPath = tc.path
		e, err := Open(bg, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		got := e.AdoptNotice(bg)
		why := "it was indexed for keyword search only"
		if tc.path == stopped {
			why = "the run that was to embed them stopped first"
		}
		if (got != "") != tc.want || tc.want && (!strings.Contains(got, "embeds every note with bow") || !strings.Contains(got, why)) {
			t.Errorf("%s: %q", tc.name, got)
		}
		e.Close()
	}
}

// A run stopped while embedding with a server's model is completed with
// that embedder's settings: a bare `mdsearch index` would embed anew with
// the local model and drop the server's vectors.
func TestCompleting(t *testing.T) {
	for model, want := range map[string]string{
		"openai:e3@64":            "`mdsearch index --embedder openai --embed-model e3`, with --embed-url where it is not the default, completes it",
		"ollama:nomic-embed-text": "`mdsearch index --embedder ollama --embed-model nomic-embed-text`, with --embed-url where it is not the default, completes it",
		"use-lite-0.2.0-int8-row": "`mdsearch index` completes it",
		"":                        "`mdsearch index` completes it",
	} {
		if got := completing(model); got != want {
			t.Errorf("completing(%q) = %q, want %q", model, got, want)
		}
	}
}

// Under a watcher of this process, which indexes again by itself, the
// notices of vectors not embedded yet say this process embeds them, not
// that a run of index is owed.
func TestPendingNoticeCatchingUp(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	path := filepath.Join(t.TempDir(), "index.db")
	e, err := Open(bg, Options{IndexPath: path, Embedder: &failAfter{bow: newBow("bow"), left: 1}, EmbedBatch: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); err == nil {
		t.Fatal("the run did not stop")
	}
	e.Close()
	e = openEngine(t, path, newBow("bow"))
	e.SetCatchingUp(true)
	st, err := e.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice, st.Notice} {
		if !strings.Contains(n, "this process embeds the rest") || strings.Contains(n, "mdsearch index") {
			t.Errorf("notice %q: want this process to embed the rest, no command", n)
		}
	}

	// A keyword-only index: its vectors come from this process too.
	path = filepath.Join(t.TempDir(), "keywords.db")
	index(t, openEngine(t, path, nil), vault, "v")
	e = openEngine(t, path, newBow("bow"))
	e.SetCatchingUp(true)
	if n := search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice; !strings.Contains(n, "this process embeds them") {
		t.Errorf("keyword-only index: notice %q", n)
	}

	// An index held by a run (of another process) that has not stored its
	// first vectors yet: that run embeds them, no other is owed.
	e = openEngine(t, filepath.Join(t.TempDir(), "held.db"), newBow("bow"))
	index(t, openEngine(t, e.st.Path(), nil), vault, "v")
	if err := os.WriteFile(e.st.Path()+".lock", []byte(fmt.Sprintf("mdsearch pid %d\n", os.Getpid())), 0o644); err != nil {
		t.Fatal(err)
	}
	// A keyword-only run holding it embeds nothing.
	if n := search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice; strings.Contains(n, "an index run is writing the index now") || !strings.Contains(n, "mdsearch index") {
		t.Errorf("index held by a keyword-only run: notice %q", n)
	}
	if err := e.st.SetMeta(bg, metaPending, "1"); err != nil { // as a run with a model marks it
		t.Fatal(err)
	}
	if n := search(t, e, mdsearch.SearchRequest{Query: "backups"}).Notice; !strings.Contains(n, "an index run is writing the index now") || strings.Contains(n, "mdsearch index") {
		t.Errorf("index held by a run: notice %q", n)
	}
}

// A first run that wrote windows and no vector yet is said running while
// a run holds the lock (another process's, as far as this engine knows),
// and stopped once none does: never keyword-only.
func TestStatusEmbedRunning(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	path := filepath.Join(t.TempDir(), "index.db")
	e, err := Open(bg, Options{IndexPath: path, Embedder: &failAfter{bow: newBow("bow"), left: 0}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); err == nil {
		t.Fatal("the run did not fail")
	}
	unlock, err := lockIndex(bg, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	during, err := e.Status(bg)
	unlock()
	if err != nil {
		t.Fatal(err)
	}
	after, err := e.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	if during.ModelID != "" || during.EmbedRunning != "bow" || during.EmbedStopped != "" {
		t.Errorf("during a run: model %q, running %q, stopped %q", during.ModelID, during.EmbedRunning, during.EmbedStopped)
	}
	if after.EmbedRunning != "" || after.EmbedStopped != "bow" {
		t.Errorf("after it: running %q, stopped %q", after.EmbedRunning, after.EmbedStopped)
	}
}
