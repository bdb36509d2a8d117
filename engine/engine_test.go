package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/store"
)

func TestSearchModes(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	st := index(t, e, vault, "sample")
	if st.Files != 6 || st.Added != 6 || st.Embedded == 0 || len(st.Skipped) != 0 {
		t.Fatalf("stats: %+v", st)
	}
	// The top hit is the passage holding the section: its own, or one the
	// passage covers because a stub merged forward into it (Sourdough's
	// short intro carries Starter Maintenance).
	cases := []struct {
		mode          mdsearch.Mode
		q             string
		path, section string
	}{
		{mdsearch.ModeKeyword, "stretch and folds", "kitchen/Sourdough.md", "Bulk Fermentation"},
		{mdsearch.ModeKeyword, `"grey liquid" hooch`, "kitchen/Sourdough.md", "Starter Maintenance"},
		{mdsearch.ModeSemantic, "whole rye flour wild yeast", "kitchen/Sourdough.md", "Rye Starter"},
		{mdsearch.ModeHybrid, "how often to feed the starter", "kitchen/Sourdough.md", "Starter Maintenance"},
		{mdsearch.ModeHybrid, "Dutch oven lid", "kitchen/Sourdough.md", "Baking"},
	}
	for _, c := range cases {
		resp := search(t, e, mdsearch.SearchRequest{Query: c.q, Mode: c.mode})
		if resp.Mode != c.mode || len(resp.Results) == 0 || !covers(resp.Results[0], c.path, c.section) {
			t.Errorf("%s %q: mode %s, got\n%swant first %s > %s", c.mode, c.q, resp.Mode, describe(resp), c.path, c.section)
			continue
		}
		r := resp.Results[0]
		if r.Score <= 0 || r.Score > 1 || r.Collection != "sample" || r.Title == "" || r.TotalChunks == 0 ||
			r.PageWordCount == 0 || r.StartLine == 0 || r.EndLine < r.StartLine || r.Text == "" {
			t.Errorf("%s %q: incomplete result %+v", c.mode, c.q, r)
		}
		if (r.Distance == nil) != (c.mode == mdsearch.ModeKeyword) {
			t.Errorf("%s: distance %v", c.mode, r.Distance)
		}
		for i, r := range resp.Results {
			if r.Score < 0 || r.Score > 1 || (i > 0 && r.Score > resp.Results[i-1].Score) {
				t.Errorf("%s %q: score %v at %d, out of 0–1 or out of order", c.mode, c.q, r.Score, i)
			}
		}
	}

	// Scores are not rescaled to the query's best hit: the first stage's
	// hybrid score of a passage is 0.6 × s / (s + 8) for its bm25
	// magnitude s, plus 0.4 × its semantic score as semantic mode shows
	// it. Keyword mode shows t / (t + 4) for t = s × cover / √terms, so s
	// is read back from it (cover is 1: the vault holds every term). The
	// second stage rescores keyword mode with any embedder, so these are
	// read from an engine without it.
	e, err := Open(bg, Options{IndexPath: e.opts.IndexPath, Embedder: e.opts.Embedder, ReadOnly: true, FirstStageOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	const q = "whole rye flour wild yeast" // 5 terms
	kwPart := func(shown float64) float64 {
		s := math.Sqrt(5) * DefaultFusion.KeywordOnlyHalf * shown / (1 - shown)
		return s / (s + DefaultFusion.BM25Half)
	}
	hybrid := search(t, e, mdsearch.SearchRequest{Query: q, N: 50, MaxPerPage: 5})
	kw := search(t, e, mdsearch.SearchRequest{Query: q, N: 50, MaxPerPage: 5, Mode: mdsearch.ModeKeyword})
	sem := search(t, e, mdsearch.SearchRequest{Query: q, N: 50, MaxPerPage: 5, Mode: mdsearch.ModeSemantic})
	scoreOf := func(resp *mdsearch.SearchResponse, r mdsearch.Result) float64 {
		for _, x := range resp.Results {
			if x.Path == r.Path && x.ChunkIndex == r.ChunkIndex && x.ChunkEnd == r.ChunkEnd {
				return x.Score
			}
		}
		return 0
	}
	top := hybrid.Results[0]
	if top.Score >= 1 || top.Score <= 0 {
		t.Errorf("hybrid top score %v: want within (0, 1), not rescaled to 1", top.Score)
	}
	if want := 0.6*kwPart(scoreOf(kw, top)) + 0.4*scoreOf(sem, top); math.Abs(top.Score-want) > 5e-4 {
		t.Errorf("hybrid score %v, want 0.6 × keyword %v + 0.4 × semantic %v = %v",
			top.Score, kwPart(scoreOf(kw, top)), scoreOf(sem, top), want)
	}
}

// TestEveryResultSectionReads checks that a result's labelled section
// reads, that the passage starts in it, and that its lines are covered by
// the reads of the sections it lists: its own alone, or for a passage that
// stub sections merged into, the union of every section in Sections.
func TestEveryResultSectionReads(t *testing.T) {
	vault := copyDir(t, testenv.NeedCorpora(t, "obsidian-help", "en"))
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "help")
	n, merged, bridged := 0, 0, 0
	for _, q := range []string{"link to a heading", "sync", "canvas", "plugins", "callout", "graph view", "templates", "daily notes", "search operators"} {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic} {
			resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mode, N: 20, MaxPerPage: 5})
			for _, r := range resp.Results {
				own, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path, Section: strings.Join(r.SectionPath, "/"), Full: true})
				if err != nil {
					t.Errorf("read %s --section %q: %v", r.Path, strings.Join(r.SectionPath, "/"), err)
					continue
				}
				n++
				if own.StartLine > r.StartLine || own.EndLine < r.StartLine {
					t.Errorf("%s %v: passage starts at line %d, outside its section's lines %d-%d",
						r.Path, r.SectionPath, r.StartLine, own.StartLine, own.EndLine)
				}
				spans := [][2]int{{own.StartLine, own.EndLine}}
				if len(r.Sections) > 0 {
					merged++
					if !slices.Equal(r.Sections[0], r.SectionPath) || len(r.Sections) < 2 {
						t.Errorf("%s %v: Sections %v must list its own section first, and more than one", r.Path, r.SectionPath, r.Sections)
					}
					for _, p := range r.Sections[1:] {
						got, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path, Section: strings.Join(p, "/"), Full: true})
						if err != nil {
							t.Errorf("read %s --section %q (covered by %v): %v", r.Path, strings.Join(p, "/"), r.SectionPath, err)
							continue
						}
						spans = append(spans, [2]int{got.StartLine, got.EndLine})
					}
				}
				whole, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path, Full: true})
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(whole.Content, "\n")
				if r.ChunkEnd > r.ChunkIndex { // neighbours joined: the note's own lines, blank ones included
					bridged++
					if want := strings.TrimSpace(strings.Join(lines[r.StartLine-1:r.EndLine], "\n")); strings.TrimSpace(r.Text) != want {
						t.Errorf("%s: joined passages %d-%d read\n%q\nnot the note's lines %d-%d\n%q", r.Path, r.ChunkIndex, r.ChunkEnd, r.Text, r.StartLine, r.EndLine, want)
					}
				}
				if !coverLines(spans, lines, whole.StartLine, r.StartLine, r.EndLine) {
					t.Errorf("%s %v: reads of %v cover lines %v, not the passage's lines %d-%d",
						r.Path, r.SectionPath, r.Sections, spans, r.StartLine, r.EndLine)
				}
			}
		}
	}
	if n < 100 || merged == 0 || bridged == 0 {
		t.Errorf("only %d results checked, %d of them merged passages, %d joined neighbours", n, merged, bridged)
	}
}

// coverLines reports whether the inclusive line ranges together cover
// every non-blank line from start to end of a note whose lines, from line
// first, are note (section reads drop the blank lines that end a section).
func coverLines(spans [][2]int, note []string, first, start, end int) bool {
	for l := start; l <= end; l++ {
		if i := l - first; i >= 0 && i < len(note) && strings.TrimSpace(note[i]) == "" {
			continue
		}
		if !slices.ContainsFunc(spans, func(s [2]int) bool { return s[0] <= l && l <= s[1] }) {
			return false
		}
	}
	return true
}

func TestDedupAndLimits(t *testing.T) {
	vault := t.TempDir()
	var b strings.Builder
	for i := range 8 {
		b.WriteString("## Part " + string(rune('A'+i)) + "\n\nzebra stripes and more zebra facts, section " + string(rune('a'+i)) + ".\n\n" +
			strings.Repeat("filler words about nothing much at all. ", 12) + "\n\n")
	}
	for _, name := range []string{"one.md", "two.md", "three.md"} {
		write(t, vault, name, "# "+name+"\n\n"+b.String())
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "z")
	for _, c := range []struct{ n, per, want int }{{5, 2, 5}, {10, 2, 6}, {10, 1, 3}, {50, 5, 15}, {1, 1, 1}} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", N: c.n, MaxPerPage: c.per, Mode: mdsearch.ModeKeyword})
		if resp.Total != c.want || len(resp.Results) != c.want {
			t.Errorf("n=%d per=%d: %d results, want %d", c.n, c.per, resp.Total, c.want)
		}
		per := map[string]int{}
		for i, r := range resp.Results {
			per[r.Path]++
			if per[r.Path] > c.per {
				t.Errorf("n=%d per=%d: %d results from %s", c.n, c.per, per[r.Path], r.Path)
			}
			if i > 0 && r.Score > resp.Results[i-1].Score {
				t.Errorf("results out of order at %d", i)
			}
		}
	}
	// The default cap gives way where the other notes' passages are
	// unlikely answers (dedup): here one note's passages outrank the
	// copies' (page evidence), and a cap asked for holds (above). The
	// premise is the model's scores, checked first so that a model fitted
	// anew that breaks it says so.
	all := search(t, e, mdsearch.SearchRequest{Query: "zebra stripes", N: 10, MaxPerPage: 5, Mode: mdsearch.ModeKeyword})
	if len(all.Results) < 6 || all.Results[0].Path != all.Results[2].Path || all.Results[2].Score < likelyAnswer ||
		all.Results[5].Path == all.Results[0].Path || all.Results[5].Score >= likelyAnswer {
		t.Fatalf("premise: one note's third passage at least %v likely, the other notes' under it; got %s", likelyAnswer, resultKeys(all))
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "zebra stripes", N: 5, Mode: mdsearch.ModeKeyword})
	most := map[string]int{}
	for _, r := range resp.Results {
		most[r.Path]++
	}
	if len(resp.Results) != 5 || slices.Max(slices.Collect(maps.Values(most))) <= mdsearch.DefaultMaxPerPage {
		t.Errorf("the default cap: %d results, per note %v; want 5, one note past %d", len(resp.Results), most, mdsearch.DefaultMaxPerPage)
	}
	for _, bad := range []mdsearch.SearchRequest{
		{Query: ""}, {Query: "  "}, {Query: "\x00"}, {Query: " \x1b\t"}, {Query: "\xff\xfe"}, {Query: "x", N: 51}, {Query: "x", N: -1}, {Query: "x", MaxPerPage: 6},
		{Query: "x", MaxPerPage: -2}, {Query: "x", Mode: "fuzzy"}, {Query: strings.Repeat("x", 5000)},
	} {
		if _, err := e.Search(bg, bad); mdsearch.KindOf(err) != mdsearch.KindInvalid {
			t.Errorf("%+v: got %v, want an invalid-request error", bad, err)
		}
	}
	if _, err := e.Search(bg, mdsearch.SearchRequest{Query: "x", Collection: "nope"}); mdsearch.KindOf(err) != mdsearch.KindNotFound ||
		!strings.Contains(err.Error(), "have: z") {
		t.Errorf("unknown collection: %v", err)
	}
}

func TestReadAndOutline(t *testing.T) {
	a, b := copyDir(t, sampleVault), copyDir(t, sampleVault)
	write(t, a, "only-a.md", "# Only A\n\n## Part\n\ntext\n")
	outside := t.TempDir()
	write(t, outside, "secret.md", "# Secret\n")
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(a, "escape.md"))
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, a, "a")
	index(t, e, b, "b")

	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "a:kitchen/Sourdough.md", Section: "rye   STARTER!"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Collection != "a" || r.Section != "Rye Starter" || !strings.HasPrefix(r.Content, "### Rye Starter\n") ||
		strings.Contains(r.Content, "Bulk") || r.StartLine != 22 || strings.Join(r.SectionPath, "/") != "Sourdough/Starter Maintenance/Rye Starter" {
		t.Errorf("section read: %+v", r)
	}
	r, err = e.Read(bg, mdsearch.ReadRequest{Path: "b:kitchen/Sourdough.md", Section: "Starter Maintenance"})
	if err != nil || !strings.Contains(r.Content, "### Rye Starter") || strings.Contains(r.Content, "## Bulk") {
		t.Errorf("a section includes its subsections and stops at the next same-level heading: %+v %v", r, err)
	}
	r, err = e.Read(bg, mdsearch.ReadRequest{Path: "only-a.md"})
	if err != nil || r.Collection != "a" || r.Content != "# Only A\n\n## Part\n\ntext\n" || r.EndLine != 5 {
		t.Errorf("whole note: %+v %v", r, err)
	}
	write(t, a, "bad-bytes.md", "# Bad\n\n## One\n\nx\xffy\n\n\n## Two\n\nz\n")
	r, err = e.Read(bg, mdsearch.ReadRequest{Path: "a:bad-bytes.md", Section: "One"})
	if err != nil || r.Content != "## One\n\nx\uFFFDy" {
		t.Errorf("a section shows invalid UTF-8 as U+FFFD, without trailing blank lines: %q %v", r.Content, err)
	}
	o, err := e.Outline(bg, "a:kitchen/Sourdough.md")
	if err != nil || len(o.Sections) != 5 || o.Title != "Sourdough" {
		t.Errorf("outline: %+v %v", o, err)
	}

	for _, c := range []struct {
		path, section string
		kind          mdsearch.Kind
		msg           string
	}{
		{"kitchen/Sourdough.md", "", mdsearch.KindInvalid, "a:kitchen/Sourdough.md, b:kitchen/Sourdough.md"},
		{"a:kitchen/Sourdough.md", "Proofing", mdsearch.KindNotFound, `"Sourdough/Bulk Fermentation"`},
		{"a:nope.md", "", mdsearch.KindNotFound, "no such note in a ("},
		{"c:nope.md", "", mdsearch.KindNotFound, `no collection "c", and no such note in a, b`},
		{"../../etc/passwd", "", mdsearch.KindForbidden, ".."},
		{"a:../" + filepath.Base(outside) + "/secret.md", "", mdsearch.KindForbidden, ".."},
		{"/etc/passwd", "", mdsearch.KindForbidden, "not inside an indexed folder"},
		{"a:escape.md", "", mdsearch.KindForbidden, "out of the vault"},
		{"a:.obsidian/workspace.md", "", mdsearch.KindForbidden, "not indexed"},
		{"", "", mdsearch.KindInvalid, "no path"},
	} {
		_, err := e.Read(bg, mdsearch.ReadRequest{Path: c.path, Section: c.section})
		if mdsearch.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("read %q %q: %v; want kind %d mentioning %q", c.path, c.section, err, c.kind, c.msg)
		}
	}
}

func TestKeywordOnlyWithNotice(t *testing.T) {
	vault := copyDir(t, sampleVault)
	dbPath := filepath.Join(t.TempDir(), "index.db")
	e, err := Open(bg, Options{IndexPath: dbPath, EmbedderNotice: "model assets are missing (run `mdsearch setup`)"})
	if err != nil {
		t.Fatal(err)
	}
	st := index(t, e, vault, "s")
	if st.Embedded != 0 || !strings.Contains(st.Notice, "keyword search only") {
		t.Errorf("stats: %+v", st)
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "restore drill"})
	if resp.Mode != mdsearch.ModeKeyword || !strings.Contains(resp.Notice, "mdsearch setup") || len(resp.Results) == 0 {
		t.Errorf("hybrid without a model: %+v", resp)
	}
	e.Close()

	// Once vectors exist, indexing without the model is refused...
	emb := newBow("bow")
	e2 := openEngine(t, dbPath, emb)
	index(t, e2, vault, "s")
	e2.Close()
	e3 := openEngine(t, dbPath, nil)
	if _, err := e3.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "s"}, nil); mdsearch.KindOf(err) != mdsearch.KindUnavailable {
		t.Errorf("index without the model over vectors: %v", err)
	}
	// ...but keyword search still answers.
	if resp := search(t, e3, mdsearch.SearchRequest{Query: "restore drill"}); len(resp.Results) == 0 {
		t.Error("no keyword results")
	}
	before, err := e3.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	e3.Close()

	// Choosing no embedder drops semantic search for real: no vectors are
	// left to answer semantic queries that the status says are absent.
	e4, err := Open(bg, Options{IndexPath: dbPath, KeywordOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	st = index(t, e4, vault, "s")
	// The count is every vector the index held, those the re-cut orphaned
	// included.
	if !strings.Contains(st.Notice, fmt.Sprintf("semantic search dropped: deleted %d vectors of bow", before.Vectors)) {
		t.Errorf("keyword-only run over vectors: %q", st.Notice)
	}
	s, err := e4.Status(bg)
	if err != nil || s.ModelID != "" || s.Vectors != 0 {
		t.Errorf("status after dropping vectors: %+v %v", s, err)
	}
	e4.Close()
	e5 := openEngine(t, dbPath, newBow("bow"))
	resp = search(t, e5, mdsearch.SearchRequest{Query: "restore drill", Mode: mdsearch.ModeSemantic})
	if !strings.Contains(resp.Notice, "no vectors for bow") {
		t.Errorf("semantic search after the drop: %+v", resp)
	}
	if st := index(t, e5, vault, "s"); st.Embedded == 0 {
		t.Errorf("a run with the model again embeds everything: %+v", st)
	}
}

func TestStatus(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	st := index(t, e, vault, "s")
	write(t, vault, "new.md", "# New\n")
	os.Remove(filepath.Join(vault, "Inbox.md"))
	later := time.Now().Add(time.Hour) // touched, not edited: not stale
	if err := os.Chtimes(filepath.Join(vault, "homelab", "Backups.md"), later, later); err != nil {
		t.Fatal(err)
	}
	s, err := e.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	// Vectors count windows: every window of every passage has one.
	c := s.Collections[0]
	if s.ModelID != "bow" || s.SchemaVersion != store.SchemaVersion || c.Files != 6 || c.Chunks != st.Chunks ||
		c.Vectors != st.Windows || c.Vectors < c.Chunks ||
		c.Stale != 2 || s.SizeBytes == 0 || c.IndexedAt == "" || s.Indexing != nil {
		b, _ := json.Marshal(s)
		t.Errorf("status: %s", b)
	}
}

// What was odd about a note when it was read stays in the index for
// status to show, until a run reads the mended note again.
func TestStatusWarnings(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "odd.md", "---\ntitle: [unclosed\n---\n# Odd\n\n```\nfence\n")
	write(t, vault, "fine.md", "# Fine\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	if st := index(t, e, vault, "v"); len(st.Warnings) != 2 {
		t.Fatalf("index warnings: %+v", st.Warnings)
	}
	warnings := func() []mdsearch.FileIssue {
		t.Helper()
		s, err := e.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		return s.Collections[0].Warnings
	}
	index(t, e, vault, "v") // a run that reads nothing keeps them
	if w := warnings(); len(w) != 2 || w[0].Path != "odd.md" || !strings.Contains(w[0].Reason+w[1].Reason, "never closed") {
		t.Errorf("status warnings: %+v", w)
	}
	write(t, vault, "odd.md", "# Odd\n\nMended.\n")
	index(t, e, vault, "v")
	if w := warnings(); len(w) != 0 {
		t.Errorf("after the note was mended: %+v", w)
	}
}

func TestModelFailures(t *testing.T) {
	emb := newBow("bow")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
	vault := copyDir(t, sampleVault)
	index(t, e, vault, "s")

	down := error(mdsearch.Errorf(mdsearch.KindUnavailable, "embed", "http://localhost:11434", "start the server", "connection refused"))
	emb.fail.Store(&down)
	resp, err := e.Search(bg, mdsearch.SearchRequest{Query: "stretch and folds"})
	if err != nil || resp.Mode != mdsearch.ModeKeyword || !strings.Contains(resp.Notice, "connection refused") || len(resp.Results) == 0 {
		t.Errorf("server down at query time: %+v %v", resp, err)
	}
	write(t, vault, "new.md", "# New\n\nfresh text\n")
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "s"}, nil); mdsearch.KindOf(err) != mdsearch.KindUnavailable {
		t.Errorf("server down while indexing: %v", err)
	}
	// The passages are stored; the next run embeds their windows.
	_, _, pending, embedded, _ := e.st.Counts(bg, 1)
	emb.fail.Store(nil)
	st := index(t, e, vault, "s")
	_, _, windows, vectors, _ := e.st.Counts(bg, 1)
	if st.Embedded == 0 || st.Embedded != pending-embedded || windows != vectors || windows != pending || st.Unchanged != 7 {
		t.Errorf("after the server is back: %+v; %d windows had %d vectors, now %d have %d", st, pending, embedded, windows, vectors)
	}
	broken := error(errors.New("model crashed"))
	emb.fail.Store(&broken)
	if _, err := e.Search(bg, mdsearch.SearchRequest{Query: "x"}); mdsearch.KindOf(err) != mdsearch.KindInternal || !strings.Contains(err.Error(), "model crashed") {
		t.Errorf("model error: %v", err)
	}
}

func TestEmptyIndex(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	resp := search(t, e, mdsearch.SearchRequest{Query: "anything"})
	if resp.Total != 0 || !strings.Contains(resp.Notice, "mdsearch index") {
		t.Errorf("empty index: %+v", resp)
	}
	s, err := e.Status(bg)
	if err != nil || len(s.Collections) != 0 || s.Collections == nil {
		t.Errorf("status of an empty index: %+v %v", s, err)
	}
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "x.md"}); mdsearch.KindOf(err) != mdsearch.KindNotFound {
		t.Errorf("read in an empty index: %v", err)
	}
}

func TestIndexPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"/x/flag.db", map[string]string{"MDSEARCH_INDEX": "/x/env.db"}, "/x/flag.db"},
		{"", map[string]string{"MDSEARCH_INDEX": "/x/env.db", "XDG_DATA_HOME": "/xdg"}, "/x/env.db"},
		{"", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}, "/xdg/mdsearch/index.db"},
		{"", map[string]string{"HOME": "/home/u"}, "/home/u/.local/share/mdsearch/index.db"},
	}
	for _, c := range cases {
		if got, err := IndexPath(c.flag, env(c.env)); err != nil || got != c.want {
			t.Errorf("IndexPath(%q, %v) = %q, %v; want %q", c.flag, c.env, got, err, c.want)
		}
	}
}

// TestKeywordCoverage: in keyword mode, a query whose rarest word no note
// holds scores lower than the same query without it, in the same order:
// the words it shares with the vault are not a strong match to it.
func TestKeywordCoverage(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, copyDir(t, "../sample-vault"), "v")
	found := search(t, e, mdsearch.SearchRequest{Query: "restic backups", Mode: mdsearch.ModeKeyword})
	partly := search(t, e, mdsearch.SearchRequest{Query: "restic backups zyzzyva", Mode: mdsearch.ModeKeyword})
	if paths(found) != paths(partly) || len(found.Results) == 0 {
		t.Fatalf("order changed: %s vs %s", paths(found), paths(partly))
	}
	// Two found terms of three, the missing one the rarest: well under
	// the two-term query's score, with its extra √ of a term.
	top, less := found.Results[0].Score, partly.Results[0].Score
	if less >= top*0.8 {
		t.Errorf("with a word no note holds: %.3f, without it: %.3f", less, top)
	}
}

// TestKeywordCoverageInCollection: searching one collection, a word only
// another collection holds counts as a word no note holds: it is in no
// passage the search can return.
func TestKeywordCoverageInCollection(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, copyDir(t, "../sample-vault"), "home")
	work := t.TempDir()
	write(t, work, "Weevils.md", "# Weevils\n\nThe zyzzyva is a weevil.\n")
	index(t, e, work, "work")
	score := func(q string) float64 {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword, Collection: "home"})
		if len(resp.Results) == 0 || resp.Results[0].Collection != "home" {
			t.Fatalf("%q: %s", q, paths(resp))
		}
		return resp.Results[0].Score
	}
	// As TestKeywordCoverage: two found terms of three, the missing one
	// the rarest.
	top, less := score("restic backups"), score("restic backups zyzzyva")
	if less >= top*0.8 {
		t.Errorf("with a word only another collection holds: %.3f, without it: %.3f", less, top)
	}
}

// TestRowScale: a small index's bm25 is raised to a 100-row index's scale,
// at most 8 times; from 100 rows on it is left as it is. In two rows or
// fewer every idf is FTS5's floor, which is raised to a rare word's.
func TestRowScale(t *testing.T) {
	cases := []struct {
		rows     int
		min, max float64
	}{
		{0, 4.1e6, 4.3e6},
		{1, 4.1e6, 4.3e6},
		{2, 4.1e6, 4.3e6},
		{3, 8, 8},
		{12, 2.0, 2.1},
		{40, 1.25, 1.3},
		{99, 1, 1.01},
		{100, 1, 1},
		{100000, 1, 1},
	}
	for _, c := range cases {
		if got := rowScale(c.rows); !(got >= c.min && got <= c.max) { // NaN fails too
			t.Errorf("rowScale(%d) = %.3f, want %.2f–%.2f", c.rows, got, c.min, c.max)
		}
	}
}

// TestSmallVaultKeywordScores: in the 12-passage sample vault, a word only
// one note holds is a partial match or better in keyword mode, not a
// miss, and that note ranks first in hybrid too.
func TestSmallVaultKeywordScores(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, copyDir(t, "../sample-vault"), "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "whetstone", Mode: mode})
		if len(resp.Results) == 0 || resp.Results[0].Path != "kitchen/Knife Care.md" {
			t.Fatalf("%s: %s", mode, paths(resp))
		}
		if mode == mdsearch.ModeKeyword && resp.Results[0].Score < 0.5 {
			t.Errorf("keyword: the one note holding the word scores %.3f", resp.Results[0].Score)
		}
	}
}
