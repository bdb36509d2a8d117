package cli

import "testing"

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
