package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalGenerate(t *testing.T) {
	qfile := filepath.Join(t.TempDir(), "gen.jsonl")
	code, out, errOut := run(t, "", "eval", "--vault", "../sample-vault", "--generate", "--style", "headings",
		"--write-queries", qfile, "--embedder", "none", "--config", "sections-keyword", "--json")
	if code != 0 {
		t.Fatalf("eval --generate: %d %s %s", code, out, errOut)
	}
	var rep genReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Generated == nil || len(rep.ByStyle) != 1 {
		t.Fatalf("report: %v\n%s", err, out)
	}
	row := rep.ByStyle[0]
	if row.Style != "headings" || row.Queries < 5 || row.Queries != rep.Report.Queries || row.SectionHit <= 0 || row.SectionMRR > row.SectionHit {
		t.Errorf("row %+v", row)
	}
	if len(rep.Report.Configs[0].Outcomes) != 0 {
		t.Errorf("outcomes kept without --details")
	}
	data, err := os.ReadFile(qfile)
	if err != nil || strings.Count(string(data), "\n") != row.Queries || !strings.Contains(string(data), `"difficulty":"headings"`) {
		t.Errorf("written queries: %v\n%s", err, data)
	}
	if rep.Report.Style != "headings" {
		t.Errorf("the JSON report names the style %q, want headings", rep.Report.Style)
	}
	if strings.Contains(errOut, "links to a heading") {
		t.Errorf("stderr counts links, which were not asked for: %s", errOut)
	}
	if !strings.Contains(errOut, "queries from 6 notes") {
		t.Errorf("stderr lacks the generated counts: %s", errOut)
	}
	// A file that exists is left as it is, and refused before any query
	// is generated.
	code, _, errOut = run(t, "", "eval", "--vault", "../sample-vault", "--generate", "--write-queries", qfile, "--embedder", "none", "--config", "sections-keyword")
	if again, _ := os.ReadFile(qfile); code != 1 || !strings.Contains(errOut, "the file exists") || strings.Contains(errOut, "queries from") || string(again) != string(data) {
		t.Errorf("--write-queries over an existing file: %d %s", code, errOut)
	}
	// The table's header names the style and the off-topic files, however the vault is spelled.
	off := writeQueries(t, "who won the 1998 world cup", "capital of mongolia")
	code, out, errOut = run(t, "", "eval", "--vault", "../sample-vault/", "--generate", "--style", "headings", "--off-topic", off,
		"--embedder", "none", "--config", "sections-keyword")
	if code != 0 || !strings.Contains(out, "queries generated from the vault (--style headings) over ../sample-vault/, k=5") ||
		!strings.Contains(out, "off-topic: 2 queries from "+off) {
		t.Errorf("header: exit %d\n%s%s", code, out, errOut)
	}
	// The written file runs again as --queries.
	if code, out, errOut := run(t, "", "eval", "--vault", "../sample-vault", "--queries", qfile, "--embedder", "none",
		"--config", "sections-keyword"); code != 0 || !strings.Contains(out, "sections-keyword") {
		t.Errorf("eval --queries on the written file: %d %s %s", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval", "--vault", "../sample-vault", "--generate", "--style", "headlines", "--embedder", "none"}, 2, `style "headlines" is unknown`},
		{[]string{"eval", "--vault", "../sample-vault", "--generate", "--queries", qfile}, 2, "give --queries FILE or --generate, not both"},
		{[]string{"eval", "--vault", "../sample-vault", "--generate", "--details", "--embedder", "none"}, 2, "--details adds to the JSON report: give --json too"},
	} {
		code, _, errOut := run(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: %d %s", c.args, code, errOut)
		}
	}
}
