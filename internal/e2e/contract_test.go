package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch"
)

// contractNotes are a second collection for the contract test: a path
// the sample vault holds too (its results name their note as
// COLLECTION:PATH), and a long section cut into parts.
var contractNotes = map[string]string{
	"homelab/Backups.md":   "# Backups\n\nThe work laptop has a restore drill every month.\n",
	"homelab/Drill Log.md": "# Drill Log\n\n## Restore drill runs\n\n" + drillRuns(),
}

func drillRuns() string {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "Run %d: the restore drill brought back the database from the nightly snapshot in %d minutes, and the checksums matched the source.\n\n", i, 10+i)
	}
	return b.String()
}

// TestContract asks one query through the command line (search --json),
// REST and MCP over one index, each under its own name for every
// parameter, and compares the answers field by field: every adapter
// carries the same result object (mdsearch.Result) with the same names,
// types and values, and the same answer around it; REST adds the
// semantic-search API's fields beside (name, snippet, read_url).
func TestContract(t *testing.T) {
	f := newFixture(t)
	work := t.TempDir()
	for rel, text := range contractNotes {
		writeNote(t, filepath.Join(work, rel), text)
	}
	if out, err := exec.Command(bin, "index", work, "--name", "work", "--index", f.db).CombinedOutput(); err != nil {
		t.Fatalf("mdsearch index: %v\n%s", err, out)
	}
	const query, n, perNote, budget = "restore drill", 6, 1, 1000

	cli, err := exec.Command(bin, "search", query, "-n", fmt.Sprint(n), "--max-per-page", fmt.Sprint(perNote),
		"--max-tokens", fmt.Sprint(budget), "--json", "--index", f.db).Output()
	if err != nil {
		t.Fatalf("search --json: %v", err)
	}

	_, base := startServer(t, "http://", "serve", "--addr", "127.0.0.1:0", "--index", f.db, "--no-watch")
	c := &http.Client{Timeout: 30 * time.Second}
	code, _, rest := apiDo(t, c, "GET", fmt.Sprintf("%s/api/v1/semantic-search?q=%s&n=%d&max_per_page=%d&max_tokens=%d",
		strings.TrimSuffix(base, "/"), strings.ReplaceAll(query, " ", "+"), n, perNote, budget))
	if code != 200 {
		t.Fatalf("REST: %d %s", code, rest)
	}

	ctx := timeout(t, 60*time.Second)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--index", f.db, "--no-watch")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, text := callTool(ctx, t, cs, "semantic_search", map[string]any{"query": query, "n": n, "max_per_page": perNote, "max_tokens": budget})
	if res.IsError {
		t.Fatalf("MCP: %s", text)
	}
	structured, _ := json.Marshal(res.StructuredContent)

	answers := map[string]map[string]any{}
	for name, raw := range map[string][]byte{"CLI": cli, "REST": []byte(rest), "MCP": structured} {
		var a map[string]any
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, raw)
		}
		answers[name] = a
	}
	want := answers["CLI"]
	results := list(t, "CLI", want)
	if len(results) < 2 {
		t.Fatalf("CLI: %d results, want a few to compare:\n%s", len(results), cli)
	}
	// The query is one whose answer uses every field that is not always
	// there, so that comparing compares them; another ranking may need
	// another query.
	seen := map[string]bool{}
	for _, r := range results {
		for k := range r {
			seen[k] = true
		}
	}
	for _, k := range []string{"read_path", "sections", "chunk_end", "part", "parts", "part_end", "truncated", "read_hint", "rest_from", "rest_to"} {
		if !seen[k] {
			t.Errorf("no result has %s: choose a query whose answer does\n%s", k, cli)
		}
	}

	extras := []string{"name", "snippet", "read_url"} // REST's own
	for _, name := range []string{"REST", "MCP"} {
		got := answers[name]
		for _, k := range []string{"query", "mode", "total", "notice", "collection_count"} {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s: %s is %v, the CLI's %v", name, k, got[k], want[k])
			}
		}
		rs := list(t, name, got)
		if len(rs) != len(results) {
			t.Errorf("%s: %d results, the CLI %d", name, len(rs), len(results))
			continue
		}
		for i, r := range rs {
			for k, v := range results[i] {
				if !reflect.DeepEqual(r[k], v) {
					t.Errorf("%s: result %d: %s is %#v, the CLI's %#v", name, i+1, k, r[k], v)
				}
			}
			for k := range r {
				if _, shared := results[i][k]; !shared && (name != "REST" || !slices.Contains(extras, k)) {
					t.Errorf("%s: result %d has %s, which the CLI's has not", name, i+1, k)
				}
			}
			if name != "REST" {
				continue
			}
			snippet, _ := r["snippet"].(string)
			if !strings.HasPrefix(snippet, "[") || !strings.HasSuffix(snippet, "] "+r["text"].(string)) {
				t.Errorf("REST: result %d: snippet %.80q is not the text with its heading path before it", i+1, snippet)
			}
			if _, cut := r["read_url"]; cut != (r["truncated"] == true) {
				t.Errorf("REST: result %d: read_url %v, truncated %v", i+1, r["read_url"], r["truncated"])
			}
		}
	}
	// Every field of mdsearch.Result appears under its JSON name.
	names := map[string]bool{}
	rt := reflect.TypeFor[mdsearch.Result]()
	for i := range rt.NumField() {
		names[strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	for k := range seen {
		if !names[k] {
			t.Errorf("the CLI's result has %s, which mdsearch.Result does not name", k)
		}
	}

	// A misspelled query's respelled results, its suggestion and notice
	// come through every adapter alike; as typed, the suggestion is offered.
	const typo = "bakups restore"
	for _, asTyped := range []bool{false, true} {
		flags, param := []string{"search", typo, "--json", "--index", f.db}, ""
		arg := map[string]any{"query": typo}
		notice := `showing results for "backups restore"`
		if asTyped {
			flags, param, arg["as_typed"], notice = append(flags, "--as-typed"), "&as_typed=true", true, `did you mean "backups restore"?`
		}
		cli, err = exec.Command(bin, flags...).Output()
		if err != nil {
			t.Fatalf("search --json %q: %v", typo, err)
		}
		_, _, rest = apiDo(t, c, "GET", strings.TrimSuffix(base, "/")+"/api/v1/semantic-search?q="+strings.ReplaceAll(typo, " ", "+")+param)
		res, text = callTool(ctx, t, cs, "semantic_search", arg)
		if res.IsError {
			t.Fatalf("MCP: %s", text)
		}
		structured, _ = json.Marshal(res.StructuredContent)
		for name, raw := range map[string][]byte{"CLI": cli, "REST": []byte(rest), "MCP": structured} {
			var a struct {
				Query, Suggestion, Notice string
				Respelled                 bool
			}
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatalf("%s: %v\n%s", name, err, raw)
			}
			if a.Query != typo || a.Suggestion != "backups restore" || a.Respelled == asTyped || !strings.Contains(a.Notice, notice) {
				t.Errorf("%s (as typed %v): query %q, suggestion %q, respelled %v, notice %q", name, asTyped, a.Query, a.Suggestion, a.Respelled, a.Notice)
			}
		}
		if !strings.Contains(text, notice) {
			t.Errorf("MCP's text does not say %q:\n%.300s", notice, text)
		}
	}

	// An explained search gives each result the same why everywhere, and
	// MCP's text says it.
	cli, err = exec.Command(bin, "search", query, "--explain", "--json", "--index", f.db).Output()
	if err != nil {
		t.Fatalf("search --explain --json: %v", err)
	}
	_, _, rest = apiDo(t, c, "GET", strings.TrimSuffix(base, "/")+"/api/v1/semantic-search?explain=true&q="+strings.ReplaceAll(query, " ", "+"))
	res, text = callTool(ctx, t, cs, "semantic_search", map[string]any{"query": query, "explain": true})
	if res.IsError {
		t.Fatalf("MCP: %s", text)
	}
	if !strings.Contains(text, "\nwhy: keyword #") || !strings.Contains(text, "\nsecond stage: ") || !strings.Contains(text, "\nscore: from ") {
		t.Errorf("MCP's text does not say why each result ranked:\n%.600s", text)
	}
	structured, _ = json.Marshal(res.StructuredContent)
	var whys [3][]*mdsearch.Why
	for i, raw := range [][]byte{cli, []byte(rest), structured} {
		var a struct{ Results []struct{ Why *mdsearch.Why } }
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatalf("explained answer %d: %v\n%s", i, err, raw)
		}
		for _, r := range a.Results {
			whys[i] = append(whys[i], r.Why)
		}
	}
	if len(whys[0]) == 0 || whys[0][0] == nil || len(whys[0][0].Factors) == 0 || len(whys[0][0].ScoreFactors) == 0 {
		t.Fatalf("the CLI's explained answer has no second-stage why: %s", cli)
	}
	if !reflect.DeepEqual(whys[0], whys[1]) || !reflect.DeepEqual(whys[0], whys[2]) {
		t.Errorf("why differs between the CLI, REST and MCP:\n%s\n%s\n%s", cli, rest, structured)
	}
}

// list is an answer's results, each a JSON object.
func list(t *testing.T, name string, answer map[string]any) []map[string]any {
	t.Helper()
	raw, ok := answer["results"].([]any)
	if !ok {
		t.Fatalf("%s: results %T", name, answer["results"])
	}
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		if out[i], ok = r.(map[string]any); !ok {
			t.Fatalf("%s: result %d is %T", name, i+1, r)
		}
	}
	return out
}
