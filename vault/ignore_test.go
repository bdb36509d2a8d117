package vault

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// TestIgnoreFileUnusable: an ignore file that is there but cannot be read
// as patterns (no permission, a folder, not UTF-8 text) stops the walk
// with an error naming it, the problem and the fix: read as no rules, it
// would let the notes it excludes be indexed. Reads below it are refused
// alike; a read above it is not.
func TestIgnoreFileUnusable(t *testing.T) {
	tree := map[string]string{"a.md": "a", "secret/s.md": "s", "sub/b.md": "b", "sub/secret/t.md": "t"}
	cases := []struct {
		name   string
		file   string // the ignore file, vault-relative
		text   string // its content; "/" makes it a folder
		deny   bool   // it cannot be opened
		errs   []string
		below  string // a note whose read is refused
		above  string // a note whose read is not
		hidden bool   // it sits where the walk never goes: no error
	}{
		{name: "unreadable", file: ".mdsearchignore", text: "secret/\n", deny: true,
			errs: []string{"cannot read: permission denied", "make it readable"}, below: "a.md"},
		{name: "unreadable nested", file: "sub/.mdsearchignore", text: "secret/\n", deny: true,
			errs: []string{"cannot read: permission denied"}, below: "sub/b.md", above: "a.md"},
		{name: "folder", file: ".mdsearchignore", text: "/",
			errs: []string{"is a folder", "a text file of patterns"}, below: "secret/s.md"},
		{name: "folder nested", file: "sub/.mdsearchignore", text: "/",
			errs: []string{"is a folder"}, below: "sub/secret/t.md", above: "a.md"},
		{name: "not UTF-8", file: ".mdsearchignore", text: "a.md\ncaf\xe9/\n",
			errs: []string{"line 2 is not UTF-8", "save it as UTF-8"}, below: "a.md"},
		{name: "UTF-16", file: "sub/.mdsearchignore", text: "s\x00e\x00c\x00r\x00e\x00t\x00/\x00\n\x00",
			errs: []string{"line 1 holds a NUL byte", "save it as UTF-8"}, below: "sub/b.md", above: "a.md"},
		{name: "in a hidden folder", file: ".hidden/.mdsearchignore", text: "/", hidden: true},
		{name: "in an ignored folder", file: "secret/.mdsearchignore", text: "/", hidden: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			build(t, root, tree)
			if c.file != ".mdsearchignore" {
				build(t, root, map[string]string{".mdsearchignore": "secret/\n"})
			}
			text := c.text
			if text == "/" {
				build(t, root, map[string]string{c.file + "/": ""})
			} else {
				build(t, root, map[string]string{c.file: text})
			}
			abs := filepath.Join(mustReal(t, root), filepath.FromSlash(c.file))
			if c.deny {
				t.Cleanup(fsfault.DenyRead(abs))
			}
			v, err := Open(root, Options{})
			must(t, err)
			l, err := v.List(context.Background())
			if c.hidden {
				if err != nil {
					t.Errorf("list: %v; want no error: the walk never reads an ignore file there", err)
				}
				return
			}
			if l != nil || mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), abs) {
				t.Fatalf("list: %+v, %v; want an error naming %s", l, err, abs)
			}
			for _, want := range c.errs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("list: %v; want it to say %q", err, want)
				}
			}
			if _, err := v.ReadNote(c.below); err == nil || !strings.Contains(err.Error(), abs) {
				t.Errorf("read %s: %v; want it refused, naming %s", c.below, err, abs)
			}
			if ign, err := v.Ignored(c.below); err == nil || ign {
				t.Errorf("Ignored(%s) = %v, %v; want an error, as nothing says whether it is ignored", c.below, ign, err)
			}
			if c.above != "" {
				if _, err := v.ReadNote(c.above); err != nil {
					t.Errorf("read %s, above the ignore file: %v", c.above, err)
				}
			}
		})
	}
}

// TestIgnoreFileBOM: a byte order mark before the first rule is no part of
// it, so that rule still excludes.
func TestIgnoreFileBOM(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{"a.md": "a", "secret/s.md": "s", ".mdsearchignore": "\ufeffsecret/\n"})
	if got, _ := walk(t, root, Options{}); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("walked %v; want a.md alone: the first rule excludes secret/", got)
	}
}
