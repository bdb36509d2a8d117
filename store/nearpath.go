package store

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NearPath is the text of a note's path that reads as text does, where
// none holds text as written: a space, a hyphen and an underscore taken
// as one (the case of letters ignored, as path filters compare), so a
// filter that matched nothing ("leadership council") can name the one
// meant ("leadership-council"). With prefix, the path must start with
// it. Of the paths that hold it, the shortest gives it; ok is false when
// none holds it so, or one holds it as written (the filter failed for
// another reason).
func (s *Reader) NearPath(ctx context.Context, text string, prefix bool) (near string, ok bool, err error) {
	want := pathRunes(strings.TrimSpace(text))
	if len(want) == 0 {
		return "", false, nil
	}
	exact := fold(strings.TrimSpace(text))
	rows, err := s.r.QueryContext(ctx, `SELECT path FROM documents LIMIT ?`, maxNearPaths)
	if err != nil {
		return "", false, err
	}
	defer rows.Close()
	best := ""
	for rows.Next() {
		var path string
		if err := rows.Scan(&path); err != nil {
			return "", false, err
		}
		if folded := fold(path); strings.HasPrefix(folded, exact) || !prefix && strings.Contains(folded, exact) {
			return "", false, nil // held as written
		}
		i := runeIndex(pathRunes(path), want)
		if i < 0 || prefix && i > 0 || best != "" && len(path) >= len(best) {
			continue
		}
		best, near = path, string([]rune(path)[i:i+len(want)])
	}
	return near, best != "", rows.Err()
}

// maxNearPaths bounds the paths NearPath reads: it runs only when a
// filter matched nothing, but an index may hold a million notes.
const maxNearPaths = 200000

// pathRunes is text as NearPath compares it: lower case, a hyphen or an
// underscore as a space.
func pathRunes(text string) []rune {
	out := []rune(text)
	for i, r := range out {
		switch r {
		case '-', '_':
			out[i] = ' '
		default:
			out[i] = unicode.ToLower(r)
		}
	}
	return out
}

// runeIndex is where want first starts in s, or -1.
func runeIndex(s, want []rune) int {
	for i := 0; i+len(want) <= len(s); i++ {
		if slices.Equal(s[i:i+len(want)], want) {
			return i
		}
	}
	return -1
}

// StartingWith returns up to limit indexed notes, as COLLECTION:PATH,
// whose file name starts with name's (any case; its extension left out),
// shortest paths first: a note named by the start of its file name, as
// numbered notes are by their number ("1522" for
// 1522-conservative-impl-trait.md). A name of one letter finds none.
func (s *Store) StartingWith(ctx context.Context, collection, name string, limit int) ([]string, error) {
	base := name[strings.LastIndexByte(name, '/')+1:]
	if ext := strings.ToLower(filepath.Ext(base)); ext == ".md" || ext == ".markdown" {
		base = base[:len(base)-len(ext)]
	}
	if utf8.RuneCountInString(strings.TrimSpace(base)) < 2 {
		return nil, nil
	}
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(fold(base))
	return column[string](s.r.QueryContext(ctx, `SELECT c.name || ':' || d.path
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE (? = '' OR c.name = ?) AND `+lowerSQL(fileName, base)+` LIKE ? ESCAPE '\'
		ORDER BY length(d.path), d.path LIMIT ?`, collection, collection, esc+"%", limit))
}
