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
		{"0001-private-fields", "text/0001-private-fields.md", "0001-private-fields 1"},
		{"Use Postgres", "adr/0012-use-postgres.md", "Use Postgres 0012-use-postgres 12"},
		{"0012 Use Postgres", "adr/0012 Use Postgres.md", "0012 Use Postgres 12"},
		{"000_zero", "000_zero.md", "000_zero 0"},
		{"0.5 release", "0.5 release.md", "0.5 release"},
		{"01.02 budget", "01.02 budget.md", "01.02 budget"},
		{"unpadded", "notes/1234-unpadded.md", "unpadded 1234-unpadded"},
		{"one digit", "notes/0-one-digit.md", "one digit 0-one-digit"},
		{"a code", "notes/007bond.md", "a code 007bond"},
		{"inner", "ch15-03-drop.md", "inner ch15-03-drop"},
		{"", "0042.md", " 0042 42"},
		{"００１２ Fullwidth", "００１２ Fullwidth.md", "００１２ Fullwidth 12"},
		{"0001 Intro", "0099-intro.md", "0001 Intro 0099-intro 1 99"},
		{"0099 Intro", "0099-intro.md", "0099 Intro 0099-intro 99"},
	} {
		if got := titleTerms(tc.title, tc.path); got != tc.want {
			t.Errorf("titleTerms(%q, %q) = %q, want %q", tc.title, tc.path, got, tc.want)
		}
	}
}
