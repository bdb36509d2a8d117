package mdsearch

import (
	"strings"
)

// SplitTags turns repeated tag filters, as the CLI and the REST API take
// them, into SearchRequest.Tag (the first, as a single tag always was) and
// Tags (the others), without their '#'. An empty tag is refused: it is a
// filter that lost its value (an unset variable, say), and ignoring it
// would widen the search to every note.
func SplitTags(list []string) (tag string, tags []string, err error) {
	for i, t := range list {
		if t, err = CleanTag(t); err != nil {
			return "", nil, err
		}
		if i == 0 {
			tag = t
		} else {
			tags = append(tags, t)
		}
	}
	return tag, tags, nil
}

// CleanTag is a tag filter without its leading '#'s and surrounding
// space; one with no tag left ("", "#", "# #") is an error.
func CleanTag(t string) (string, error) {
	clean := strings.TrimSpace(strings.TrimLeft(t, "# \t"))
	if clean == "" {
		return "", Errorf(KindInvalid, "", "", "", "tag %q is empty: name a tag, e.g. project", t)
	}
	return clean, nil
}

// ParseWhere turns "field=value" conditions on frontmatter, as the CLI and
// the REST API take them, into SearchRequest.Where; "field>3",
// "field<=2024-07-01" compare (Comparisons), and their value holds the
// operator. A field given twice with different values can never match,
// so it is refused, but for two comparisons, which make a range.
func ParseWhere(pairs []string) (map[string]string, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	w := Where{}
	for _, p := range pairs {
		at := strings.IndexAny(p, "=<>")
		if at <= 0 || strings.TrimSpace(p[:at]) == "" {
			return nil, Errorf(KindInvalid, "", "", "", "where %q: use field=value, e.g. owner=alice, or compare a number or a date: rating>3, due<=2024-07-01", p)
		}
		k, v := strings.TrimSpace(p[:at]), strings.TrimSpace(p[at+1:])
		if p[at] != '=' {
			v = p[at:at+1] + v // the operator leads the value: ">3", ">=3"
			if !IsComparison(v) {
				return nil, Errorf(KindInvalid, "", "", "", "where %q: %s compares a number or a date (rating>3, due<=2024-07-01); use field=value to match text", p, p[at:at+1])
			}
		}
		if err := w.Add(k, v); err != nil {
			return nil, err
		}
	}
	return w.Fields, nil
}

// Where collects frontmatter conditions for SearchRequest.Where. Field
// names match without regard to case, so a field given twice, in any
// case, must be given one value (in any case).
type Where struct {
	Fields map[string]string
	named  map[string]string // lower-cased name → its spelling in Fields
}

// Add adds field k = v; a later value replaces an equal one.
func (w *Where) Add(k, v string) error {
	if w.Fields == nil {
		w.Fields, w.named = map[string]string{}, map[string]string{}
	}
	if first, seen := w.named[strings.ToLower(k)]; seen {
		if both, ok := BothComparisons(w.Fields[first], v); ok {
			w.Fields[first] = both
			return nil
		}
		if prev := w.Fields[first]; !strings.EqualFold(prev, v) {
			return Errorf(KindInvalid, "", "", "", "where: field %q is given twice (%q and %q); a note has one value", k, prev, v)
		}
		w.Fields[first] = v
		return nil
	}
	w.named[strings.ToLower(k)] = k
	w.Fields[k] = v
	return nil
}
