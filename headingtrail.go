package mdsearch

import "strings"

// HeadingTrail is the heading path a passage is read under: the note's
// title, then its section path without a first heading that repeats the
// title. The embedder's prefix and the results' "[A > B]" share it.
func HeadingTrail(title string, path []string) []string {
	parts := make([]string, 0, len(path)+1)
	if title != "" {
		parts = append(parts, title)
	}
	for i, h := range path {
		if i == 0 && len(parts) > 0 && strings.EqualFold(h, parts[0]) {
			continue
		}
		parts = append(parts, h)
	}
	return parts
}
