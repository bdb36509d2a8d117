package engine

import (
	"path/filepath"
	"testing"
)

// NoteLinks resolves links among the notes of a collection's folder, walked
// once for calls close together; an unknown collection has no notes.
func TestNoteLinks(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "Home.md", "# Home\n\nSee [[Plan]].\n")
	write(t, dir, "work/Plan.md", "# Plan\n\nSteps.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), nil)
	index(t, e, dir, "notes")

	links, err := e.NoteLinks(bg, "notes")
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := links.Resolve("Home.md", "Plan"); !ok || p != "work/Plan.md" {
		t.Errorf("Resolve(Plan) = %q, %v; want work/Plan.md", p, ok)
	}
	write(t, dir, "Later.md", "# Later\n")
	again, err := e.NoteLinks(bg, "notes")
	if err != nil || again != links {
		t.Errorf("a second call within the listing's life walked again (%v)", err)
	}
	if _, ok := again.Resolve("Home.md", "Later"); ok {
		t.Error("the reused listing holds a note written after it")
	}

	none, err := e.NoteLinks(bg, "no-such-collection")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := none.Resolve("", "Home"); ok {
		t.Error("an unknown collection resolved a link")
	}
}
