package sections

import "testing"

func TestPropertyText(t *testing.T) {
	for _, tc := range []struct {
		name string
		fm   map[string]any
		want string
	}{
		{"none", nil, ""},
		{"text", map[string]any{"author": "Bartholomew Quince"}, "Bartholomew Quince"},
		{"keys sorted, names left out", map[string]any{"status": "draft", "author": "Quince", "type": "book"}, "Quince draft book"},
		{"read elsewhere", map[string]any{"title": "T", "Aliases": []any{"A"}, "alias": "B", "tags": []any{"x"}, "Tag": "y",
			"cssclasses": []any{"wide"}, "permalink": "guide/setup", "summary": "kept"}, "kept"},
		{"lists and maps", map[string]any{"cast": []any{"Ann", map[string]any{"role": "lead", "name": "Bo"}}}, "Ann Bo lead"},
		{"numbers and dates kept, booleans and blanks not", map[string]any{"year": 1984, "draft": true, "due": "2024-01-05",
			"empty": "  ", "nil": nil}, "2024-01-05 1984"},
	} {
		if got := PropertyText(tc.fm); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
