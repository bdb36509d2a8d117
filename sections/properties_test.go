package sections

import "testing"

func TestPropertyText(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"none", "# A\n", ""},
		{"text", "---\nauthor: Bartholomew Quince\n---\nx\n", "Bartholomew Quince"},
		{"shortest first, names left out", "---\nstatus: draft\nauthor: Quince\ntype: book\n---\nx\n", "book draft Quince"},
		{"read elsewhere or not about the note", "---\ntitle: T\nAliases: [A]\nalias: B\ntags: [x]\nTag: y\ncssclasses: [wide]\n" +
			"permalink: guide/setup\nexcalidraw-plugin: parsed\nsummary: kept\n---\nx\n", "kept"},
		{"lists and maps", "---\ncast:\n  - Ann\n  - {role: lead, name: Bo}\n---\nx\n", "Ann lead Bo"},
		{"as written", "---\nzip: 01234\nhex: 0x1F\nyear: 1984\ndue: 2024-01-05\nratio: 1.50\n---\nx\n", "0x1F 1.50 1984 01234 2024-01-05"},
		{"booleans and blanks not", "---\ndraft: true\nempty: \"  \"\nnil: ~\nnone:\nok: yes\n---\nx\n", "yes"},
		{"a long abstract last", "---\nabstract: one two three four five six\ndoi: 10.1/x\n---\nx\n", "10.1/x one two three four five six"},
		{"anchors", "---\nbase: &b Quince\nauthor: *b\n---\nx\n", "Quince Quince"},
		{"toml", "+++\ntitle = \"T\"\nauthor = \"Quince\"\nyear = 1984\n+++\nx\n", "1984 Quince"},
		{"bad yaml", "---\nauthor: [unclosed\n---\nx\n", ""},
	} {
		if got := Parse("n.md", []byte(tc.src)).PropertyText(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A number written with a leading zero is the text written, for filters
// and results too.
func TestLeadingZeros(t *testing.T) {
	d := Parse("n.md", []byte("---\nzip: 01234\nid: -007\nn: 12\nhex: 0x1F\nq: \"0123\"\n---\nx\n"))
	for k, want := range map[string]any{"zip": "01234", "id": "-007", "n": 12, "hex": 31, "q": "0123"} {
		if got := d.Frontmatter[k]; got != want {
			t.Errorf("%s: %#v, want %#v", k, got, want)
		}
	}
}
