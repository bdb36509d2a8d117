package mdsearch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// An error names a long path once, shortened to its start and its end.
func TestErrorShortensLongPath(t *testing.T) {
	long := strings.Repeat("é", 100_000) + "/note.md" // 200 KB, two-byte characters
	cases := []struct {
		name, path string
		whole      bool
	}{
		{"short", "kitchen/Sourdough.md", true},
		{"160 bytes", strings.Repeat("a", 157) + ".md", true},
		{"161 bytes", strings.Repeat("a", 158) + ".md", false},
		{"200 KB", long, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := Errorf(KindNotFound, "read", c.path, "a hint", "no such note").Error()
			if c.whole {
				if want := "read " + c.path + ": no such note (a hint)"; msg != want {
					t.Errorf("got %q, want %q", msg, want)
				}
				return
			}
			if len(msg) > 200 || !utf8.ValidString(msg) || !strings.Contains(msg, "…") || !strings.Contains(msg, c.path[len(c.path)-30:]+": no such note") ||
				!strings.HasPrefix(msg, "read "+c.path[:90]) {
				t.Errorf("%d bytes: %q", len(msg), msg)
			}
		})
	}
}
