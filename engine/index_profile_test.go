package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/sections"
)

// A collection keeps the cut profile it was indexed with: runs that name
// none (index again, index every collection, a watcher's refresh) keep it,
// and naming another re-cuts every note.
func TestCollectionProfile(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	e := openEngine(t, t.TempDir()+"/index.db", newBow("bow"))
	profile := func() string {
		t.Helper()
		s, err := e.Status(bg)
		if err != nil || len(s.Collections) != 1 {
			t.Fatalf("status: %v %+v", err, s)
		}
		return s.Collections[0].Profile
	}
	run := func(req mdsearch.IndexRequest) *mdsearch.IndexStats {
		t.Helper()
		st, err := e.Index(bg, req, nil)
		if err != nil {
			t.Fatalf("index %+v: %v", req, err)
		}
		return st
	}
	for _, step := range []struct {
		name      string
		do        func() *mdsearch.IndexStats
		want      string
		recut     bool // every note cut again
		passages0 bool // no passage written
	}{
		{"new, default", func() *mdsearch.IndexStats { return run(mdsearch.IndexRequest{Dir: vault, Name: "v"}) }, "sections", false, false},
		{"h2h3 asked", func() *mdsearch.IndexStats {
			return run(mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: "h2h3"})
		}, "h2h3", true, false},
		{"again, none named", func() *mdsearch.IndexStats { return run(mdsearch.IndexRequest{Dir: vault, Name: "v"}) }, "h2h3", false, true},
		{"by name", func() *mdsearch.IndexStats { return run(mdsearch.IndexRequest{Name: "v"}) }, "h2h3", false, true},
		{"every collection", func() *mdsearch.IndexStats {
			all, err := e.IndexAll(bg, false, nil)
			if err != nil || len(all) != 1 {
				t.Fatalf("IndexAll: %v", err)
			}
			return all[0]
		}, "h2h3", false, true},
		{"a watcher's refresh", func() *mdsearch.IndexStats {
			st, err := e.Refresh(bg, "v", []string{"homelab/Backups.md"})
			if err != nil {
				t.Fatal(err)
			}
			return st
		}, "h2h3", false, true},
		{"sections asked", func() *mdsearch.IndexStats {
			return run(mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: "sections"})
		}, "sections", true, false},
	} {
		st := step.do()
		if got := profile(); got != step.want {
			t.Errorf("%s: profile %q, want %q", step.name, got, step.want)
		}
		if recut := st.Recut > 0 && st.Recut == st.Files; recut != step.recut {
			t.Errorf("%s: %d of %d notes cut again; want every one: %v", step.name, st.Recut, st.Files, step.recut)
		}
		if (st.Chunks == 0) != step.passages0 {
			t.Errorf("%s: %d passages written", step.name, st.Chunks)
		}
	}
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: "h2"}, nil); mdsearch.KindOf(err) != mdsearch.KindInvalid {
		t.Errorf("an unknown profile: %v", err)
	}
}

// A profile of Options.Profiles cuts the collections indexed with it, and
// they keep it as they keep chunks' own.
func TestCustomProfile(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	whole := func(doc *sections.Document, o chunks.Options) []mdsearch.Chunk {
		return chunks.Split(doc, chunks.Options{Profile: chunks.ProfileH2H3, PassageWords: 100000, Counter: o.Counter, MaxTokens: o.MaxTokens})[:1]
	}
	e, err := Open(bg, Options{IndexPath: t.TempDir() + "/index.db", Profiles: map[string]func(*sections.Document, chunks.Options) []mdsearch.Chunk{"first": whole}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tt := range []struct {
		profile string
		recut   int
	}{{"first", 0}, {"", 0}, {"sections", 6}, {"first", 6}} {
		st, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: tt.profile}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := e.Status(bg)
		want := tt.profile
		if want == "" {
			want = "first"
		}
		if got := s.Collections[0].Profile; got != want || st.Recut != tt.recut {
			t.Errorf("profile %q: status %q, %d notes cut again; want %q, %d", tt.profile, got, st.Recut, want, tt.recut)
		}
		if want == "first" && s.Chunks != s.Collections[0].Files {
			t.Errorf("profile %q: %d passages for %d notes; want the custom cut's one a note", tt.profile, s.Chunks, s.Collections[0].Files)
		}
	}
	if got := e.ProfileNames(); strings.Join(got, ",") != "sections,h2h3,first" {
		t.Errorf("profile names %v", got)
	}
}

// A run that cuts notes with another profile, stopped half way through
// its notes, leaves the next run to cut every note again: a plain run
// after it, which keeps the collection's old profile, gives what a clean
// index gives, not some notes cut the stopped run's way.
func TestStoppedProfileChange(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	for i := range 1200 { // over batchRows of rows: a batch commits before the stop
		write(t, vault, fmt.Sprintf("more/n%03d.md", i), fmt.Sprintf("# N%d\n\n## A\n\n### A1\n\n%s\n\n### A2\n\n%s\n", i,
			strings.Repeat("alpha words here. ", 30), strings.Repeat("beta words there. ", 30)))
	}
	passages := func(e *Engine) int {
		t.Helper()
		s, err := e.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		return s.Chunks
	}
	clean := openEngine(t, t.TempDir()+"/clean.db", newBow("bow"))
	index(t, clean, vault, "v")
	e := openEngine(t, t.TempDir()+"/index.db", newBow("bow"))
	index(t, e, vault, "v")
	if st, err := e.Index(stopAtCommit(t, e), mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: "h2h3"}, nil); err == nil || st.Recut == 0 {
		t.Fatalf("the run was not stopped part way: %v, %+v", err, st)
	}
	if got, want := passages(e), passages(clean); got == want {
		t.Fatalf("stopped run: %d passages, as many as the clean index: it shows nothing", got)
	}
	recut := func() bool {
		t.Helper()
		s, err := e.Status(bg)
		if err != nil || len(s.Collections) != 1 {
			t.Fatalf("status: %v", err)
		}
		return s.Collections[0].RecutStopped
	}
	if !recut() {
		t.Error("status does not say the re-cut was stopped")
	}
	st := index(t, e, vault, "v")
	if recut() {
		t.Error("status still says the re-cut was stopped after a run cut every note")
	}
	if got, want := passages(e), passages(clean); got != want || st.Recut == 0 {
		t.Errorf("after a plain run: %d passages (%d cut again), want the clean index's %d", got, st.Recut, want)
	}
}

// stopAtCommit is a context that ends once e's index commits after the
// call: a run given it stops after its first batch of writes, wherever
// its workers, which cut notes ahead of the writer, have got to.
func stopAtCommit(t *testing.T, e *Engine) context.Context {
	t.Helper()
	from, err := e.st.Generation(bg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	t.Cleanup(cancel)
	go func() {
		for ctx.Err() == nil {
			if gen, err := e.st.Generation(bg); err == nil && gen != from {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	return ctx
}

// A first run stopped part way leaves the next run to add the notes it
// did not read, not to cut again those it stored; a next run with another
// profile cuts them all. Either way the index ends as a clean one.
func TestStoppedFirstRun(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	for i := range 1200 { // over batchRows of rows: a batch commits before the stop
		write(t, vault, fmt.Sprintf("more/n%03d.md", i), fmt.Sprintf("# N%d\n\n## A\n\n%s\n\n### A2\n\n%s\n", i,
			strings.Repeat("alpha words here. ", 30), strings.Repeat("beta words there. ", 30)))
	}
	for _, profile := range []string{"", "h2h3"} {
		clean := openEngine(t, t.TempDir()+"/clean.db", newBow("bow"))
		if _, err := clean.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: profile}, nil); err != nil {
			t.Fatal(err)
		}
		e := openEngine(t, t.TempDir()+"/index.db", newBow("bow"))
		first, err := e.Index(stopAtCommit(t, e), mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
		if err == nil || first == nil || first.Added == 0 || first.Added == first.Files {
			t.Fatalf("the first run was not stopped part way: %v, %+v", err, first)
		}
		// Meanwhile status and a search say the notes are not all read,
		// however strong the search's best result.
		if s, err := e.Status(bg); err != nil || !s.Collections[0].Unfinished || s.EmbedStopped != e.emb.ModelID() {
			t.Errorf("status after the stop: %v, %+v", err, s)
		}
		resp := search(t, e, mdsearch.SearchRequest{Query: "alpha words", Mode: mdsearch.ModeKeyword, N: 3})
		if len(resp.Results) == 0 || !strings.Contains(resp.Notice, `the first index run of collection "v" was stopped before it read every note`) {
			t.Errorf("search after the stop: notice %q, %d results", resp.Notice, len(resp.Results))
		}
		st, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: profile}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := clean.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		if s.Collections[0].Unfinished {
			t.Errorf("profile %q: status says unfinished after a run that read every note", profile)
		}
		wantRecut := 0
		if profile != "" {
			wantRecut = first.Added
		}
		if st.Recut != wantRecut || st.Added+st.Recut != st.Files-first.Added+wantRecut || s.Chunks != cs.Chunks {
			t.Errorf("profile %q: second run added %d and cut again %d of %d notes (first added %d); %d passages, clean %d",
				profile, st.Added, st.Recut, st.Files, first.Added, s.Chunks, cs.Chunks)
		}
		resp = search(t, e, mdsearch.SearchRequest{Query: "alpha words", Mode: mdsearch.ModeKeyword, N: 3})
		if strings.Contains(resp.Notice, "first index run") {
			t.Errorf("profile %q: notice after the run finished: %q", profile, resp.Notice)
		}
	}
}

// A first run stopped right after it made its collection, before it
// marked its first run, keeps the profile it was given: the next run,
// which names none, cuts with it.
func TestStoppedAtCollectionMade(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	e := openEngine(t, t.TempDir()+"/index.db", newBow("bow"))
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	collectionMade = cancel // as Ctrl-C there
	_, err := e.Index(ctx, mdsearch.IndexRequest{Dir: vault, Name: "v", Profile: "h2h3"}, nil)
	collectionMade = nil
	if err == nil {
		t.Fatal("the run was not stopped")
	}
	s, err := e.Status(bg)
	if err != nil || len(s.Collections) != 1 || s.Collections[0].Profile != "h2h3" || !s.Collections[0].Unfinished {
		t.Fatalf("after the stop: %v, %+v", err, s)
	}
	index(t, e, vault, "v")
	if s, err = e.Status(bg); err != nil || s.Collections[0].Profile != "h2h3" || s.Collections[0].Unfinished {
		t.Errorf("the next run: %v, %+v", err, s.Collections)
	}
}

// A first run stopped right after it made its collection keeps the size
// limit it was given, as it keeps its profile: the next run, which names
// none, skips what that limit skips, not the default's.
func TestStoppedAtCollectionMadeKeepsLimit(t *testing.T) {
	vault := copyDir(t, "../sample-vault")
	write(t, vault, "big.md", "# Big\n\n"+strings.Repeat("word ", 400)+"\n")
	dbPath := t.TempDir() + "/index.db"
	small, err := Open(bg, Options{IndexPath: dbPath, MaxFileSize: 1800})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	collectionMade = cancel // as Ctrl-C there
	_, err = small.Index(ctx, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
	collectionMade = nil
	small.Close()
	if err == nil {
		t.Fatal("the run was not stopped")
	}
	e := openEngine(t, dbPath, nil) // no limit of its own
	if st := index(t, e, vault, "v"); len(st.Skipped) != 1 || st.Skipped[0].Path != "big.md" {
		t.Errorf("the next run skipped %+v; want big.md, over the first run's limit", st.Skipped)
	}
}
