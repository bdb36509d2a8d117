package sections

import (
	"fmt"
	"strings"
	"testing"
)

// keyLines is n "kI: v" lines, each indented by indent.
func keyLines(n int, indent string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sk%d: v\n", indent, i)
	}
	return b.String()
}

// longKeys is n explicit keys ("? key") of size bytes, alike up to their
// last digits, as costs a compare most.
func longKeys(n, size int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "? %s%05d\n: v\n", strings.Repeat("x", size-5), i)
	}
	return b.String()
}

// TestFrontmatterCostBound: YAML whose keys yaml.v3 would take long to
// compare for duplicates (a mapping of over maxYAMLKeys keys, at any depth
// or on one line, or many or long keys in all, aliases counted as used) is
// not decoded and is handled as invalid YAML is: a warning, the
// frontmatter stripped, the body read. Long lists, of objects too, cost
// linear time and are read.
func TestFrontmatterCostBound(t *testing.T) {
	const m = maxYAMLKeys
	var flow, items, objects strings.Builder
	for i := range m + 1 {
		fmt.Fprintf(&flow, "k%d, ", i)
	}
	for i := range 10 * m {
		fmt.Fprintf(&items, "  - t%d\n", i)
	}
	for i := range 2 * m { // 4m keys in all, of mappings of 2
		fmt.Fprintf(&objects, "  - {title: t%d, url: u%d}\n", i, i)
	}
	anchored := "a: &a {" + strings.TrimSuffix(strings.ReplaceAll(keyLines(2000, ""), "\n", ", "), ", ") + "}\n"
	tooCostly := "keys of"
	tests := []struct {
		name    string
		yaml    string
		fields  int    // fields read at the top level; 0: none
		warning string // the start of the only warning, or ""
	}{
		{"flat, at the bound", keyLines(m, ""), m, ""},
		{"flat, one over", keyLines(m+1, ""), 0, fmt.Sprintf("frontmatter has %d keys, more than %d: its properties are not read", m+1, m)},
		{"nested, at the bound", "params:\n" + keyLines(m, "  "), 1, ""},
		{"nested, one over", "params:\n" + keyLines(m+1, "  "), 0, fmt.Sprintf("frontmatter has a mapping of %d keys, more than %d: its properties", m+1, m)},
		{"a flow mapping on one line", "m: {" + flow.String() + "z}\n", 0, fmt.Sprintf("frontmatter has a mapping of %d keys", m+2)},
		{"an anchor used once", anchored + "b: *a\n", 2, ""},
		{"an anchor used four times", anchored + "b: [*a, *a, *a]\n", 0, "frontmatter's 8002 keys of 35562 bytes are too many or too long to compare"},
		{"keys of 100 bytes", longKeys(1000, 100), 1000, ""},
		{"keys of 1,000 bytes", longKeys(1000, 1000), 0, tooCostly},
		{"a long list", "tags:\n" + items.String(), 1, ""},
		{"a long list of objects", "links:\n" + objects.String(), 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse("n.md", []byte("---\n"+tt.yaml+"---\nbody text\n"))
			if len(d.Frontmatter) != tt.fields {
				t.Errorf("%d fields read, want %d", len(d.Frontmatter), tt.fields)
			}
			switch {
			case tt.warning == "" && len(d.Warnings) > 0:
				t.Errorf("unexpected warnings %q", d.Warnings)
			case tt.warning != "" && (len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], tt.warning)):
				t.Errorf("warnings %q, want one holding %q", d.Warnings, tt.warning)
			}
			// Read or not, the frontmatter is no text of the body.
			if d.FrontmatterEnd == 0 || len(d.Sections) != 1 || d.Content(&d.Sections[0]) != "body text" {
				t.Errorf("frontmatter end %d, sections %+v: want the body alone", d.FrontmatterEnd, d.Sections)
			}
			if tt.fields == 0 && d.PropertyText() != "" {
				t.Errorf("property text %.40q of frontmatter not read", d.PropertyText())
			}
		})
	}
	// After "---" and a blank line, YAML over the bound is not fields, as
	// YAML that does not parse is not: the note opens with a rule.
	for _, fm := range []string{keyLines(m+1, ""), "title: [unclosed\n"} {
		src := "---\n\n" + fm + "---\n\nbody\n"
		if d := Parse("n.md", []byte(src)); d.FrontmatterEnd != 0 || d.Body != 0 || len(d.Warnings) > 0 {
			t.Errorf("%.20q…: frontmatter end %d, body at %d, warnings %q; want markdown from the first line", src, d.FrontmatterEnd, d.Body, d.Warnings)
		}
	}
}
