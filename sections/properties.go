package sections

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// PropertyText is what a note's properties say, for the keyword index:
// the value of every frontmatter field, in lists and maps too, keys in
// sorted order, one after another. Left out are the fields mdsearch reads
// for itself (the title, aliases and tags, which the keyword index holds
// apart), Obsidian's cssclasses, which style the note rather than say what
// it is about, and its Publish permalink, the note's name again as a web
// address; booleans and empty values too. The field names are not text of
// the note either.
func PropertyText(fm map[string]any) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(fm)) {
		switch strings.ToLower(k) {
		case "title", "aliases", "alias", "tags", "tag", "cssclasses", "cssclass", "permalink":
			continue
		}
		appendValue(&b, fm[k])
	}
	return b.String()
}

// appendValue writes v's text to b, a space before each value.
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
		if s := strings.TrimSpace(fmt.Sprint(x)); s != "" {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s)
		}
	}
}
