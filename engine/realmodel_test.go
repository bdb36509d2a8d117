package engine

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/store"
)

var (
	useOnce  sync.Once
	useModel *sentenceencoder.Model
	useErr   error
)

// realModel loads the local model once per test binary. Without its assets
// the test is skipped, except in CI where that is a failure.
func realModel(t testing.TB) *sentenceencoder.Model {
	t.Helper()
	useOnce.Do(func() { useModel, useErr = sentenceencoder.New(sentenceencoder.Options{}) })
	if useErr != nil {
		testenv.Absent(t, "model assets missing (run `mdsearch setup`): %v", useErr)
	}
	return useModel
}

func TestRealModel(t *testing.T) {
	m := realModel(t)
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), m)
	st := index(t, e, vault, "sample")
	// Every window is embedded once (no two windows of the sample vault
	// share their text).
	if st.Embedded == 0 || st.Embedded != st.Windows || st.Windows < st.Chunks {
		t.Fatalf("stats: %+v", st)
	}
	// The top hit is the passage holding the section, its own or merged
	// into it from a stub before it.
	cases := []struct {
		mode          mdsearch.Mode
		q             string
		path, section string
	}{
		{mdsearch.ModeSemantic, "starter maintenance and feeding schedule", "kitchen/Sourdough.md", "Starter Maintenance"},
		{mdsearch.ModeSemantic, "aphids and whitefly on tomato plants", "garden/Tomatoes.md", "Pests"},
		{mdsearch.ModeSemantic, "DNS server at home", "homelab/Network.md", "DNS"},
		{mdsearch.ModeHybrid, "how long does bulk fermentation take", "kitchen/Sourdough.md", "Bulk Fermentation"},
		{mdsearch.ModeHybrid, "restore drill for backups", "homelab/Backups.md", "Restore Drill"},
		// A note's title alone asks for its opening, not a section that
		// holds the word too (Pests, Storage).
		{mdsearch.ModeHybrid, "what are tomatoes", "garden/Tomatoes.md", "Tomatoes"},
		{mdsearch.ModeHybrid, "knife care", "kitchen/Knife Care.md", "Knife Care"},
	}
	for _, c := range cases {
		resp := search(t, e, mdsearch.SearchRequest{Query: c.q, Mode: c.mode})
		if resp.Mode != c.mode || len(resp.Results) == 0 || !covers(resp.Results[0], c.path, c.section) {
			t.Errorf("%s %q:\n%swant first %s > %s", c.mode, c.q, describe(resp), c.path, c.section)
			continue
		}
		if d := resp.Results[0].Distance; d == nil || *d < 0 || *d > 1 {
			t.Errorf("%q: distance %v", c.q, d)
		}
	}
	// Scores are comparable across queries: a strong query's best hit
	// scores well above a nonsense query's.
	strong := search(t, e, mdsearch.SearchRequest{Query: "restore drill for backups"}).Results[0].Score
	if resp := search(t, e, mdsearch.SearchRequest{Query: "zxqv blorft quux"}); len(resp.Results) > 0 && resp.Results[0].Score >= strong/2 {
		t.Errorf("nonsense query scores %v, a strong one %v", resp.Results[0].Score, strong)
	}
	if strong >= 1 || strong < 0.3 {
		t.Errorf("strong hybrid hit scores %v, want about 0.4–0.8", strong)
	}
	// A question the notes cannot answer says so; one they answer does not.
	for _, c := range []struct {
		mode     mdsearch.Mode
		q        string
		unlikely bool
	}{
		{mdsearch.ModeHybrid, "how do I change a bicycle tyre", true},
		{mdsearch.ModeHybrid, "how long did the last restore take?", false},
		{mdsearch.ModeHybrid, "best recipe for chocolate cake", false}, // 12%: weak, but over Unlikely
		{mdsearch.ModeKeyword, "best recipe for chocolate cake", true},
		{mdsearch.ModeKeyword, "how long did the last restore take?", false},
		{mdsearch.ModeSemantic, "how do I change a bicycle tyre", true},
		{mdsearch.ModeSemantic, "best recipe for chocolate cake", false}, // near Sourdough by meaning (cosine 0.62): 19%, weak but over Unlikely
		{mdsearch.ModeSemantic, "restore drill for backups", false},
		{mdsearch.ModeSemantic, "->", false}, // no word the keyword index reads: a notice of its own (below)
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: c.q, Mode: c.mode, Explain: true})
		if says := strings.Contains(resp.Notice, "no result is likely to answer"); says != c.unlikely || len(resp.Results) == 0 {
			t.Errorf("%s %q: notice %q, %d results; want one saying no result is likely to answer: %v", c.mode, c.q, resp.Notice, len(resp.Results), c.unlikely)
			continue
		}
		// Semantic mode's says why its low score need not mean the
		// notes lack the answer.
		if c.unlikely && (c.mode == mdsearch.ModeSemantic) != strings.Contains(resp.Notice, "meaning alone") {
			t.Errorf("%s %q: notice %q", c.mode, c.q, resp.Notice)
		}
		// Its results show their openings, but semantic mode's, whose
		// right answers score low too; a query of no word, in every mode.
		// After a likely first, those under Unlikely showing one section.
		opening := c.unlikely && c.mode != mdsearch.ModeSemantic || c.q == "->"
		for i, r := range resp.Results {
			opening := opening || i > 0 && r.Score < Unlikely && len(r.Sections) <= 1 && c.mode != mdsearch.ModeSemantic
			if cut := strings.HasPrefix(r.ReadHint, "cut as unlikely"); cut != (opening && r.Truncated) || !opening && cut ||
				opening && EstimateTokens(r.Text) > 2*unlikelyPreview {
				t.Errorf("%s %q: %s cut %v, %d tokens, hint %q", c.mode, c.q, r.Path, cut, EstimateTokens(r.Text), r.ReadHint)
			}
		}
		// The shipped model's second stage explains each result it
		// scored; semantic mode's keeps the order of meaning.
		for i, r := range resp.Results {
			if w := r.Why; w == nil || (len(w.Words) == 0) != (c.q == "->") || len(w.ScoreFactors) == 0 || (c.mode == mdsearch.ModeKeyword) != (w.Cosine == nil) {
				t.Errorf("%s %q: %s > %s: why %+v", c.mode, c.q, r.Path, r.Section, w)
			}
			if c.mode == mdsearch.ModeSemantic && i > 0 && (*r.Distance < *resp.Results[i-1].Distance || r.Score > resp.Results[i-1].Score) {
				t.Errorf("%s %q: result %d at distance %v, score %v, after %v, %v", c.mode, c.q, i+1, *r.Distance, r.Score, *resp.Results[i-1].Distance, resp.Results[i-1].Score)
			}
		}
	}

	// A query of no word the keyword index reads says so, and that
	// meaning alone ranked what came, in every mode that ranks by it; as
	// for a query that asks nothing, its results show their openings.
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		for _, q := range []string{"->", "?"} {
			resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mode})
			if n := resp.Notice; !strings.Contains(n, "holds no word the keyword index reads") || !strings.Contains(n, "meaning alone ranked") ||
				strings.Contains(n, "no result is likely") || len(resp.Results) == 0 || resp.Results[0].Score >= Unlikely {
				t.Errorf("%s %q: notice %q, %s", mode, q, n, describe(resp))
			}
			for _, r := range resp.Results {
				if EstimateTokens(r.Text) > 2*unlikelyPreview {
					t.Errorf("%s %q: %s shown whole, %d tokens", mode, q, r.Path, EstimateTokens(r.Text))
				}
			}
		}
	}

	// A semantic search whose first result holds none of the query's
	// words, which the notes hold, says so; one whose first holds them,
	// or a hybrid one, does not.
	for _, c := range []struct {
		mode     mdsearch.Mode
		q        string
		wordless bool
	}{
		{mdsearch.ModeSemantic, "restic", true}, // Backups holds it; meaning lands on Network
		{mdsearch.ModeSemantic, "restore drill for backups", false},
		{mdsearch.ModeSemantic, "zxqv blorft", false}, // no note holds the words
		{mdsearch.ModeHybrid, "restic", false},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: c.q, Mode: c.mode})
		if says := strings.Contains(resp.Notice, "holds none of the query's words"); says != c.wordless || len(resp.Results) == 0 {
			t.Errorf("%s %q: notice %q, first %s; want the wordless notice: %v", c.mode, c.q, resp.Notice, describe(resp), c.wordless)
		}
	}

	// Edit one paragraph: only the windows holding it are embedded again.
	p := filepath.Join(vault, "kitchen", "Sourdough.md")
	src, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(src), "cool for an hour", "cool for two hours", 1)), 0o644)
	st = index(t, e, vault, "sample")
	if st.Changed != 1 || st.Embedded != 1 {
		t.Errorf("edit one paragraph: %+v", st)
	}
}

// TestInt8RecallRealModel checks that int8 vectors rank like the model's
// float32 output: top-10 overlap over real chunks and queries.
func TestInt8RecallRealModel(t *testing.T) {
	m := realModel(t)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, copyDir(t, helpVault(t)), "help")
	texts, err := e.st.EmbedTexts(bg)
	if err != nil {
		t.Fatal(err)
	}
	texts = texts[:min(len(texts), 300)]
	exact, err := m.Embed(bg, texts)
	if err != nil {
		t.Fatal(err)
	}
	s := snapshotOf(m.Dim(), exact)
	queries := []string{"link to a heading", "sync my vault between devices", "publish a site", "keyboard shortcuts",
		"embed an image", "daily notes template", "graph view filters", "community plugins safety", "canvas cards",
		"properties and frontmatter", "search operators", "callouts", "tables in markdown", "file recovery snapshots",
		"workspaces", "command palette", "bookmarks", "web clipper templates", "themes and CSS snippets", "vault location"}
	qv, err := m.Embed(bg, queries)
	if err != nil {
		t.Fatal(err)
	}
	const k = 10
	hits := 0
	for _, q := range qv {
		type sc struct {
			i int
			c float32
		}
		all := make([]sc, len(exact))
		for i, v := range exact {
			all[i] = sc{i, embed.Dot(q, v)}
		}
		sort.Slice(all, func(a, b int) bool { return all[a].c > all[b].c })
		want := map[int]bool{}
		for _, x := range all[:k] {
			want[x.i] = true
		}
		for _, h := range s.topK(q, k, nil) {
			if want[int(h.row)] {
				hits++
			}
		}
	}
	recall := float64(hits) / float64(k*len(queries))
	t.Logf("int8 top-%d recall vs float32 over %d real chunks, %d queries: %.3f", k, len(texts), len(queries), recall)
	if recall < 0.95 {
		t.Errorf("int8 recall %.3f", recall)
	}
}

// snapshotOf is a scan snapshot of vectors as the store keeps them (int8
// with a scale), row i holding chunk i.
func snapshotOf(dim int, vecs [][]float32) *snapshot {
	s := &snapshot{dim: dim, ids: make([]int64, len(vecs)), docs: make([]int64, len(vecs)), scales: make([]float32, len(vecs))}
	for i, v := range vecs {
		scale, q := store.Int8(store.Quantize(v))
		s.ids[i], s.scales[i] = int64(i), scale
		s.appendVec(q)
	}
	return s
}
