package plural

import "testing"

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 words"}, {1, "1 word"}, {2, "2 words"}, {-1, "-1 words"}, {11, "11 words"}} {
		if got := Count(tt.n, "word", "words"); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if got := Noun(1, "query", "queries") + " " + Noun(3, "query", "queries"); got != "query queries" {
		t.Errorf("Noun: %q", got)
	}
}

func TestList(t *testing.T) {
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := List(tt.items); got != tt.want {
			t.Errorf("List(%q) = %q, want %q", tt.items, got, tt.want)
		}
	}
}
