package vault

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// An MDX page is skipped with its reason, not silently: a docs site of
// .md and .mdx pages would lose the second kind without a word. Other
// files, and an MDX page the ignore file names, stay silent.
func TestListSkipsMDX(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"intro.md":            "# Intro\n",
		"docs/install.mdx":    "import Tabs from '@theme/Tabs';\n\n# Install\n",
		"docs/UPPER.MDX":      "# Upper\n",
		"docs/drafts/old.mdx": "# Old\n",
		"notes.txt":           "plain\n",
		".mdsearchignore":     "drafts/\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	v, err := Open(root, Options{})
	must(t, err)
	l, err := v.List(context.Background())
	must(t, err)
	if paths := filesOf(l); !slices.Equal(paths, []string{"intro.md"}) {
		t.Errorf("notes %q", paths)
	}
	var skipped []string
	for _, s := range l.Skipped {
		skipped = append(skipped, s.Path)
		if s.Reason != mdxReason {
			t.Errorf("%s: reason %q", s.Path, s.Reason)
		}
	}
	if want := []string{"docs/UPPER.MDX", "docs/install.mdx"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
}
