package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/store"
)

// propertyOperator reads Obsidian's [property:value] at fields[i]: the
// property's name, its value and the index of its last field. The name
// may hold spaces or be quoted ([due date:2024-07-01], ["due date":…]),
// the value too, and a value may be a wikilink ([related:[[Budget]]]).
// Only the form with a value is read: "[status]" (Obsidian's "has the
// property") is too often text in a pasted sentence, and so is a bracket
// that opens inside a word ("arr[i:j]"), names nothing a property could be
// named ("[10:30]") or never closes.
func propertyOperator(fields []string, i int) (name, val string, last int, ok bool) {
	if !strings.HasPrefix(fields[i], "[") {
		return "", "", 0, false
	}
	acc := fields[i]
	for last = i; !closedBracket(acc); {
		if last++; last == len(fields) {
			return "", "", 0, false
		}
		acc += " " + fields[last]
	}
	name, val, ok = splitProperty(acc[1 : len(acc)-1])
	return name, val, last, ok
}

// closedBracket reports whether s, which opens with "[", closes there: it
// ends with the "]" that balances it, outside quotes.
func closedBracket(s string) bool {
	return strings.HasSuffix(s, "]") && strings.Count(s, "[") == strings.Count(s, "]") && strings.Count(s, `"`)%2 == 0
}

// splitProperty splits what a [name:value] holds at the first colon
// outside quotes, each side unquoted.
func splitProperty(s string) (name, val string, ok bool) {
	quoted := false
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ':' && !quoted:
			name, val = unquoteSide(s[:i]), unquoteSide(s[i+1:])
			ok = propertyName(name) && val != "" && !strings.Contains(val, `"`) &&
				strings.Count(val, "[") == strings.Count(val, "]")
			return name, val, ok
		}
	}
	return "", "", false
}

// unquoteSide is one side of a [name:value], trimmed, without the
// double quotes around it.
func unquoteSide(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// propertyName reports whether s can name a property in [name:value]:
// letters, digits, spaces, '_', '-' and '.' (a field inside a map, as
// --where reads it), a letter among them ("[10:30]" is a time).
func propertyName(s string) bool {
	letter := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r) || strings.ContainsRune(" _-.", r):
		default:
			return false
		}
	}
	return letter
}

// knownProperty reports whether a note of the index has a property of
// the name (a dotted name's first part), compared as --where compares
// names; on an error it says yes, so the condition stands and is named.
// Each name is asked of the index once a generation: a name no note has
// costs a scan of every note's frontmatter.
func (e *Engine) knownProperty(ctx context.Context) func(string) bool {
	return func(name string) bool {
		if mdsearch.IsFileTime(name) { // every note's file has one
			return true
		}
		gen, err := e.st.Generation(ctx)
		if err != nil {
			return true
		}
		has, err := e.props.get(gen, strings.ToLower(name), func() (bool, error) { return e.st.HasProperty(ctx, name) })
		return err != nil || has
	}
}

// asTextNotice names the [name:value] read as words, or is "".
func (o operators) asTextNotice() string {
	if len(o.asText) == 0 {
		return ""
	}
	return "no note has a property named as in " + strings.Join(o.asText, ", ") + ": searched as words"
}

// withProperties adds the query's [property:value] operators to the
// request's where conditions (a copy: the caller's map is left alone). A
// property given two values, or a value with Obsidian's OR, is an error: a
// condition holds one value, and a note's property one of them; two
// comparisons ([due:>2024-01-01] [due:<2024-02-01]) make a range.
func withProperties(req mdsearch.SearchRequest, props [][2]string) (mdsearch.SearchRequest, error) {
	if len(props) == 0 {
		return req, nil
	}
	where := make(map[string]string, len(req.Where)+len(props))
	for k, v := range req.Where {
		where[k] = v
	}
	for _, p := range props {
		if strings.Contains(p[1], " OR ") {
			return req, mdsearch.Errorf(mdsearch.KindInvalid, "", "", "",
				"[%s:%s]: one value per property; search once for each value", p[0], p[1])
		}
		k, val := p[0], p[1]
		for have, v := range where {
			if strings.EqualFold(have, k) {
				if both, ok := mdsearch.BothComparisons(v, p[1]); ok {
					val = both
				} else if !strings.EqualFold(strings.TrimSpace(v), p[1]) {
					return req, mdsearch.Errorf(mdsearch.KindInvalid, "", "", "",
						"property %s is given two values (%q and %q): a search takes one value a property; search once for each", k, v, p[1])
				}
				k = have
			}
		}
		where[k] = val
	}
	req.Where = where
	return req, nil
}

// unknownProperties names the where conditions' fields no note has as a
// property, or is "": a condition on one matches nothing. A Dataview
// inline field ("status:: done" in a note's text) is text, not a property,
// and the notice says so when a note's text holds one of the name.
func (e *Engine) unknownProperties(ctx context.Context, rd *store.Reader, fields map[string]string) string {
	known := e.knownProperty(ctx)
	var names, inline []string
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if known(k) {
			continue
		}
		names = append(names, strconv.Quote(k))
		if has, err := rd.TextHolds(ctx, k+"::"); err == nil && has {
			inline = append(inline, k+"::")
		}
	}
	if len(names) == 0 {
		return ""
	}
	msg := "no note has the property " + strings.Join(names, " or ") + " in its frontmatter"
	if len(inline) > 0 {
		msg += "; " + strings.Join(inline, " and ") + " in a note's text is a Dataview inline field, which mdsearch reads as words (search for them), not as a property"
	}
	return msg
}

// propertyValuesNotice names, for each property of fields that some note
// has, the values notes hold (the most held first, up to
// shownValues), for a search its filters left without a result:
// where publish="yes" matched nothing, "publish" holds true and false.
func (e *Engine) propertyValuesNotice(ctx context.Context, rd *store.Reader, f store.Filter) string {
	known := e.knownProperty(ctx)
	fields := f.Fields
	f.Fields = nil // the values the other filters' notes hold
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if !known(k) || strings.Contains(k, ".") {
			continue
		}
		vals, err := rd.PropertyValues(ctx, k, f, shownValues+1)
		if err != nil || len(vals) == 0 {
			continue
		}
		var held []string
		for i, v := range vals[:min(len(vals), shownValues)] {
			n := strconv.Itoa(v.Notes)
			if i == 0 {
				n = plural.Count(v.Notes, "note", "notes")
			}
			held = append(held, fmt.Sprintf("%s (%s)", strconv.Quote(clipped(v.Value, shownRunes)), n))
		}
		if len(vals) > shownValues {
			held = append(held, "…")
		}
		parts = append(parts, fmt.Sprintf("the property %q holds %s", k, strings.Join(held, ", ")))
	}
	return strings.Join(parts, "; ")
}

// shownValues is how many values of a property propertyValuesNotice
// names, and shownRunes how much of each: a description is a sentence.
const shownValues, shownRunes = 5, 40

// clipped is s, or its first n runes and "…".
func clipped(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// tagsProperty reads a condition on the tags property (where tags=x,
// [tags:x], -[tags:x]) as the tag filter it means: a note's tags are its
// tags wherever written, in its properties or its text, and nested ones
// count (tag:x). Compared as a property, a tag written in the text was
// missed: where tags=meeting kept 4 notes where tag:meeting kept 8.
func tagsProperty(req mdsearch.SearchRequest, ops operators) (mdsearch.SearchRequest, operators) {
	for k, v := range req.Where {
		if mdsearch.IsTagsName(k) {
			req.Tags = append(slices.Clip(req.Tags), strings.TrimPrefix(strings.TrimSpace(v), "#"))
			where := maps.Clone(req.Where)
			delete(where, k)
			req.Where = where
		}
	}
	kept := ops.notProps[:0:0]
	for _, p := range ops.notProps {
		if mdsearch.IsTagsName(p[0]) {
			ops.notTags = append(ops.notTags, strings.TrimPrefix(strings.TrimSpace(p[1]), "#"))
			continue
		}
		kept = append(kept, p)
	}
	ops.notProps = kept
	return req, ops
}
