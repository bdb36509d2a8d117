package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// run runs the command line in-process with MDSEARCH_INDEX set to index.
func run(t *testing.T, index string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == "MDSEARCH_INDEX" {
			return index
		}
		return os.Getenv(k)
	}}
	code = Main(context.Background(), env, args)
	return code, out.String(), errb.String()
}

// noModel points the model lookup at an empty folder, as on a machine
// where `mdsearch setup` never ran.
func noModel(t *testing.T) {
	t.Setenv("MDSEARCH_MODEL_DIR", filepath.Join(t.TempDir(), "missing"))
	t.Setenv("MDSEARCH_ORT_LIB", filepath.Join(t.TempDir(), "missing.so"))
}

// needModel skips (fails in CI) when the local model cannot be loaded.
func needModel(t *testing.T) {
	t.Helper()
	m, err := sentenceencoder.New(sentenceencoder.Options{})
	if err != nil {
		testenv.Absent(t, "model assets missing (run `mdsearch setup`): %v", err)
	}
	m.Close()
}

func TestIndexSearchReadStatusWithoutModel(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	code, out, errOut := run(t, index, "index", "../sample-vault", "--name", "sample")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "sample: 6 files (6 added") {
		t.Fatalf("index: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "keyword search only") || !strings.Contains(errOut, "mdsearch setup") {
		t.Errorf("index should name the fix for the missing model: %s", errOut)
	}

	// The terminal shows the full section path, the whole passage indented
	// and its footer; --brief only the first lines.
	code, out, errOut = run(t, "", "search", "restore drill", "--index", index)
	line := regexp.MustCompile(`^1\. \*\*homelab/Backups\.md\*\*( > [^()]+)? \(\d+\.\d%\)$`)
	footer := regexp.MustCompile(`(?m)^   — chunks? \d+(–\d+)?/\d+ · lines \d+–\d+ · (section continues to line \d+ · )?page \d+ words`)
	if code != 0 || !line.MatchString(strings.SplitN(out, "\n", 2)[0]) || !footer.MatchString(out) ||
		!strings.Contains(out, "\n   Once a quarter, restore a random directory") || !strings.Contains(errOut, "mdsearch setup") {
		t.Errorf("search: %d\n%s\n%s", code, out, errOut)
	}
	code, brief, _ := run(t, index, "search", "restore drill", "--brief", "-n", "1")
	if first := strings.Split(brief, "\n"); code != 0 || len(first) > 7 || !line.MatchString(first[0]) || !footer.MatchString(brief) {
		t.Errorf("search --brief: %d\n%s", code, brief)
	}
	for _, other := range [][]string{{"--json"}, {"--max-tokens", "100"}} { // each would not follow the lines --brief cuts
		if code, _, errOut := run(t, index, append([]string{"search", "restore drill", "--brief"}, other...)...); code != 2 ||
			!strings.Contains(errOut, "--brief prints each result's first lines, while "+other[0]) {
			t.Errorf("search --brief %s: exit %d, %q", other[0], code, errOut)
		}
	}

	code, out, _ = run(t, index, "search", "restore", "-n", "3", "--mode", "keyword", "--json")
	var resp struct {
		Query   string            `json:"query"`
		Results []json.RawMessage `json:"results"`
		Total   *int              `json:"total"`
		TookMS  *float64          `json:"took_ms"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &resp) != nil || resp.Query != "restore" || resp.Total == nil || resp.TookMS == nil || *resp.Total != len(resp.Results) {
		t.Fatalf("search --json: %d %s", code, out)
	}
	var r map[string]any
	json.Unmarshal(resp.Results[0], &r)
	for _, k := range []string{"path", "title", "collection", "section", "section_path", "chunk_index", "total_chunks",
		"page_word_count", "start_line", "end_line", "text", "score", "distance"} {
		if _, ok := r[k]; !ok {
			t.Errorf("result lacks %q: %v", k, r)
		}
	}
	if !strings.Contains(r["text"].(string), "over the wired network.") {
		t.Errorf("text must be the full passage: %q", r["text"])
	}

	// --max-tokens fills the budget with whole passages and cuts the last.
	code, out, _ = run(t, index, "search", "restore", "--mode", "keyword", "--max-tokens", "40", "--json")
	var cut mdsearch.SearchResponse
	if code != 0 || json.Unmarshal([]byte(out), &cut) != nil || len(cut.Results) != 1 || !cut.Results[0].Truncated ||
		cut.Results[0].ReadHint == "" || cut.Results[0].EndLine >= int(r["end_line"].(float64)) {
		t.Errorf("search --max-tokens 40: %d %s", code, out)
	}

	code, out, _ = run(t, index, "read", "homelab/Backups.md", "--section", "restore drill")
	if code != 0 || !strings.HasPrefix(out, "## Restore Drill\n") || strings.Contains(out, "Retention") {
		t.Errorf("read --section: %d\n%s", code, out)
	}
	code, out, _ = run(t, index, "read", "sample:kitchen/Sourdough.md", "--json")
	var rr mdsearch.ReadResponse
	if code != 0 || json.Unmarshal([]byte(out), &rr) != nil || rr.Title != "Sourdough" || rr.Collection != "sample" {
		t.Errorf("read --json: %d %s", code, out)
	}
	code, out, _ = run(t, index, "read", "kitchen/Sourdough.md", "--outline")
	if code != 0 || !strings.Contains(out, "    - ### Rye Starter · 33 words (~47 tokens) · lines 22–26\n") {
		t.Errorf("read --outline: %d %s", code, out)
	}

	code, out, _ = run(t, index, "status", "--json")
	var st mdsearch.Status
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Files != 6 || st.Chunks == 0 || st.ModelID != "" || st.SizeBytes == 0 {
		t.Errorf("status --json: %d %s", code, out)
	}
	code, out, _ = run(t, index, "status")
	if code != 0 || !strings.Contains(out, "sample") || !strings.Contains(out, "keyword search only") || strings.Contains(out, "warnings") {
		t.Errorf("status: %d %s", code, out)
	}

	code, out, _ = run(t, index, "index", "../sample-vault", "--name", "sample", "--json")
	var is mdsearch.IndexStats
	if code != 0 || json.Unmarshal([]byte(out), &is) != nil || is.Unchanged != 6 || is.Chunks != 0 {
		t.Errorf("no-op index --json: %d %s", code, out)
	}
}

func TestCommandErrors(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	run(t, index, "index", "../sample-vault")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"search"}, 2, "mdsearch: search: give a QUERY"},
		// A value the engine rejects is a bad command line too: exit 2,
		// and the command is named once.
		{[]string{"search", "x", "-n", "0"}, 2, "mdsearch: search: n is 0: use 1-50 (default 5)"},
		{[]string{"search", "x", "-n", "1000"}, 2, "mdsearch: search: n is 1000: use 1-50"},
		{[]string{"search", "x", "--max-per-page", "9"}, 2, "mdsearch: search: max_per_page is 9: use 1-5, or 0 for the default (2)"},
		{[]string{"search", "x", "--mode", "fuzzy"}, 2, `mdsearch: search: mode is "fuzzy": use hybrid, semantic or keyword`},
		{[]string{"search", "x", "--max-tokens", "-5"}, 2, "mdsearch: search: max_tokens is -5: use 1-1048576, or 0 for no limit"},
		{[]string{"search", "x", "--where", "noequals"}, 2, `mdsearch: search: where "noequals": use field=value`},
		{[]string{"search", strings.Repeat("long ", 1000)}, 2, "mdsearch: search: query is 4999 bytes: use at most 4000"},
		{[]string{"read", ""}, 2, "mdsearch: read: no path given"},
		{[]string{"search", "x", "--collection", "nope"}, 1, "have: sample-vault"},
		{[]string{"read", "../../etc/passwd"}, 1, `".." is refused`},
		{[]string{"read", "/etc/passwd"}, 1, "not inside an indexed folder"},
		{[]string{"read", "kitchen/Sourdough.md", "--section", "nope"}, 1, `"Sourdough/Bulk Fermentation"`},
		{[]string{"read", "nope.md"}, 1, "no such note"},
		{[]string{"read", "homelab/Backups.md", "Restore", "Drill"}, 2, `unexpected argument "Restore": give one PATH, a note's path in its vault, and a section with --section (read homelab/Backups.md --section 'Restore Drill')`},
		{[]string{"index", "a", "b"}, 2, `mdsearch: index: unexpected argument "b"`},
		{[]string{"index", "does-not-exist"}, 1, "no such folder"},
		{[]string{"index", "../sample-vault", "--max-file-size", "lots"}, 2, `mdsearch: index: --max-file-size "lots": not a size`},
		{[]string{"read", "x.md", "--max-file-size", "-5KB"}, 2, `--max-file-size "-5KB": not a size`},
		{[]string{"status", "extra"}, 2, `mdsearch: status: unexpected argument "extra"`},
		{[]string{"search", "x", "--embedder", "bogus"}, 2, "unknown embedder"},
		{[]string{"search", "x", "--precision", "int4"}, 2, "int4"},
		{[]string{"drop", "nope"}, 1, "mdsearch: drop: collection nope: no such collection; have: sample-vault"},
	}
	for _, c := range cases {
		code, _, errOut := run(t, index, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errOut, c.code, c.msg)
		}
	}
	bad := filepath.Join(t.TempDir(), "junk.db")
	os.WriteFile(bad, bytes.Repeat([]byte("junk"), 1000), 0o644)
	if code, _, errOut := run(t, bad, "status"); code != 1 || !strings.Contains(errOut, "not an mdsearch index") {
		t.Errorf("junk index: %d %s", code, errOut)
	}
}

func TestReadingCommandsNeedAnIndex(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "none.db")
	for _, args := range [][]string{{"search", "x"}, {"read", "a.md"}, {"status"}} {
		code, _, errOut := run(t, index, args...)
		if code != 1 || !strings.Contains(errOut, "run `mdsearch index DIR` first") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 naming `mdsearch index`", args, code, errOut)
		}
	}
	if _, err := os.Stat(index); err == nil {
		t.Error("a reading command created an empty index")
	}
}

func TestEmbedderNone(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	code, out, errOut := run(t, index, "index", "../sample-vault", "--embedder", "none")
	if code != 0 || !strings.Contains(out, "6 added") || !strings.Contains(errOut, "keyword search only") {
		t.Fatalf("index --embedder none: %d %s %s", code, out, errOut)
	}
	code, out, _ = run(t, index, "search", "restic", "--embedder", "none")
	if code != 0 || !strings.HasPrefix(out, "1. **homelab/Backups.md**") {
		t.Errorf("search --embedder none: %d %s", code, out)
	}
	// --exclude leaves a note out, as if the vault did not hold it.
	code, out, errOut = run(t, index, "search", "restic", "--embedder", "none", "--exclude", "homelab/Backups.md")
	if code != 0 || strings.Contains(out, "Backups.md") {
		t.Errorf("search --exclude: %d %s %s", code, out, errOut)
	}
	code, _, errOut = run(t, index, "search", "restic", "--embedder", "none", "--exclude", " ")
	if code == 0 || !strings.Contains(errOut, "exclude holds an empty path") {
		t.Errorf("search --exclude ' ': %d %s", code, errOut)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"10MB": 10 << 20, "512kb": 512 << 10, "1.5GB": 3 << 29, "100": 100, "0": -1, "none": -1, "2 MB": 2 << 20} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "-1MB", "ten", "0MB", "0.5B", "0.0001KB"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
}

func TestSearchWithModel(t *testing.T) {
	needModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	if code, out, errOut := run(t, index, "index", "../sample-vault"); code != 0 || errOut != "" {
		t.Fatalf("index: %d %s %s", code, out, errOut)
	}
	code, out, errOut := run(t, index, "search", "aphids and whitefly on tomato plants", "--mode", "semantic", "--json", "--explain")
	var resp mdsearch.SearchResponse
	if code != 0 || errOut != "" || json.Unmarshal([]byte(out), &resp) != nil {
		t.Fatalf("search: %d %s %s", code, out, errOut)
	}
	// Semantic mode orders by the cosine and shows the second stage's
	// probability, which the score factors explain; it is not rescaled
	// to the query's best hit.
	top := resp.Results[0]
	if resp.Mode != mdsearch.ModeSemantic || top.Path != "garden/Tomatoes.md" || top.Section != "Pests" || top.Distance == nil ||
		top.Score <= 0 || top.Score >= 1 || top.Why == nil || len(top.Why.ScoreFactors) == 0 {
		t.Errorf("semantic: %+v", resp)
	}
	for i, r := range resp.Results[1:] {
		prev := resp.Results[i]
		if r.Distance == nil || *r.Distance < *prev.Distance || r.Score > prev.Score {
			t.Errorf("result %d: score %v, distance %v after %v, %v", i+2, r.Score, r.Distance, prev.Score, *prev.Distance)
		}
	}
	if code, out, _ := run(t, index, "status"); code != 0 || !strings.Contains(out, "use-lite") {
		t.Errorf("status: %s", out)
	}
}

// --max-file-size given once stays the collection's: a later index, or a
// status, without it neither adds what it left out nor calls it stale.
func TestMaxFileSizeSticks(t *testing.T) {
	noModel(t)
	vault := t.TempDir()
	os.WriteFile(filepath.Join(vault, "small.md"), []byte("# Small\n\ntext\n"), 0o644)
	os.WriteFile(filepath.Join(vault, "big.md"), []byte("# Big\n\n"+strings.Repeat("word ", 400)), 0o644)
	index := filepath.Join(t.TempDir(), "index.db")
	if code, out, errOut := run(t, index, "index", vault, "--max-file-size", "1KB"); code != 0 || !strings.Contains(out, "1 file ") {
		t.Fatalf("index with 1KB: %d %s %s", code, out, errOut)
	}
	if code, out, errOut := run(t, index, "index", vault); code != 0 || !strings.Contains(out, "1 file ") {
		t.Errorf("index again without the flag: %d %s %s; want big.md still left out", code, out, errOut)
	}
	if code, out, _ := run(t, index, "status", "--json"); code != 0 || !strings.Contains(out, `"stale": 0`) {
		t.Errorf("status: %d %s; want nothing stale", code, out)
	}
	if code, out, errOut := run(t, index, "index", vault, "--max-file-size", "none"); code != 0 || !strings.Contains(out, "2 files") {
		t.Errorf("index with no limit: %d %s %s; want big.md in", code, out, errOut)
	}
}

// "mdsearch index NAME" re-indexes collection NAME when no folder of that
// name is at hand; an unknown name is neither, and the error lists the
// collections.
func TestIndexByName(t *testing.T) {
	noModel(t)
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", "../sample-vault"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if code, out, errOut := run(t, index, "index", "sample-vault"); code != 0 || !strings.Contains(out, "sample-vault: 6 files (6 unchanged)") {
		t.Errorf("index by name: %d %q %s", code, out, errOut)
	}
	if code, _, errOut := run(t, index, "index", "no-such-thing"); code != 1 || !strings.Contains(errOut, "no such folder or collection") ||
		!strings.Contains(errOut, "the collections are sample-vault") {
		t.Errorf("index of an unknown name: %d %s", code, errOut)
	}
	// A collection whose folder moved is named as such, not as unknown.
	notes := filepath.Join(t.TempDir(), "notes")
	os.MkdirAll(notes, 0o755)
	os.WriteFile(filepath.Join(notes, "a.md"), []byte("# A\n\nalpha\n"), 0o644)
	if code, _, errOut := run(t, index, "index", notes); code != 0 {
		t.Fatalf("index notes: %d %s", code, errOut)
	}
	os.Rename(notes, notes+"2")
	if code, _, errOut := run(t, index, "index", "notes"); code != 1 || !strings.Contains(errOut, `the folder of collection "notes" is gone`) {
		t.Errorf("index of a collection whose folder moved: %d %s", code, errOut)
	}
}

// TestIndexEveryCollection: "mdsearch index" alone re-indexes every
// collection from its folder; on a missing index it makes none.
func TestIndexEveryCollection(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	index := filepath.Join(dir, "index.db")
	if code, _, errOut := run(t, index, "index"); code != 1 || !strings.Contains(errOut, "no index here") {
		t.Errorf("on a missing index: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(index); err == nil {
		t.Error("a run with nothing to index made an index")
	}
	run(t, index, "index", "../sample-vault")
	run(t, index, "index", "../sample-vault/kitchen", "--name", "kitchen")
	code, out, errOut := run(t, index, "index")
	if code != 0 || !strings.Contains(out, "sample-vault: 6 files (6 unchanged)") || !strings.Contains(out, "kitchen: 2 files (2 unchanged)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestStatusStaleLine: status explains its STALE count, which counts new
// files too and so may exceed FILES.
func TestStatusStaleLine(t *testing.T) {
	noModel(t)
	vault := t.TempDir()
	if err := os.CopyFS(vault, os.DirFS("../sample-vault")); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", vault); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if code, out, _ := run(t, index, "status"); code != 0 || strings.Contains(out, "stale:") {
		t.Errorf("status of an up-to-date index: %d %s", code, out)
	}
	os.WriteFile(filepath.Join(vault, "new.md"), []byte("# New\n\nfresh\n"), 0o644)
	if code, out, _ := run(t, index, "status"); code != 0 || !strings.Contains(out, "stale: 1 file added, changed or deleted on disk since indexed") {
		t.Errorf("status with a new file: %d %s", code, out)
	}
}

// A collection whose folder is gone is flagged with the fix an index run
// gives, not counted among the stale notes a plain index run catches up.
func TestStatusRootMissing(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "personal", "a.md"), "# A\n\ntext\n")
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", filepath.Join(dir, "personal")); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if err := os.Rename(filepath.Join(dir, "personal"), filepath.Join(dir, "personal2")); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, index, "status")
	if code != 0 || strings.Contains(out, "`mdsearch index` catches up") ||
		!strings.Contains(out, `the folder of collection "personal" is gone`) ||
		!strings.Contains(out, "`mdsearch index DIR --name personal`") || !strings.Contains(out, "`mdsearch drop personal`") {
		t.Errorf("status: %d\n%s", code, out)
	}
	code, out, _ = run(t, index, "status", "--json")
	var st struct {
		Collections []struct {
			RootMissing *bool `json:"root_missing"`
		} `json:"collections"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Collections) != 1 ||
		st.Collections[0].RootMissing == nil || !*st.Collections[0].RootMissing {
		t.Errorf("status --json: %d %s", code, out)
	}
}

// status names a collection an index run would stop on (its ignore file
// cannot be read), with the run's own words, rather than counting every
// note stale and sending the user to that run.
// A collection an older mdsearch cut is named, with the run that cuts it
// again; not once it has run.
func TestStatusOutdated(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "---\nauthor: Quince\n---\n# A\n\ntext\n")
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", dir, "--name", "v"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if _, out, _ := run(t, index, "status"); strings.Contains(out, "outdated") {
		t.Errorf("just indexed:\n%s", out)
	}
	sqliteFile(t, index, `UPDATE collections SET chunking = replace(chunking, ' v=', ' v=1')`)
	code, out, _ := run(t, index, "status")
	if code != 0 || !strings.Contains(out, "outdated: v: cut by another version of mdsearch; `mdsearch index` cuts its notes again") {
		t.Errorf("status: %d\n%s", code, out)
	}
	if code, out, _ := run(t, index, "status", "--json"); code != 0 || !strings.Contains(out, `"outdated": true`) {
		t.Errorf("status --json: %d\n%s", code, out)
	}
	run(t, index, "index", dir, "--name", "v")
	if _, out, _ := run(t, index, "status"); strings.Contains(out, "outdated") {
		t.Errorf("indexed again:\n%s", out)
	}
}

func TestStatusUnreadable(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "# A\n\ntext\n")
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", dir, "--name", "v"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if err := os.Mkdir(filepath.Join(dir, ".mdsearchignore"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, index, "status")
	if code != 0 || strings.Contains(out, "`mdsearch index` catches up") || !strings.Contains(out, "unreadable: v: an index run stops") ||
		!strings.Contains(out, ".mdsearchignore") {
		t.Errorf("status: %d\n%s", code, out)
	}
	// Its stale count is not known: "?", not 0.
	if !regexp.MustCompile(`(?m)^v +1 +\d+ +\d+ +\d+ +\? `).MatchString(out) {
		t.Errorf("the stale count of an unreadable collection is not shown as unknown:\n%s", out)
	}
}

// status lists what was odd about notes when they were read, which an
// index run prints only once.
// TestStatusWarnings: status names the notes' warnings and the files the
// index runs skipped.
func TestStatusWarnings(t *testing.T) {
	noModel(t)
	vault := t.TempDir()
	if err := os.WriteFile(filepath.Join(vault, "odd.md"), []byte("---\n- a list\n---\n# Odd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vault, "bin.md"), []byte("x\x00y"), 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index.db")
	if code, _, errOut := run(t, index, "index", vault, "--name", "v"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	code, out, _ := run(t, index, "status")
	if code != 0 || !strings.Contains(out, "warnings: 1,") || !strings.Contains(out, "  odd.md: frontmatter is a YAML list") ||
		!strings.Contains(out, "skipped: 1,") || !strings.Contains(out, "  bin.md: binary file") {
		t.Errorf("status: %d\n%s", code, out)
	}
	code, out, _ = run(t, index, "status", "--json")
	var st mdsearch.Status
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Collections[0].Warnings) != 1 || len(st.Collections[0].Skipped) != 1 {
		t.Errorf("status --json: %d %s", code, out)
	}
	if _, out, _ = run(t, index, "status"); strings.Contains(out, "--max-file-size") { // no file was over the limit: the flag is no fix
		t.Errorf("status names --max-file-size for a binary file:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(vault, "big.md"), bytes.Repeat([]byte("word "), 300), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, index, "index", vault, "--name", "v", "--max-file-size", "1KB")
	if _, out, _ = run(t, index, "status"); !strings.Contains(out, "skipped: 2,") || !strings.Contains(out, "larger --max-file-size, 1MB here;") {
		t.Errorf("status after a file over the limit:\n%s", out)
	}
}

// read leaves Obsidian comments out, saying so on stderr; --comments
// keeps them.
func TestReadComments(t *testing.T) {
	vault, index := t.TempDir(), filepath.Join(t.TempDir(), "index.db")
	if err := os.WriteFile(filepath.Join(vault, "Garden.md"), []byte("# Garden\n\nWater daily. %%an aside%% Mulch.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, index, "index", vault, "--embedder", "none"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := run(t, index, "read", "Garden.md")
	if code != 0 || out != "# Garden\n\nWater daily.  Mulch.\n" || !strings.Contains(errOut, "1 comment (%%…%% or <!--…-->) left out") {
		t.Errorf("read: %d %q %q", code, out, errOut)
	}
	code, out, errOut = run(t, index, "read", "Garden.md", "--json")
	var r mdsearch.ReadResponse
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.CommentsLeftOut != 1 ||
		r.Notice != "1 comment (%%…%% or <!--…-->) left out, blanked in place: --comments keeps them" {
		t.Errorf("read --json: %d %v %+v %q", code, err, r, errOut)
	}
	code, out, errOut = run(t, index, "read", "Garden.md", "--comments")
	if code != 0 || !strings.Contains(out, "%%an aside%%") || strings.Contains(errOut, "comment") {
		t.Errorf("read --comments: %d %q %q", code, out, errOut)
	}
	// A long note's outline shows no line, so no comment is counted, and
	// how to read on follows what it is said of.
	long := "# Long\n\n%%an aside%%\n\n" + strings.Repeat("word ", 1600) + "\n\n## Part\n\nend\n"
	if err := os.WriteFile(filepath.Join(vault, "Long.md"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, index, "index", vault, "--embedder", "none"); code != 0 {
		t.Fatal(errOut)
	}
	code, _, errOut = run(t, index, "read", "Long.md")
	if code != 0 || strings.Contains(errOut, "comment") || !strings.Contains(errOut, "or the whole note (--section PATH or #ANCHOR from the outline; --full for the whole note)") {
		t.Errorf("read of a long note: %d %q", code, errOut)
	}
	code, _, errOut = run(t, index, "read", "Long.md", "--full")
	if code != 0 || !strings.Contains(errOut, "1 comment (%%…%% or <!--…-->) left out, blanked in place: --comments keeps them") || strings.Contains(errOut, "comments: true") {
		t.Errorf("read --full: %d %q", code, errOut)
	}
}
