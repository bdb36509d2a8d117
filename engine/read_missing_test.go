package engine

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A read that names a folder says so and offers its notes, in every form
// a path takes; a note of the folder's name is still read, and a name
// that is neither note nor folder is still not found.
func TestReadFolder(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "work/a.md", "# A\n\nalpha\n")
	write(t, dir, "work/b.md", "# B\n\nbeta\n")
	write(t, dir, "Projects.md", "# Projects\n\nthe note\n")
	write(t, dir, "Projects/p.md", "# P\n\npi\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), nil)
	index(t, e, dir, "notes")

	for _, p := range []string{"work", "work/", "./work", "notes:work", "Work", filepath.Join(dir, "work")} {
		_, err := e.Read(bg, mdsearch.ReadRequest{Path: p})
		var me *mdsearch.Error
		if !errors.As(err, &me) || me.Kind != mdsearch.KindInvalid || !strings.Contains(me.Error(), "a folder, not a note") ||
			!strings.Contains(me.Hint, "work/a.md, work/b.md") {
			t.Errorf("Read(%q) = %v; want a folder's error offering its notes", p, err)
		}
	}
	if r, err := e.Read(bg, mdsearch.ReadRequest{Path: "Projects"}); err != nil || !strings.Contains(r.Content, "the note") {
		t.Errorf("Read(Projects) = %v; want the note Projects.md", err)
	}
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "nowhere"}); mdsearch.KindOf(err) != mdsearch.KindNotFound {
		t.Errorf("Read(nowhere) = %v; want not found", err)
	}
}

// A note not found is offered the notes whose file name holds its words,
// when nothing nearer names one.
func TestReadMissingWithin(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ch10-03-lifetime-syntax.md", "# Lifetimes\n\ntext\n")
	write(t, dir, "ch05-03-method-syntax.md", "# Methods\n\ntext\n")
	write(t, dir, "ch04-01-what-is-ownership.md", "# Ownership\n\ntext\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), nil)
	index(t, e, dir, "book")
	for name, want := range map[string]string{
		"lifetime-syntax": "did you mean ch10-03-lifetime-syntax.md?",
		"syntax.md":       "did you mean ch05-03-method-syntax.md, ch10-03-lifetime-syntax.md?",
		"ch10":            "did you mean ch10-03-lifetime-syntax.md?",
		"tax":             "paths are relative to the vault; search shows them", // under four letters: no guess
		// Its words in order, others between.
		"ch04-01-ownership.md": "did you mean ch04-01-what-is-ownership.md?",
		"method_syntax":        "did you mean ch05-03-method-syntax.md?",
		"syntax-method":        "paths are relative to the vault; search shows them", // not in their order
		"c-01":                 "paths are relative to the vault; search shows them", // under four letters
	} {
		_, err := e.Read(bg, mdsearch.ReadRequest{Path: name})
		var me *mdsearch.Error
		if !errors.As(err, &me) || me.Kind != mdsearch.KindNotFound || me.Hint != want {
			t.Errorf("Read(%q) = %v; want not found, hint %q", name, err, want)
		}
	}
}
