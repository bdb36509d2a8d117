package eval

import (
	"regexp"
	"strings"
)

// A generated query is asked for its words: the text a note writes may
// hold syntax that a search reads otherwise (an operator is a filter) or
// that is no prose (a footnote reference), which plainQuery takes out.

// footnoteRef matches a footnote's reference ("ID[^1]") or the start of
// its definition ("[^1]: text").
var footnoteRef = regexp.MustCompile(`\[\^[^\]\s]+\]:?`)

// propertyOp matches what the search reads as a [property:value]
// operator when a note has the property.
var propertyOp = regexp.MustCompile(`\[([^\[\]":]+):([^\[\]]*)\]`)

// filterPrefixes are the operators a word starting so is read as
// (engine/query_operators.go), negated too ("-path:Archive").
var filterPrefixes = []string{"tag:", "path:", "file:"}

// plainQuery is text without footnote references and with what the search
// would read as a filter neutralised, its words kept: "tag:#meeting" is
// asked as "tag: #meeting", "File::open" as "File: :open", and a
// [field:value] whose field a note of the vault has as "field: value".
// Text holding none is returned as it is.
func (g *generator) plainQuery(text string) string {
	out := footnoteRef.ReplaceAllString(text, "")
	out = propertyOp.ReplaceAllStringFunc(out, func(m string) string {
		sub := propertyOp.FindStringSubmatch(m)
		if !g.props[strings.ToLower(strings.TrimSpace(sub[1]))] {
			return m // read as words by the search too
		}
		return strings.TrimSpace(sub[1]) + ": " + strings.TrimSpace(sub[2])
	})
	fields := strings.Fields(out)
	for i, f := range fields {
		fields[i] = unfiltered(f)
	}
	if out = strings.Join(fields, " "); out == strings.Join(strings.Fields(text), " ") {
		return text
	}
	return out
}

// unfiltered is a word that reads as a filter operator with a space after
// its colon, which makes it words.
func unfiltered(f string) string {
	g := strings.TrimPrefix(f, "-")
	for _, n := range filterPrefixes {
		if len(g) > len(n) && strings.EqualFold(g[:len(n)], n) {
			at := len(f) - len(g) + len(n)
			return f[:at] + " " + f[at:]
		}
	}
	return f
}

// addProperties records the property names of a note's frontmatter, and
// the dotted paths into its maps ("params.author"), in lower case, as the
// search's [property:value] operator reads them.
func (g *generator) addProperties(prefix string, fm map[string]any) {
	for k, v := range fm {
		name := strings.ToLower(prefix + k)
		g.props[name] = true
		if m, ok := v.(map[string]any); ok {
			g.addProperties(name+".", m)
		}
	}
}
