package store

import "testing"

func TestAliasTerms(t *testing.T) {
	for _, tc := range []struct {
		name string
		fm   map[string]any
		want string
	}{
		{"list", map[string]any{"aliases": []any{"Hedgehog Person", "HP"}}, " Hedgehog Person HP"},
		{"one string", map[string]any{"alias": "Jane"}, " Jane"},
		{"capitalised key", map[string]any{"Aliases": []any{"Capalias"}}, " Capalias"},
		{"number", map[string]any{"aliases": 1984}, " 1984"},
		{"numbers in a list", map[string]any{"aliases": []any{"Nineteen", 1984}}, " Nineteen 1984"},
		{"both keys, stable order", map[string]any{"alias": "B", "Aliases": "A"}, " A B"},
		{"not names", map[string]any{"aliases": []any{nil, map[string]any{"x": 1}, []any{"y"}}}, ""},
		{"none", map[string]any{"title": "X"}, ""},
	} {
		if got := aliasTerms(tc.fm); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestTitleTerms(t *testing.T) {
	for _, tc := range []struct{ title, path, want string }{
		{"Soup", "recipes/Soup.markdown", "Soup"},
		{"Soup", "recipes/Soup.MD", "Soup"},
		{"Tomato Soup", "recipes/soup.md", "Tomato Soup soup"},
		{"Intro", "docs/index.md", "Intro"},
		{"v1.2 notes", "v1.2.md", "v1.2 notes v1.2"},
	} {
		if got := titleTerms(tc.title, tc.path); got != tc.want {
			t.Errorf("titleTerms(%q, %q) = %q, want %q", tc.title, tc.path, got, tc.want)
		}
	}
}
