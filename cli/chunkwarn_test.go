package cli

import (
	"context"
	"strings"
	"testing"
)

func TestChunkWarnsOverWindow(t *testing.T) {
	note, _ := writeNotes(t)
	for _, c := range []struct {
		maxTokens string
		warn      bool
		small     bool
	}{
		{"8", false, true},
		{"31", false, true},
		{"32", false, false},
		{"64", false, false},
		{"128", false, false},
		{"300", true, false},
	} {
		env, _, errOut := chunkEnv()
		if err := runChunk(context.Background(), env, []string{"--embedder", "none", "--max-tokens", c.maxTokens, note}); err != nil {
			t.Fatalf("runChunk: %v", err)
		}
		got := strings.Contains(errOut.String(), "warning: --max-tokens "+c.maxTokens+" is over the model's 128-token window")
		if got != c.warn {
			t.Errorf("--max-tokens %s: warned %v, want %v (stderr %q)", c.maxTokens, got, c.warn, errOut)
		}
		if got := strings.Contains(errOut.String(), "is small: a heading path may take at most"); got != c.small {
			t.Errorf("--max-tokens %s: warned small %v, want %v (stderr %q)", c.maxTokens, got, c.small, errOut)
		}
	}
}

// A file index would skip is cut all the same, with a warning that says so.
func TestChunkWarnsNotMarkdown(t *testing.T) {
	dir := t.TempDir()
	for name, warn := range map[string]bool{"notes.txt": true, "Note.md": false, "Guide.markdown": false} {
		file := dir + "/" + name
		write(t, file, "# Title\n\nSome text.\n")
		env, out, errOut := chunkEnv()
		if err := runChunk(context.Background(), env, []string{"--embedder", "none", file}); err != nil || !strings.Contains(out.String(), "1 passage") {
			t.Fatalf("%s: %v %q", name, err, out)
		}
		if got := strings.Contains(errOut.String(), "not a markdown note (.md or .markdown), which index skips"); got != warn {
			t.Errorf("%s: warned %v, want %v (stderr %q)", name, got, warn, errOut)
		}
	}
}
