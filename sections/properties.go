package sections

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// PropertyText is what a note's properties say, for the keyword index:
// the value of every frontmatter field, in lists and maps too, as written
// (a ZIP code "01234" stays so; YAML would read it as a number), one
// after another, the shortest field first, so that a cap on the words
// keeps every name and number before a long abstract. Left out are the
// fields mdsearch reads for itself (the title, aliases and tags, which the
// keyword index holds apart), fields that are not about the note (see
// notAbout), booleans and empty values. The field names are not text of
// the note either.
func (d *Document) PropertyText() string {
	if len(d.Frontmatter) == 0 {
		return ""
	}
	var fields []field
	if d.fmNode != nil {
		fields = nodeFields(d.fmNode)
	} else {
		fields = mapFields(d.Frontmatter) // TOML
	}
	slices.SortStableFunc(fields, func(a, b field) int {
		return cmp.Or(cmp.Compare(len(a.text), len(b.text)), cmp.Compare(a.key, b.key))
	})
	var b strings.Builder
	for _, f := range fields {
		if f.text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.text)
	}
	return b.String()
}

// notAbout are the fields, in lower case, that the keyword index leaves
// out of a note's property text: those read for themselves (title,
// aliases, tags), Obsidian's cssclasses, which style the note, its Publish
// permalink (the note's name again, as a web address), the Excalidraw
// plugin's marker, which every drawing carries, and the page settings of
// docs sites (VitePress's layout, outline and pageClass, Hugo's weight,
// Docusaurus's slug and sidebar_position, Jekyll's nav_order), which say
// how a page is laid out, not what it says: "outline: deep" made "deep" a
// word of 15 Vue docs pages. Names a vault uses for what a note is about
// ("template: meeting", "type", "status") stay.
var notAbout = map[string]bool{"title": true, "aliases": true, "alias": true, "tags": true, "tag": true,
	"cssclasses": true, "cssclass": true, "permalink": true, "excalidraw-plugin": true,
	"layout": true, "outline": true, "pageclass": true, "weight": true, "slug": true, "sidebar_position": true,
	"nav_order": true}

// field is one top-level field's text.
type field struct{ key, text string }

// nodeFields are a mapping's fields, notAbout left out.
func nodeFields(m *yaml.Node) []field {
	var out []field
	for i := 0; i+1 < len(m.Content); i += 2 {
		key := m.Content[i].Value
		if notAbout[strings.ToLower(key)] {
			continue
		}
		var b strings.Builder
		appendNode(&b, m.Content[i+1], 0)
		out = append(out, field{key, b.String()})
	}
	return out
}

// appendNode writes the scalars under n as written, a space between each;
// booleans and nulls are no text. depth bounds alias cycles.
func appendNode(b *strings.Builder, n *yaml.Node, depth int) {
	if n == nil || depth > 32 {
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		appendNode(b, n.Alias, depth+1)
	case yaml.ScalarNode:
		if n.Tag == "!!bool" || n.Tag == "!!null" {
			return
		}
		appendText(b, n.Value)
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			appendNode(b, n.Content[i], depth+1)
		}
	default: // a sequence, a document
		for _, c := range n.Content {
			appendNode(b, c, depth+1)
		}
	}
}

// mapFields are the decoded frontmatter's fields, notAbout left out, for
// frontmatter that is not YAML (TOML).
func mapFields(fm map[string]any) []field {
	var out []field
	for _, k := range slices.Sorted(maps.Keys(fm)) {
		if notAbout[strings.ToLower(k)] {
			continue
		}
		var b strings.Builder
		appendValue(&b, fm[k])
		out = append(out, field{k, b.String()})
	}
	return out
}

// appendValue writes a decoded value's text, as appendNode does.
func appendValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil, bool:
	case []any:
		for _, it := range x {
			appendValue(b, it)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			appendValue(b, x[k])
		}
	default:
		appendText(b, fmt.Sprint(x))
	}
}

func appendText(b *strings.Builder, s string) {
	if s = strings.TrimSpace(s); s != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
}
