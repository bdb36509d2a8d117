package mdsearch

import (
	"strings"
)

// ParseWhere turns "field=value" conditions on frontmatter, as the CLI and
// the REST API take them, into SearchRequest.Where. A field given twice
// with different values can never match, so it is refused.
func ParseWhere(pairs []string) (map[string]string, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok || k == "":
			return nil, Errorf(KindInvalid, "search", "", "", "where %q: use field=value, e.g. owner=alice", p)
		case out[k] != "" && !strings.EqualFold(out[k], v):
			return nil, Errorf(KindInvalid, "search", "", "", "where: field %q is given twice (%q and %q); a note has one value", k, out[k], v)
		}
		out[k] = v
	}
	return out, nil
}
