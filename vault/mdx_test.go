package vault

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// An MDX page is counted, not left out silently: a docs site of .md and
// .mdx pages would lose the second kind without a word; a notice names
// how many, not a skip each, which would fill every run's output. Other
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
	if len(l.Skipped) != 0 {
		t.Errorf("skipped %+v: an MDX page is counted, not skipped one by one", l.Skipped)
	}
	if want := []string{"docs/UPPER.MDX", "docs/install.mdx"}; !slices.Equal(l.MDX, want) {
		t.Errorf("MDX %q, want %q", l.MDX, want)
	}
	for _, tt := range []struct {
		mdx  []string
		want string
	}{
		{nil, ""},
		{[]string{"a.mdx"}, "1 MDX page (.mdx) is not indexed (a.mdx): mdsearch reads .md and .markdown notes"},
		{l.MDX, "2 MDX pages (.mdx) are not indexed (docs/UPPER.MDX, …): mdsearch reads .md and .markdown notes"},
	} {
		if got := MDXNotice(tt.mdx); got != tt.want {
			t.Errorf("MDXNotice(%q) = %q, want %q", tt.mdx, got, tt.want)
		}
	}
}
