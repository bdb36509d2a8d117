package vault

import (
	"bytes"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRefusesBinaryWithoutNUL(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	noise := make([]byte, 20000)
	for i := range noise {
		noise[i] = byte(1 + rng.Intn(255)) // no NUL byte
	}
	prose := strings.Repeat("A note about bread, with a recipe. ", 300)
	cases := []struct {
		name, content, want string // want: "" reads
	}{
		{"prose", prose, ""},
		{"Latin-1 prose", strings.ReplaceAll(prose, "about", "caf\xe9 \xe0"), ""},
		{"UTF-8 prose", strings.Repeat("Über Brötchen — ☕ 日本語. ", 400), ""},
		{"a few control characters", prose + "\x1b[1mbold\x1b[0m\x07", ""},
		{"random bytes", string(noise), "binary file ("},
		{"control characters", strings.Repeat("\x01\x02\x03abc", 1000), "binary file ("},
		{"binary after a text header", "# Title\n\n" + string(noise), "binary file ("},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			build(t, root, map[string]string{"n.md": c.content})
			v, err := Open(root, Options{})
			must(t, err)
			_, err = v.Read(File{Path: "n.md", Abs: filepath.Join(root, "n.md")})
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

// TestReadSizeLimit: a file over the limit is named as such, not as one
// that grew, and is refused before it is read.
func TestReadSizeLimit(t *testing.T) {
	root := t.TempDir()
	build(t, root, map[string]string{"big.md": string(bytes.Repeat([]byte("word "), 1000))})
	v, err := Open(root, Options{MaxFileSize: 1000})
	must(t, err)
	_, err = v.Read(File{Path: "big.md", Abs: filepath.Join(root, "big.md")})
	if err == nil || !strings.Contains(err.Error(), "file is 4.9 KB, over the 1000 bytes size limit") {
		t.Errorf("got %v", err)
	}
	if _, err := v.ReadNote("big.md"); err == nil || strings.Contains(err.Error(), "grew") {
		t.Errorf("ReadNote: %v", err)
	}
}
