package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/eval"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/vault"
)

func chunkEnv() (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}, &out, &errOut
}

func writeNotes(t *testing.T) (note, binary string) {
	t.Helper()
	dir := t.TempDir()
	note = filepath.Join(dir, "note.md")
	// A stub intro, then a section of four 90-word paragraphs: over the
	// 300-word passage budget, so the intro merges into the section's first
	// part and a second part follows.
	para := strings.TrimSpace(strings.Repeat("Some words here. ", 30))
	body := "---\ntags: [demo]\n---\n# Note\n\nIntro.\n\n## Part\n\n" + strings.Repeat(para+"\n\n", 4)
	if err := os.WriteFile(note, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	binary = filepath.Join(dir, "image.md")
	if err := os.WriteFile(binary, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644); err != nil {
		t.Fatal(err)
	}
	return note, binary
}

func TestChunkJSON(t *testing.T) {
	note, _ := writeNotes(t)
	src, _ := os.ReadFile(note)
	env, out, errOut := chunkEnv()
	if err := runChunk(context.Background(), env, []string{"--json", "--max-tokens", "64", note}); err != nil {
		t.Fatalf("runChunk: %v (stderr %q)", err, errOut)
	}
	var cs []mdsearch.Chunk
	if err := json.Unmarshal(out.Bytes(), &cs); err != nil {
		t.Fatalf("output is not a JSON array of passages: %v\n%s", err, out)
	}
	if len(cs) != 2 {
		t.Fatalf("%d passages, want 2:\n%s", len(cs), out)
	}
	// The stub intro merged forward: the first passage is labelled by the
	// section it starts in and lists both; the second is the rest of Part.
	if c := cs[0]; c.Section != "Note" || c.StartLine != 4 ||
		!slices.EqualFunc(c.Sections, [][]string{{"Note"}, {"Note", "Part"}}, slices.Equal) {
		t.Errorf("first passage: %s %v lines %d-%d, sections %v", c.Section, c.SectionPath, c.StartLine, c.EndLine, c.Sections)
	}
	if c := cs[1]; c.Section != "Part" || !slices.Equal(c.SectionPath, []string{"Note", "Part"}) || c.Sections != nil || c.Part != 2 || c.Parts != 2 {
		t.Errorf("second passage: %s %v part %d/%d, sections %v", c.Section, c.SectionPath, c.Part, c.Parts, c.Sections)
	}
	for i, c := range cs {
		if c.ChunkIndex != i || c.TotalChunks != len(cs) || c.Path != filepath.ToSlash(note) ||
			len(c.Tags) != 1 || c.Tags[0] != "demo" || len(c.Windows) == 0 || c.WordCount > 300 {
			t.Errorf("passage %d: %+v", i, c)
		}
		if c.Text != string(src[c.StartByte:c.EndByte]) {
			t.Errorf("passage %d: text is not the source bytes %d-%d", i, c.StartByte, c.EndByte)
		}
		if i > 0 && c.StartByte < cs[i-1].EndByte {
			t.Errorf("passage %d overlaps the one before", i)
		}
		for j, w := range c.Windows {
			if w.TokenCount > 64 || w.TokenCount <= 0 || w.Hash == "" || !strings.HasPrefix(w.EmbedText, "[Note") ||
				w.StartByte < c.StartByte || w.EndByte > c.EndByte {
				t.Errorf("passage %d window %d: %+v", i, j, w)
			}
			if w.Heading {
				// The heading path alone, last, with no text.
				if j != len(c.Windows)-1 || w.StartByte != w.EndByte || !strings.HasSuffix(w.EmbedText, "]") {
					t.Errorf("passage %d heading window %d: %+v", i, j, w)
				}
				continue
			}
			_, text, ok := strings.Cut(w.EmbedText, "] ")
			if !ok || text != string(src[w.StartByte:w.EndByte]) || !strings.Contains(c.Text, text) {
				t.Errorf("passage %d window %d: text is not its source bytes: %+v", i, j, w)
			}
		}
	}
	// Keys are snake_case as the issue names them.
	for _, key := range []string{`"section_path"`, `"start_line"`, `"end_line"`, `"total_chunks"`, `"sections"`, `"windows"`,
		`"embed_text"`, `"token_count"`, `"word_count"`} {
		if !bytes.Contains(out.Bytes(), []byte(key)) {
			t.Errorf("output lacks %s", key)
		}
	}
}

func TestChunkFailures(t *testing.T) {
	note, binary := writeNotes(t)
	missing := filepath.Join(t.TempDir(), "missing.md")
	env, out, errOut := chunkEnv()
	err := runChunk(context.Background(), env, []string{binary, note, missing, "--json"})
	if !errors.Is(err, errFailed) {
		t.Fatalf("err = %v, want errFailed", err)
	}
	if Main(context.Background(), env, []string{"chunk", binary}) != 1 {
		t.Error("exit code is not 1 for a binary file")
	}
	stderr := errOut.String()
	for _, want := range []string{binary + ": binary file", missing + ": no such file"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	var cs []mdsearch.Chunk
	if err := json.Unmarshal(out.Bytes(), &cs); err != nil || len(cs) == 0 {
		t.Errorf("the readable note was not chunked: %v\n%s", err, out)
	}
}

func TestChunkListing(t *testing.T) {
	note, _ := writeNotes(t)
	for _, profile := range []string{"sections", "h2h3"} {
		env, out, _ := chunkEnv()
		if err := runChunk(context.Background(), env, []string{"--profile", profile, "--max-tokens", "64", note}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		// FILE: N passages; per passage "#i Lstart-end  Section > Path (p/P)
		// W words, K windows [t1 t2 … tokens]  first line", then the other
		// sections it covers.
		passage := regexp.MustCompile(`^  #(\d+) +L(\d+)-(\d+)  (.+?)  (\d+) words, (\d+) windows \[([\d ]+) tokens\]  (.+)$`)
		if len(lines) != 4 || lines[0] != note+": 2 passages" {
			t.Fatalf("%s listing:\n%s", profile, out)
		}
		m0, m1 := passage.FindStringSubmatch(lines[1]), passage.FindStringSubmatch(lines[3])
		if m0 == nil || m1 == nil {
			t.Fatalf("%s: passage lines do not match %s:\n%s", profile, passage, out)
		}
		if m0[1] != "0" || m0[2] != "4" || m0[4] != "Note (1/2)" || m0[8] != "# Note" ||
			strings.TrimSpace(lines[2]) != "also covers Note > Part" {
			t.Errorf("%s: first passage:\n%s\n%s", profile, lines[1], lines[2])
		}
		if m1[1] != "1" || m1[4] != "Note > Part (2/2)" || m1[5] != "90" || !strings.HasPrefix(m1[8], "Some words here.") {
			t.Errorf("%s: second passage: %s", profile, lines[3])
		}
		for _, m := range [][]string{m0, m1} {
			if toks := strings.Fields(m[7]); strconv.Itoa(len(toks)) != m[6] {
				t.Errorf("%s: %s windows but %d token counts: %s", profile, m[6], len(toks), m[0])
			}
		}
	}
}

func TestChunkUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--profile", "nope", "x.md"}, {"--max-tokens", "-1", "x.md"}, {"--max-tokens", "0", "x.md"}, {"--bogus"}} {
		env, _, _ := chunkEnv()
		if code := Main(context.Background(), env, append([]string{"chunk"}, args...)); code != 2 {
			t.Errorf("chunk %q: exit %d, want 2", args, code)
		}
	}
}

// TestChunkErrorKinds: a failure under --json carries the kind the README
// gives it: a missing file is not found, a bad flag value is usage.
func TestChunkErrorKinds(t *testing.T) {
	note, binary := writeNotes(t)
	missing := filepath.Join(t.TempDir(), "missing.md")
	for _, tt := range []struct {
		args []string
		code int
		kind string
	}{
		{[]string{missing}, 1, "not_found"},
		{[]string{binary}, 1, "invalid"},
		{[]string{"--max-tokens", "0", note}, 2, "usage"},
		{[]string{"--max-tokens", "-1", note}, 2, "usage"},
		{[]string{"--profile", "bogus", note}, 2, "usage"},
	} {
		env, out, errOut := chunkEnv()
		code := Main(context.Background(), env, append([]string{"chunk", "--json", "--embedder", "none"}, tt.args...))
		var got jsonError
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || code != tt.code || got.Error.Kind != tt.kind {
			t.Errorf("chunk %q: exit %d, %s (%v); want exit %d, kind %s (stderr %q)", tt.args, code, out, err, tt.code, tt.kind, errOut)
		}
	}
}

// TestChunkFixed: --profile fixed cuts as `index --profile fixed` does,
// with the same function, headings ignored.
func TestChunkFixed(t *testing.T) {
	note, _ := writeNotes(t)
	env, out, errOut := chunkEnv()
	if err := runChunk(context.Background(), env, []string{"--json", "--embedder", "none", "--profile", "fixed", note}); err != nil {
		t.Fatalf("runChunk: %v (stderr %q)", err, errOut)
	}
	var got []mdsearch.Chunk
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not a JSON array of passages: %v\n%s", err, out)
	}
	src, err := os.ReadFile(note)
	if err != nil {
		t.Fatal(err)
	}
	doc := sections.Parse(filepath.ToSlash(note), src)
	want := indexProfiles[eval.ChunkFixed](doc, chunks.Options{MaxTokens: chunks.DefaultMaxTokens, Counter: embed.Words{}})
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if len(want) == 0 || !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("chunk --profile fixed:\n%s\nwant index's cut:\n%s", gotJSON, wantJSON)
	}
}

// TestChunkListingOne: a passage of one word says so in the singular.
func TestChunkListingOne(t *testing.T) {
	note := filepath.Join(t.TempDir(), "one.md")
	if err := os.WriteFile(note, []byte("Word\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, out, _ := chunkEnv()
	if err := runChunk(context.Background(), env, []string{note}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.HasPrefix(got, note+": 1 passage\n") || !strings.Contains(got, "  1 word, 2 windows [") {
		t.Errorf("listing:\n%s", got)
	}
}

// TestChunkFolder: a folder stands for the notes index would read in it,
// named under the folder as given; an empty one is an error naming it.
func TestChunkFolder(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.md":             "# A\n\nalpha\n",
		"sub/b.markdown":   "# B\n\nbeta\n",
		".hidden/c.md":     "# C\n\ngamma\n",
		"drafts/d.md":      "# D\n\ndelta\n",
		"notes.txt":        "not a note\n",
		vault.IgnoreFile:   "drafts/\n",
		"empty/.gitignore": "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, out, errOut := chunkEnv()
	if err := runChunk(context.Background(), env, []string{"--json", "--embedder", "none", dir}); err != nil {
		t.Fatalf("runChunk: %v (stderr %q)", err, errOut)
	}
	var cs []mdsearch.Chunk
	if err := json.Unmarshal(out.Bytes(), &cs); err != nil {
		t.Fatalf("output is not a JSON array of passages: %v\n%s", err, out)
	}
	var paths []string
	for _, c := range cs {
		paths = append(paths, c.Path)
	}
	want := []string{filepath.Join(dir, "a.md"), filepath.Join(dir, "sub", "b.markdown")}
	if !slices.Equal(paths, want) {
		t.Errorf("chunked %q, want %q", paths, want)
	}

	env, out, _ = chunkEnv()
	empty := filepath.Join(dir, "empty")
	if code := Main(context.Background(), env, []string{"chunk", "--json", "--embedder", "none", empty}); code != 1 {
		t.Errorf("a folder without notes: exit %d, want 1", code)
	}
	var got jsonError
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Error.Kind != "not_found" || !strings.Contains(got.Error.Message, empty) {
		t.Errorf("a folder without notes: %s (%v), want a not_found error naming it", out, err)
	}
}
