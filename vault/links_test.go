package vault

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestLinkIndex(t *testing.T) {
	nfd := norm.NFD.String("맥북_메모.md") // as macOS names it
	x := NewLinkIndex([]string{"Home.md", "a/Note.md", "b/Note.md", "a/deep/Note.md", "b/c/Plan.md", "Other.markdown", "guide/index.md", nfd})
	tests := []struct{ from, target, want string }{
		{"Home.md", "Note", "a/Note.md"},          // shortest path, then by name
		{"b/c/Plan.md", "note", "a/Note.md"},      // case ignored
		{"a/deep/x.md", "Note", "a/deep/Note.md"}, // the linking note's folder wins
		{"Home.md", "deep/Note", "a/deep/Note.md"},
		{"Home.md", "b/Note.md", "b/Note.md"},
		{"Home.md", "Plan", "b/c/Plan.md"},
		{"Home.md", "Other", "Other.markdown"},
		{"Home.md", "", "Home.md"},
		{"Home.md", "Missing", ""},
		{"Home.md", "photo.png", ""},
		{"Home.md", "e/Note", ""},
		{"Home.md", "맥북_메모", nfd}, // typed composed
		// Obsidian's "relative path to file" format.
		{"b/c/Plan.md", "../Note", "b/Note.md"},
		{"a/deep/x.md", "../../b/c/Plan.md", "b/c/Plan.md"},
		{"a/Note.md", "./deep/Note", "a/deep/Note.md"},
		{"Home.md", "../Home", ""}, // above the vault
	}
	for _, tt := range tests {
		got, ok := x.Resolve(tt.from, tt.target)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", tt.from, tt.target, got, ok, tt.want)
		}
	}
	for _, tt := range []struct{ from, dest, want string }{
		{"b/c/Plan.md", "../Note.md", "b/Note.md"},
		{"a/Note.md", "deep/Note.md", "a/deep/Note.md"},
		{"Home.md", "Plan.md", "b/c/Plan.md"},
		{"Home.md", "nope/x.md", ""},
		// As a docs site links its pages, and read resolves them.
		{"b/c/Plan.md", "./Plan", "b/c/Plan.md"},
		{"b/c/Plan.md", "../Note", "b/Note.md"},
		{"b/c/Plan.md", "../Note.html", "b/Note.md"},
		{"b/c/Plan.md", "/b/Note.html", "b/Note.md"},
		{"b/c/Plan.md", "/b/Note", "b/Note.md"},
		{"Home.md", "guide/", "guide/index.md"},
		{"b/c/Plan.md", "/guide/", "guide/index.md"},
		{"b/c/Plan.md", "../../../Home.md", ""}, // out of the vault
		{"Home.md", "photo.png", ""},
	} {
		if got, _ := x.ResolveRelative(tt.from, tt.dest); got != tt.want {
			t.Errorf("ResolveRelative(%q, %q) = %q, want %q", tt.from, tt.dest, got, tt.want)
		}
	}
}

// An embed's image resolves as Obsidian resolves attachments: relative to
// the note, by vault path, or by file name anywhere (the note's folder
// first, then the shortest path), case ignored; never to a note.
func TestResolveAttachment(t *testing.T) {
	x := NewLinkIndex([]string{"Home.md", "b/c/Plan.md", "Note.md"}).
		WithAttachments([]string{"assets/diagram.png", "b/diagram.png", "a/deep/diagram.png", "img/Photo.JPG", "Note.png"})
	for _, tt := range []struct{ from, target, want string }{
		{"Home.md", "diagram.png", "b/diagram.png"},
		{"a/deep/x.md", "diagram.png", "a/deep/diagram.png"},
		{"Home.md", "assets/diagram.png", "assets/diagram.png"},
		{"Home.md", "/assets/diagram.png", "assets/diagram.png"},
		{"Home.md", "deep/diagram.png", "a/deep/diagram.png"},
		{"b/c/Plan.md", "../diagram.png", "b/diagram.png"},
		{"Home.md", "photo.jpg", "img/Photo.JPG"},
		{"Home.md", "Note", ""},
		{"Home.md", "diagram", ""},
		{"Home.md", "missing.png", ""},
		{"Home.md", "", ""},
	} {
		got, ok := x.ResolveAttachment(tt.from, tt.target)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ResolveAttachment(%q, %q) = %q, %v; want %q", tt.from, tt.target, got, ok, tt.want)
		}
	}
	if p, ok := x.Resolve("Home.md", "diagram.png"); ok {
		t.Errorf("a note link resolved to the attachment %q", p)
	}
	if p, ok := NewLinkIndex([]string{"a.md"}).ResolveAttachment("a.md", "x.png"); ok {
		t.Errorf("an index without attachments resolved %q", p)
	}
}
