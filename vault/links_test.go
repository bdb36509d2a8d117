package vault

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestLinkIndex(t *testing.T) {
	nfd := norm.NFD.String("맥북_메모.md") // as macOS names it
	x := NewLinkIndex([]string{"Home.md", "a/Note.md", "b/Note.md", "a/deep/Note.md", "b/c/Plan.md", "Other.markdown", nfd})
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
	} {
		if got, _ := x.ResolveRelative(tt.from, tt.dest); got != tt.want {
			t.Errorf("ResolveRelative(%q, %q) = %q, want %q", tt.from, tt.dest, got, tt.want)
		}
	}
}
