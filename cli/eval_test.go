package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/eval"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// writeQueries writes a query file and returns its path.
func writeQueries(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvalUsageErrors(t *testing.T) {
	q := writeQueries(t, `{"query": "restore drill", "expected_path_contains": "Backups"}`)
	bad := writeQueries(t, `{"query": "ok", "expected_path_contains": "Backups"}`, `{"query": "x"`)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval"}, 2, "give --vault DIR and --queries FILE"},
		{[]string{"eval", "--vault", "../sample-vault"}, 2, "give --vault DIR and --queries FILE"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "extra"}, 2, "no other arguments"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--k", "x"}, 2, `k is "x": use a whole number`},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--max-per-page", "9"}, 2, "max_per_page is 9: use 1-5, or 0 for the default (2)"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--k", "0", "--embedder", "none", "--config", "sections-keyword"}, 2, "k is 0: use 1-50 (default 5)"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--config", "bm25"}, 2, `unknown configuration "bm25"`},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--config", "bm25-sections-hybrid"}, 2, "searches keywords alone (bm25-sections, bm25-sections-keyword)"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--bm25-weights", "1,2"}, 2, "want four numbers"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--cos-floor", "0.5"}, 2, "applies only with a cosine ceiling"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--passage-words", "-5"}, 2, "--passage-words -5: use a positive number of words"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--max-tokens", "-3"}, 2, "--max-tokens -3: use a positive number of tokens"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--cos-ceil", "2"}, 2, "--cos-floor 0, --cos-ceil 2: cosines are 0–1"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", bad, "--embedder", "none"}, 1, "q.jsonl:2: not a JSON query object"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--embedder", "none", "--config", "sections-keyword", "--embed-cache", "/no/such/folder/v.gob"},
			2, "--embed-cache: /no/such/folder/v.gob: the embedding cache cannot be saved there"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--embedder", "bogus"}, 2, `unknown embedder "bogus" (use one of: use, ollama, openai, none)`},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--config", "sections-keyword", "--precision", "int4"}, 2, "use --precision float32 or int8"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--embedder", "none", "--config", "sections-hybrid,sections-keyword"},
			2, "sections-hybrid needs an embedding model (semantic and hybrid configurations do), and --embedder none was given"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--embedder", "none", "--config", "sections-hybrid,paragraph"},
			2, "sections-hybrid and paragraph need an embedding model"},
		{[]string{"eval", "--vault", "../no-such-vault", "--queries", q, "--embedder", "none", "--config", "sections-keyword"}, 1, "no such folder"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--write-queries", "x.jsonl"}, 2, "--write-queries is for --generate"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--style", "links"}, 2, "--style is for --generate"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--details"}, 2, "--details adds to the JSON report"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--keyword-weight", "2"}, 2, "--keyword-weight 2: use 0–1"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--overlap", "1.5"}, 2, "--overlap 1.5: use at most 0.5"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--keyword-weight", "0"}, 2, "--keyword-weight 0: use a weight above 0, at most 1 (meaning alone is --config sections-semantic)"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--heading-cos", "0"}, 2, "--heading-cos 0: use a scale above 0"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--bm25-half", "0.0"}, 2, "--bm25-half 0: use a positive number"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--passage-words", "0"}, 2, "--passage-words 0: use a positive number of words"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--max-tokens", "0"}, 2, "--max-tokens 0: use a positive number of tokens"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--cos-ceil", "0"}, 2, "--cos-ceil 0: use a cosine above the floor"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--cos-floor", "0"}, 2, "--cos-floor 0 applies only with a cosine ceiling"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--keyword-weight", "NaN"}, 2, "--keyword-weight NaN: use a number"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--bm25-half", "NaN"}, 2, "--bm25-half NaN: use a number"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--heading-cos", "Inf"}, 2, "--heading-cos +Inf: use a number"},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--bm25-weights", "NaN,1,1,1"}, 2, `"NaN" is not a number`},
		{[]string{"eval", "--vault", "../sample-vault", "--queries", q, "--bm25-weights", "0,0,0,0"}, 2, "all are 0"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, "", c.args...)
		if code != c.code || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, want %d; stderr %q should say %q", c.args, code, c.code, errOut, c.want)
		}
	}
}

// --overlap 0 and --stub-words 0 are none, applied and named so.
func TestEvalTuningNone(t *testing.T) {
	q := writeQueries(t, `{"query": "restore drill", "expected_path_contains": "Backups"}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--overlap", "0"}, "tuning: no overlap"},
		{[]string{"--stub-words", "0"}, "tuning: no stub merging"},
		{[]string{"--overlap", "-0.2", "--stub-words", "-1"}, "tuning: no overlap, no stub merging"},
	} {
		args := append([]string{"eval", "--vault", "../sample-vault", "--queries", q, "--embedder", "none", "--config", "sections-keyword"}, c.args...)
		code, out, errOut := run(t, "", args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%q: exit %d, want a header with %q:\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
}

func TestEvalKeywordOnly(t *testing.T) {
	q := writeQueries(t,
		`{"query": "restore drill", "relevant": [{"path": "homelab/Backups.md", "section_path": ["Backups"]}]}`,
		`{"query": "aphids whitefly", "expected_path_contains": "garden/", "difficulty": "easy"}`)
	args := []string{"eval", "--vault", "../sample-vault", "--queries", q, "--embedder", "none", "--config", "sections-keyword", "--config", "paragraph-keyword"}
	code, out, errOut := run(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"2 queries (q.jsonl) over ../sample-vault, k=5", "recall@5", "section@5", "sections-keyword", "paragraph-keyword", "Hit@3 by difficulty"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "sections: indexed") {
		t.Errorf("progress on stderr: %q", errOut)
	}
	// Without --config, no model means the keyword configurations only.
	code, out, errOut = run(t, "", "eval", "--vault", "../sample-vault", "--queries", q, "--embedder", "none")
	if code != 0 || !strings.Contains(errOut, "running the keyword configurations only (bm25-sections, sections-keyword)") ||
		!strings.Contains(out, "bm25-sections") || strings.Contains(out, "sections-hybrid") {
		t.Errorf("default configurations without a model: exit %d\n%s\n%s", code, out, errOut)
	}

	code, out, _ = run(t, "", append(args, "--json", "--details", "--k", "3")...)
	var rep eval.Report
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("json: exit %d %s", code, out)
	}
	if rep.K != 3 || len(rep.Configs) != 2 || rep.Configs[0].Name != "sections-keyword" || rep.Configs[0].MRR != 1 ||
		rep.Configs[0].SectionHit != 1 || len(rep.Configs[0].Outcomes) != 2 || rep.FirstStage {
		t.Errorf("report: %+v", rep)
	}

	// --first-stage says so, and scores by the fusion: keyword mode's
	// first stage shows t / (t + 4), the second stage a probability.
	code, out, _ = run(t, "", append(args, "--json", "--details", "--first-stage")...)
	var first eval.Report
	if code != 0 || json.Unmarshal([]byte(out), &first) != nil || !first.FirstStage {
		t.Fatalf("--first-stage: exit %d %s", code, out)
	}
	if a, b := first.Configs[0].Outcomes[0].TopScore, rep.Configs[0].Outcomes[0].TopScore; a == b {
		t.Errorf("--first-stage scored %v, as the second stage does", a)
	}
	code, out, _ = run(t, "", append(args, "--first-stage")...)
	if code != 0 || !strings.Contains(out, "first stage only") {
		t.Errorf("--first-stage table: exit %d\n%s", code, out)
	}
}

func TestEvalWithModel(t *testing.T) {
	needModel(t)
	corpus := testenv.NeedCorpora(t, "qmd-eval")
	code, out, errOut := run(t, "", "eval", "--vault", corpus+"/test", "--queries", corpus+"/queries.jsonl",
		"--config", "whole-doc,sections-hybrid", "--json")
	var rep eval.Report
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if rep.Model != sentenceencoder.DefaultPrecision.ModelID() || rep.Queries != 24 || len(rep.Configs) != 2 || rep.Configs[0].Index.OverWindow != 6 {
		t.Errorf("report: %+v", rep)
	}
	if h := rep.Configs[1].Hit3By; h["easy"] < 0.8 || rep.Configs[1].Hit3 < 0.5 {
		t.Errorf("sections-hybrid is below qmd's own floors: %v", h)
	}
}

// A window budget over the model's window is cut to it, and said so.
func TestEvalBudgetOverWindow(t *testing.T) {
	needModel(t)
	q := writeQueries(t, `{"query": "restore drill", "expected_path_contains": "Backups"}`)
	code, _, errOut := run(t, "", "eval", "--vault", "../sample-vault", "--queries", q, "--config", "sections-keyword", "--max-tokens", "500")
	if code != 0 || !strings.Contains(errOut, "--max-tokens 500 is over the model's 128-token window: windows are cut at 128") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	code, out, _ := run(t, "", "eval", "--vault", "../sample-vault", "--queries", q, "--config", "sections-keyword", "--max-tokens", "500", "--json")
	if code != 0 || !strings.Contains(out, `"max_tokens": 128`) {
		t.Errorf("the report names another budget than the one used: exit %d\n%s", code, out)
	}
	code, _, errOut = run(t, "", "eval", "--vault", "../sample-vault", "--queries", q, "--config", "sections-keyword", "--max-tokens", "100")
	if code != 0 || strings.Contains(errOut, "window:") {
		t.Errorf("a budget within the window warned: exit %d: %s", code, errOut)
	}
}

func TestEvalMissingModel(t *testing.T) {
	noModel(t)
	q := writeQueries(t, `{"query": "restore drill", "expected_path_contains": "Backups"}`)
	code, out, errOut := run(t, "", "eval", "--vault", "../sample-vault", "--queries", q, "--config", "sections-keyword")
	if code != 0 || !strings.Contains(out, "sections-keyword") || !strings.Contains(errOut, "chunks are sized in words") {
		t.Errorf("keyword-only without a model: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = run(t, "", "eval", "--vault", "../sample-vault", "--queries", q, "--config", "sections-hybrid")
	if code != 1 || !strings.Contains(errOut, "mdsearch setup") {
		t.Errorf("hybrid without a model: exit %d, stderr %q should name the fix", code, errOut)
	}
}
