package search

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A tag no note has is named, with the tags notes do have; a tag in use,
// nested ones included, is not.
func TestUnknownTagNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "---\ntags: [work, area/home]\n---\n# A\n\nzebra\n")
	write(t, vault, "b.md", "# B\n\nzebra #work\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Tag: "Wrok", Tags: []string{"area"}})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, `no note has the tag "Wrok"; the tags most notes have: work (2), area/home (1)`) {
		t.Errorf("notice %q", resp.Notice)
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: "giraffe", Tag: "area"})
	if strings.Contains(resp.Notice, "no note has the tag") {
		t.Errorf("a nested tag's parent named unknown: %q", resp.Notice)
	}
}

// Obsidian's "tag:NAME" in a query filters as Tags does; quoted, it is
// text; alone, it asks for words.
func TestTagOperator(t *testing.T) {
	for _, tt := range []struct {
		query, rest string
		tags        []string
	}{
		{"tag:person hedgehog", "hedgehog", []string{"person"}},
		{"meeting TAG:#work tag:area/home", "meeting", []string{"work", "area/home"}},
		{`"tag:person" hedgehog`, `"tag:person" hedgehog`, nil},
		{`"a b tag:x c" d`, `"a b tag:x c" d`, nil},
		{"tag: search operator", "tag: search operator", nil},
		{"hashtag:x y", "hashtag:x y", nil},
	} {
		rest, tags := tagOperators(tt.query)
		if rest != tt.rest || !slices.Equal(tags, tt.tags) {
			t.Errorf("tagOperators(%q) = %q %q, want %q %q", tt.query, rest, tags, tt.rest, tt.tags)
		}
	}
	vault := t.TempDir()
	write(t, vault, "a.md", "---\ntags: [person]\n---\n# A\n\nThe hedgehog sleeps.\n")
	write(t, vault, "b.md", "# B\n\nAnother hedgehog.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "tag:person hedgehog"})
	if len(resp.Results) != 1 || resp.Results[0].Path != "a.md" || resp.Query != "hedgehog" {
		t.Errorf("tag:person hedgehog: %q %s", resp.Query, paths(resp))
	}
	if _, err := e.Search(bg, mdsearch.SearchRequest{Query: "tag:person"}); err == nil || !strings.Contains(err.Error(), "add the words to look for") {
		t.Errorf("tag alone: %v", err)
	}
}
