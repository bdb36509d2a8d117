package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPStdio(t *testing.T) {
	f := newFixture(t)
	ctx := timeout(t, 60*time.Second)
	cmd := exec.Command(bin, "mcp", "--index", f.db)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing the stdio session: %v", err)
		}
	}()
	// The handshake names the version `mdsearch version` prints, not "dev".
	out, err := exec.Command(bin, "version").Output()
	if info, words := cs.InitializeResult().ServerInfo, strings.Fields(string(out)); err != nil || info == nil || len(words) < 2 || info.Version != words[1] {
		t.Errorf("MCP server version %+v; mdsearch version: %q %v", info, out, err)
	}
	exerciseMCP(ctx, t, cs, f)
}

func TestMCPHTTP(t *testing.T) {
	f := newFixture(t)
	ctx := timeout(t, 60*time.Second)
	_, url := startServer(t, "http://", "mcp", "--http", "127.0.0.1:0", "--index", f.db)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exerciseMCP(ctx, t, cs, f)
}

// TestMCPSharedPath: where two collections hold one note path, a search
// result's header names the note as read_note takes it (collection:path),
// so the agent reads it in one call; the bare path would be ambiguous.
func TestMCPSharedPath(t *testing.T) {
	f := newFixture(t)
	work := t.TempDir()
	writeNote(t, filepath.Join(work, "homelab", "Backups.md"), "# Backups\n\nThe work laptop has a restore drill every month.\n")
	if out, err := exec.Command(bin, "index", work, "--name", "work", "--index", f.db).CombinedOutput(); err != nil {
		t.Fatalf("mdsearch index: %v\n%s", err, out)
	}
	ctx := timeout(t, 60*time.Second)
	cmd := exec.Command(bin, "mcp", "--index", f.db)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, text := callTool(ctx, t, cs, "semantic_search", map[string]any{"query": "restore drill", "mode": "keyword", "n": 10})
	if res.IsError {
		t.Fatalf("search: %s", text)
	}
	for _, p := range []string{f.name + ":homelab/Backups.md", "work:homelab/Backups.md"} {
		if !strings.Contains(text, "**"+p+"** > ") {
			t.Errorf("no header names %s:\n%s", p, text)
			continue
		}
		if res, got := callTool(ctx, t, cs, "read_note", map[string]any{"path": p, "section": "Backups"}); res.IsError || !strings.HasPrefix(got, "# Backups") {
			t.Errorf("read_note(%s): %s", p, got)
		}
	}
	if strings.Contains(text, "**homelab/Backups.md**") {
		t.Errorf("a header names the shared path bare:\n%s", text)
	}
	if res, got := callTool(ctx, t, cs, "read_note", map[string]any{"path": "homelab/Backups.md"}); !res.IsError || !strings.Contains(got, "several collections") {
		t.Errorf("read_note of the bare shared path: %s", got)
	}
}

// exerciseMCP runs the agent workflow over any transport: list tools,
// search, outline, read a section, miss one, try to escape the vault, and
// see a saved edit.
func exerciseMCP(ctx context.Context, t *testing.T, cs *mcp.ClientSession, f fixture) {
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"note_outline", "read_note", "semantic_search"}) {
		t.Errorf("tools %v", names)
	}

	// Search: the result line, the full chunk, its place in the page.
	res, text := callTool(ctx, t, cs, "semantic_search", map[string]any{"query": "starter hooch", "n": 3})
	if res.IsError {
		t.Fatalf("search: %s", text)
	}
	// The header names the passage's section path and, after "+", the
	// section the note's stub introduction merged into: the one that answers.
	for _, want := range []string{"1. **kitchen/Sourdough.md** > Sourdough + Starter Maintenance (", "%)\n",
		"If a grey\nliquid (hooch) forms on top"} {
		if !strings.Contains(text, want) {
			t.Errorf("search text lacks %q:\n%s", want, text)
		}
	}
	if !footerRE.MatchString(text) {
		t.Errorf("search text lacks a `chunk i/N · lines a–b · page W words` line:\n%s", text)
	}
	var out struct {
		Results []struct {
			Path        string     `json:"path"`
			SectionPath []string   `json:"section_path"`
			Sections    [][]string `json:"sections"`
			Text        string     `json:"text"`
			TotalChunks int        `json:"total_chunks"`
		} `json:"results"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Results) == 0 || len(out.Results) > 3 {
		t.Fatalf("structured content %s (%v)", raw, err)
	}
	hit := out.Results[0]
	if hit.Path != "kitchen/Sourdough.md" || hit.TotalChunks == 0 || !strings.Contains(hit.Text, "hooch") {
		t.Errorf("first result %+v", hit)
	}

	// Outline, then read the section the search pointed at.
	if res, text := callTool(ctx, t, cs, "note_outline", map[string]any{"path": hit.Path}); res.IsError ||
		!strings.Contains(text, "    - ### Rye Starter · 33 words (~47 tokens) · lines 22–26\n") {
		t.Errorf("outline: %s", text)
	}
	// The passage starts in the note's introduction and covers Starter
	// Maintenance, where the answer is: read that one.
	if len(hit.Sections) < 2 || strings.Join(hit.Sections[1], "/") != "Sourdough/Starter Maintenance" {
		t.Fatalf("first result covers %q", hit.Sections)
	}
	section := strings.Join(hit.Sections[1], "/")
	res, text = callTool(ctx, t, cs, "read_note", map[string]any{"path": hit.Path, "section": section})
	if res.IsError || !strings.HasPrefix(text, "## Starter Maintenance") || strings.Contains(text, "## Bulk Fermentation") ||
		!strings.Contains(text, "### Rye Starter") {
		t.Errorf("read_note(%q): %s", section, text)
	}

	// A missed section is a tool error that lists the sections.
	res, text = callTool(ctx, t, cs, "read_note", map[string]any{"path": hit.Path, "section": "Croissants"})
	if !res.IsError || !strings.Contains(text, "Starter Maintenance") || !strings.Contains(text, "Bulk Fermentation") {
		t.Errorf("missed section: error=%v %s", res.IsError, text)
	}

	// Leaving the vault is refused, however it is spelled.
	for _, p := range []string{"../../etc/passwd", "/etc/passwd", f.name + ":../../../etc/passwd", "kitchen/../../../etc/passwd"} {
		res, text = callTool(ctx, t, cs, "read_note", map[string]any{"path": p})
		if !res.IsError || strings.Contains(text, "root:") {
			t.Errorf("read_note(%q): error=%v %.200s", p, res.IsError, text)
		}
	}
	// A 200 KB path is named once in the error, shortened: the reply is
	// not twice the path, nor the path at all.
	for _, p := range []string{strings.Repeat("x", 200_000) + ".md", strings.Repeat("x/", 100_000) + "y.md", f.name + ":" + strings.Repeat("y", 200_000)} {
		res, text = callTool(ctx, t, cs, "read_note", map[string]any{"path": p})
		if !res.IsError || len(text) > 1000 || !strings.Contains(text, p[len(p)-40:]) {
			t.Errorf("read_note of a %d-byte path: error=%v, %d bytes: %.300s", len(p), res.IsError, len(text), text)
		}
	}
	if res, text = callTool(ctx, t, cs, "note_outline", map[string]any{"path": "../../etc/passwd"}); !res.IsError {
		t.Errorf("note_outline(../../etc/passwd): %.200s", text)
	}

	// A tag without a query lists its notes, unscored.
	res, text = callTool(ctx, t, cs, "semantic_search", map[string]any{"tag": "baking"})
	if listing, _ := res.StructuredContent.(map[string]any)["listing"].(bool); res.IsError || !listing ||
		!strings.Contains(text, "1 note matches tag \"baking\"") || !strings.Contains(text, "\n1. **kitchen/Sourdough.md**") || strings.Contains(text, "%)") {
		t.Errorf("a tag alone: %s", text)
	}
	res, text = callTool(ctx, t, cs, "semantic_search", map[string]any{"path_prefix": "kitchen/", "n": 1, "offset": 1})
	if res.IsError || !strings.Contains(text, "note 2 by path") || !strings.Contains(text, "\n2. **kitchen/Sourdough.md**") {
		t.Errorf("a list's second page: %s", text)
	}
	res, text = callTool(ctx, t, cs, "semantic_search", map[string]any{"path_prefix": "kitchen/", "sort": "modified"})
	if res.IsError || !strings.Contains(text, "listed last changed first") || !strings.Contains(text, " · changed 20") {
		t.Errorf("a list last changed first: %s", text)
	}
	if res, text = callTool(ctx, t, cs, "semantic_search", map[string]any{"sort": "newest"}); !res.IsError {
		t.Errorf("sort newest: %s", text)
	}

	// Bad arguments are tool errors, and the server carries on.
	if res, text = callTool(ctx, t, cs, "semantic_search", map[string]any{"query": "x", "n": 99}); !res.IsError || !strings.Contains(text, "n is 99") {
		t.Errorf("n=99: %s", text)
	}
	if res, text = callTool(ctx, t, cs, "semantic_search", map[string]any{"query": "x", "limit": 3}); !res.IsError || !strings.Contains(text, `unknown argument "limit" ("limit": use n)`) {
		t.Errorf("limit: %s", text)
	}

	// The server watches the vault: a saved note is searchable at once.
	writeNote(t, filepath.Join(f.vault, "garden", "Tomatoes.md"), "# Tomatoes\n\n## Staking\n\nTie the vines to a zygomorphic trellis.\n")
	eventually(t, 2*time.Second, "edited note in MCP search", func() (bool, string) {
		_, text := callTool(ctx, t, cs, "semantic_search", map[string]any{"query": "zygomorphic", "mode": "keyword"})
		return strings.Contains(text, "**garden/Tomatoes.md**") && strings.Contains(text, "zygomorphic trellis"), text
	})
}

var footerRE = regexp.MustCompile(`(?m)^chunks? [1-9]\d*(–[1-9]\d*)?/[1-9]\d* · (?:lines [1-9]\d*–[1-9]\d*|line [1-9]\d*) · page [1-9]\d* words`)

func callTool(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}

// TestMCPNamesIndex: a notice an agent reads that tells the user to run
// a command names the index the server was started with, by its full
// path, whether --index named it relative to the server's folder or
// $MDSEARCH_INDEX did: the user pastes it elsewhere.
func TestMCPNamesIndex(t *testing.T) {
	f := newFixture(t)
	note := filepath.Join(f.vault, "kitchen", "Sourdough.md")
	data, err := os.ReadFile(note)
	if err != nil {
		t.Fatal(err)
	}
	writeNote(t, note, string(data)+"\nA line added since the index run.\n")
	relative := exec.Command(bin, "mcp", "--index", filepath.Base(f.db), "--no-watch")
	relative.Dir = filepath.Dir(f.db)
	byEnv := exec.Command(bin, "mcp", "--no-watch")
	byEnv.Env = append(os.Environ(), "MDSEARCH_INDEX="+f.db)
	for name, cmd := range map[string]*exec.Cmd{"a relative --index": relative, "$MDSEARCH_INDEX": byEnv} {
		ctx := timeout(t, 60*time.Second)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := callTool(ctx, t, cs, "read_note", map[string]any{"path": "kitchen/Sourdough.md"}); !strings.Contains(got, "`mdsearch index --index "+f.db+"`") {
			t.Errorf("%s: a stale note's notice does not name the index: %s", name, got)
		}
		cs.Close()
	}
}

// TestMCPOutlineLinkedFrom: over a real MCP client, note_outline ends with
// the places in other notes that link to the note, so an agent finds a
// note's context without a search.
func TestMCPOutlineLinkedFrom(t *testing.T) {
	f := newFixtureWith(t, map[string]string{"kitchen/Meal plan.md": "# Meal plan\n\nOn Saturday, bake with the [[Sourdough]] starter.\n"})
	ctx := timeout(t, 60*time.Second)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--index", f.db)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	want := "Linked from 1 place in 1 note:\n- kitchen/Meal plan.md — section \"Meal plan\" · line 3: On Saturday, bake with the [[Sourdough]] starter.\n"
	if res, text := callTool(ctx, t, cs, "note_outline", map[string]any{"path": "kitchen/Sourdough.md"}); res.IsError || !strings.HasSuffix(text, want) {
		t.Errorf("outline:\n%s\nwant it to end with\n%s", text, want)
	}
}
