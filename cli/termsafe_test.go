package cli

import (
	"strings"
	"testing"
)

func TestVisible(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain text\twith tab\r\nand lines\n", "plain text\twith tab\r\nand lines\n"},
		{"\x1b[31mred\x1b[0m", "^[[31mred^[[0m"},
		{"\x1b]0;pwned\x07title", "^[]0;pwned^Gtitle"},
		{"back\bspace\x7f", "back^Hspace^?"},
		{"c1 \u009b31m é ü", "c1 \ufffd31m é ü"},
		{"bad utf-8 \xff\xc2", "bad utf-8 \xff\xc2"},
		{"raw c1 \x9b31m", "raw c1 \ufffd31m"},
		{"safe\rrm -rf ~\r\n", "safe^Mrm -rf ~\r\n"},
	} {
		if got := string(visible([]byte(tt.in))); got != tt.want {
			t.Errorf("visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSayOneMessage: a line break inside a message (a file name may hold
// one) starts an indented line, which cannot pass for a message of its own.
func TestSayOneMessage(t *testing.T) {
	var errb strings.Builder
	env := &Env{Stderr: &errb, cmd: "index"}
	env.say("%s: warning: %s", "evil\nmdsearch: index: all good.md", "frontmatter is not valid YAML")
	want := "mdsearch: index: evil\n  mdsearch: index: all good.md: warning: frontmatter is not valid YAML\n"
	if errb.String() != want {
		t.Errorf("said %q, want %q", errb.String(), want)
	}
}
