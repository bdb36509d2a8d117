package eval

import (
	"context"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A small vault whose keyword answers are known by construction: each
// query's rare words appear in one section only, and the sections are long
// enough to be chunks of their own.
var smallVault = map[string]string{
	"garden/tomatoes.md": "# Tomatoes\n\nGrowing notes. " + filler + "\n\n## Pests\n\nAphids and whitefly attack the leaves; spray neem oil weekly. " + filler +
		"\n\n## Harvest\n\nPick when the fruit is deep red and slightly soft. " + filler + "\n",
	"kitchen/bread.md": "# Bread\n\nSourdough basics. " + filler + "\n\n## Starter\n\nFeed the starter flour and water twice daily. " + filler +
		"\n\n## Baking\n\nBake at high heat in a dutch oven with steam. " + filler + "\n",
	"homelab/dns.md": "# DNS\n\nThe home resolver runs unbound with blocklists on a small server.\n",
}

// filler is 60 words that every section shares.
var filler = strings.Repeat("this part of the note says more of the same things again. ", 5)

const smallQueries = `{"query": "aphids whitefly neem", "relevant": [{"path": "garden/tomatoes.md", "section_path": ["Tomatoes", "Pests"]}]}
{"query": "dutch oven steam", "relevant": [{"path": "kitchen/bread.md", "section_path": ["Bread", "Baking"]}], "difficulty": "easy"}
{"query": "unbound blocklists", "expected_path_contains": "homelab/", "difficulty": "easy"}
{"query": "zeppelin quasar", "expected_path_contains": "kitchen", "difficulty": "hard"}
`

func smallRun(t *testing.T, opts Options) *Report {
	t.Helper()
	qs, err := ParseQueries(strings.NewReader(smallQueries), "small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	opts.Vault = writeVault(t, smallVault)
	opts.Queries = qs
	opts.TempDir = t.TempDir()
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(opts.TempDir); len(left) != 0 {
		t.Errorf("throwaway indexes left behind: %v", left)
	}
	return rep
}

func TestRunKeyword(t *testing.T) {
	var log []string
	cs, _ := ParseConfigs([]string{"sections-keyword,paragraph-keyword"})
	rep := smallRun(t, Options{Configs: cs, Details: true, Log: func(s string) { log = append(log, s) }})
	if len(rep.Configs) != 2 || rep.Queries != 4 || rep.K != 5 || rep.MaxPerPage != 0 || rep.Model != "none (keyword only)" {
		t.Fatalf("report: %+v", rep)
	}
	sec := rep.Configs[0]
	// Three queries find their note first; "zeppelin quasar" matches nothing.
	checkMetric(t, "recall", sec.RecallAtK, 0.75)
	checkMetric(t, "MRR", sec.MRR, 0.75)
	checkMetric(t, "Hit@3", sec.Hit3, 0.75)
	checkMetric(t, "section hit", sec.SectionHit, 1)
	checkMetric(t, "span hit", sec.SpanHit, 1)
	checkMetric(t, "easy", sec.Hit3By["easy"], 1)
	checkMetric(t, "hard", sec.Hit3By["hard"], 0)
	if sec.Labelled != 2 || sec.Index.Chunks == 0 || sec.P50MS <= 0 || sec.Tokens <= 0 || len(sec.Outcomes) != 4 {
		t.Errorf("sections-keyword: %+v", sec)
	}
	if o := sec.Outcomes[0]; o.PageRank != 1 || len(o.Results) == 0 || !strings.HasPrefix(o.Results[0], "garden/tomatoes.md > Tomatoes > Pests (lines 5-") {
		t.Errorf("details: %+v", o)
	}
	para := rep.Configs[1]
	// Paragraph chunks have no section path, but they hold the answer.
	checkMetric(t, "paragraph section hit", para.SectionHit, 0)
	checkMetric(t, "paragraph span hit", para.SpanHit, 1)
	if para.Index.Chunks != 5 || para.Tokens <= sec.Tokens {
		t.Errorf("paragraph: %d chunks, %.1f tokens/query (sections: %.1f)", para.Index.Chunks, para.Tokens, sec.Tokens)
	}
	// The text report names the query that missed, and what it wanted.
	var table strings.Builder
	if err := WriteTable(&table, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "missed by sections-keyword: 1 of 4 queries found none of their notes in the first 5\n"+
		`- line 4 "zeppelin quasar": wanted a note whose path contains "kitchen"; no results`) {
		t.Errorf("misses:\n%s", table.String())
	}
	if len(log) != 4 || !strings.HasPrefix(log[0], "sections: indexed") || !strings.HasPrefix(log[1], "sections-keyword: recall@5 0.750") {
		t.Errorf("log: %q", log)
	}
}

func TestRunReusesEmbeddings(t *testing.T) {
	m := &hashEmbedder{}
	cs, _ := ParseConfigs([]string{"sections-semantic,sections-hybrid,paragraph,whole-doc"})
	rep := smallRun(t, Options{Configs: cs, Embedder: m})
	if rep.Model != "hash-4" || len(rep.Configs) != 4 {
		t.Fatalf("report: %+v", rep)
	}
	// The two sections configurations share one index; each of its
	// passages fits the model's window, so it is embedded as one text
	// window, plus at most its heading window. Paragraph and whole-doc both
	// cut the short DNS note into one chunk without a prefix, so whole-doc
	// embeds only the other two notes.
	sec, para, whole := rep.Configs[0].Index, rep.Configs[2].Index, rep.Configs[3].Index
	if rep.Configs[1].Index != sec || sec.Chunks == 0 || sec.Embedded < int64(sec.Chunks) || sec.Embedded > 2*int64(sec.Chunks) ||
		para.Chunks != 5 || para.Embedded != 5 || whole.Chunks != 3 || whole.Embedded != 2 || whole.Reused != 1 {
		t.Errorf("index reports: sections %+v, paragraph %+v, whole-doc %+v", sec, para, whole)
	}
	// Two notes are over the 128-word window as a whole; sections fit it.
	if whole.OverWindow != 2 || sec.OverWindow != 0 {
		t.Errorf("over-window counts: whole-doc %d, sections %d", whole.OverWindow, sec.OverWindow)
	}
	// Queries bypass the cache: every search embeds its query.
	texts := 0
	for _, c := range m.calls {
		texts += len(c)
	}
	const queries = 4 * (4 + 1) // 4 configurations × (4 queries + a warm-up)
	if got := int64(texts) - rep.Embedding.Computed; got != queries {
		t.Errorf("%d query embeddings, want %d", got, queries)
	}
}

func TestRunErrors(t *testing.T) {
	qs, _ := ParseQueries(strings.NewReader(smallQueries), "small.jsonl")
	vault := writeVault(t, smallVault)
	cs, _ := ParseConfigs([]string{"sections-keyword,paragraph"})
	bm25, _ := ParseConfigs([]string{"bm25-sections"}) // the baseline reads no operators: refused before it runs
	onlyOps, _ := ParseQueries(strings.NewReader(`{"query": "dutch oven", "expected_path_contains": "kitchen"}
{"query": "tag:meeting", "expected_path_contains": "kitchen"}`), "ops.jsonl")
	// A property no note of an empty index has reads as words; the vault's index refuses it.
	propOnly, _ := ParseQueries(strings.NewReader(`{"query": "[status:draft]", "expected_path_contains": "a"}`), "prop.jsonl")
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"no model", Options{Vault: vault, Queries: qs, Configs: cs}, "paragraph needs an embedding model"},
		{"bad k", Options{Vault: vault, Queries: qs, K: 51}, "k must be between 1 and 50"},
		{"no queries", Options{Vault: vault}, "no queries"},
		{"no vault", Options{Vault: filepath.Join(vault, "missing"), Queries: qs, Configs: cs[:1]}, "no such folder"},
		{"bad label", Options{Vault: writeVault(t, map[string]string{"x.md": "# X\n"}), Queries: qs, Configs: cs[:1]}, "small.jsonl:1"},
		{"warm-up on line 1", Options{Vault: writeVault(t, map[string]string{"a.md": "---\nstatus: draft\n---\n# A\n\nText.\n"}), Queries: propOnly,
			Configs: cs[:1]}, "prop.jsonl:1: query holds only [status:draft]"},
		{"operators alone", Options{Vault: vault, Queries: onlyOps, Configs: bm25}, "ops.jsonl:2: query holds only tag:meeting"},
		{"operators alone, off-topic", Options{Vault: vault, Queries: qs, Configs: bm25, OffTopic: []string{"path:garden"}}, `off-topic query "path:garden": query holds only path:garden`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	if mdsearch.KindOf(func() error { _, err := Run(context.Background(), cases[0].opts); return err }()) != mdsearch.KindUnavailable {
		t.Error("a missing model is KindUnavailable")
	}
}

func checkMetric(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %.4f, want %.4f", name, got, want)
	}
}

// TestRunCacheSaveError: an embedding cache that cannot be saved is said
// through Log, or is Run's error without one; the report stands.
func TestRunCacheSaveError(t *testing.T) {
	qs, _ := ParseQueries(strings.NewReader(smallQueries), "small.jsonl")
	vault := writeVault(t, smallVault)
	cs, _ := ParseConfigs([]string{"sections-keyword"})
	unsaveable := filepath.Join(t.TempDir(), "missing", "vectors.gob") // Load: no file yet; Save: no folder
	var log []string
	opts := Options{Vault: vault, Queries: qs, Configs: cs, Embedder: &hashEmbedder{}, TempDir: t.TempDir(),
		EmbedCache: unsaveable, Log: func(s string) { log = append(log, s) }}
	rep, err := Run(context.Background(), opts)
	if err != nil || rep == nil || len(log) == 0 || !strings.Contains(log[len(log)-1], "embedding cache "+unsaveable+" not saved") {
		t.Errorf("with Log: report %v, error %v, log %q", rep != nil, err, log)
	}
	opts.Log = nil
	rep, err = Run(context.Background(), opts)
	if err == nil || rep == nil || !strings.Contains(err.Error(), "embedding cache not saved") {
		t.Errorf("without Log: report %v, error %v", rep != nil, err)
	}
}

// asciiReader is a model that reads ASCII text alone, as the default
// model cannot read Chinese.
type asciiReader struct{ *hashEmbedder }

func (asciiReader) Unread(text string) float64 {
	for _, r := range text {
		if r >= 0x80 {
			return 1
		}
	}
	return 0
}

// A query the model cannot read is ranked by keywords in hybrid mode too,
// and scored as that configuration's answer, not refused.
func TestRunUnreadableQuery(t *testing.T) {
	qs, err := ParseQueries(strings.NewReader(`{"query": "数据库备份", "relevant": [{"path": "zh.md"}]}
{"query": "dutch oven steam", "relevant": [{"path": "kitchen/bread.md", "section_path": ["Bread", "Baking"]}]}
`), "mixed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	notes := maps.Clone(smallVault)
	notes["zh.md"] = "# 备份\n\n我们每天晚上备份数据库。\n"
	cs, _ := ParseConfigs([]string{"sections-hybrid"})
	rep, err := Run(context.Background(), Options{Vault: writeVault(t, notes), Queries: qs, Configs: cs,
		Embedder: asciiReader{&hashEmbedder{}}, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Configs[0]; r.RecallAtK != 1 {
		t.Errorf("recall %.3f, want 1", r.RecallAtK)
	}
}

// A result with stub sections merged in is named as search names it.
func TestDescribe(t *testing.T) {
	r := mdsearch.Result{Path: "homelab/Network.md", SectionPath: []string{"Network"}, StartLine: 1, EndLine: 13,
		Sections: [][]string{{"Network"}, {"Network", "VLANs"}, {"Network", "DNS"}}}
	if got, want := describe([]mdsearch.Result{r})[0], "homelab/Network.md > Network + VLANs + DNS (lines 1-13)"; got != want {
		t.Errorf("describe = %q, want %q", got, want)
	}
}

// Each list of AlsoOffTopic is measured as a run with it as the off-topic
// queries measures it, in the same index.
func TestRunAlsoOffTopic(t *testing.T) {
	cs, _ := ParseConfigs([]string{"sections-keyword"})
	lists := map[string][]string{
		"garden": {"aphids on roses", "neem oil for houseplants", "bake a cake"},
		"other":  {"zeppelin hangar doors", "quasar redshift", "dns resolver cache"},
	}
	both := smallRun(t, Options{Configs: cs, OffTopic: lists["garden"], AlsoOffTopic: lists})
	got := both.Configs[0].CalibWith
	if len(got) != 2 || got["garden"] != *both.Configs[0].Calib {
		t.Fatalf("calibration with the lists %+v, with the main list %+v", got, both.Configs[0].Calib)
	}
	alone := smallRun(t, Options{Configs: cs, OffTopic: lists["other"]})
	if got["other"] != *alone.Configs[0].Calib {
		t.Errorf("with %q: %+v, alone %+v", "other", got["other"], alone.Configs[0].Calib)
	}
	if got["garden"] == got["other"] {
		t.Errorf("the two lists measure alike: %+v", got)
	}
}
