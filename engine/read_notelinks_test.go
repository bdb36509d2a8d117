package engine

import (
	"path/filepath"
	"testing"
)

// NoteLinks resolves links among the notes of a collection's folder, and
// embeds among its attachments, walked once for calls close together; an
// unknown collection has no notes. OpenAttachment opens an attachment
// inside a collection's folder only.
func TestNoteLinks(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "Home.md", "# Home\n\nSee [[Plan]].\n")
	write(t, dir, "work/Plan.md", "# Plan\n\nSteps.\n")
	write(t, dir, "assets/diagram.png", "png")
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), nil)
	index(t, e, dir, "notes")

	links, err := e.NoteLinks(bg, "notes")
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := links.Resolve("Home.md", "Plan"); !ok || p != "work/Plan.md" {
		t.Errorf("Resolve(Plan) = %q, %v; want work/Plan.md", p, ok)
	}
	if p, ok := links.ResolveAttachment("Home.md", "diagram.png"); !ok || p != "assets/diagram.png" {
		t.Errorf("ResolveAttachment(diagram.png) = %q, %v; want assets/diagram.png", p, ok)
	}
	f, err := e.OpenAttachment(bg, "notes", "assets/diagram.png")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range [][2]string{{"notes", "Home.md"}, {"notes", "../x.png"}, {"no-such-collection", "assets/diagram.png"}} {
		if f, err := e.OpenAttachment(bg, c[0], c[1]); err == nil {
			f.Close()
			t.Errorf("OpenAttachment(%q, %q) opened it", c[0], c[1])
		}
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
