package store

import (
	"cmp"
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
	return s.fileNamed(ctx, collection, name, 2, false, limit)
}

// Within is StartingWith for a file name that holds name's file name
// anywhere, when that has four letters or more: the words a numbered or
// prefixed note is known by ("lifetime-syntax" for
// ch10-03-lifetime-syntax.md).
func (s *Store) Within(ctx context.Context, collection, name string, limit int) ([]string, error) {
	return s.fileNamed(ctx, collection, name, 4, true, limit)
}

// WithParts is Within for a file name that holds the parts of name's
// (cut at '-', '_', '.' and spaces), in their order, with other words
// between: a note remembered without some of its words
// ("ch04-01-ownership" for ch04-01-what-is-ownership.md). It needs two
// parts or more, of two letters or more each and four in all.
func (s *Store) WithParts(ctx context.Context, collection, name string, limit int) ([]string, error) {
	base := baseName(name)
	parts := strings.FieldsFunc(fold(base), func(r rune) bool { return strings.ContainsRune("-_. ", r) })
	if len(parts) < 2 || utf8.RuneCountInString(strings.Join(parts, "")) < 4 ||
		slices.ContainsFunc(parts, func(p string) bool { return utf8.RuneCountInString(p) < 2 }) {
		return nil, nil // a part of one letter is in almost every name
	}
	for i, p := range parts {
		parts[i] = likeEscaper.Replace(p)
	}
	return s.fileLike(ctx, collection, base, "%"+strings.Join(parts, "%")+"%", limit)
}

// baseName is name's file name, its markdown extension left out.
func baseName(name string) string {
	base := name[strings.LastIndexByte(name, '/')+1:]
	if ext := strings.ToLower(filepath.Ext(base)); ext == ".md" || ext == ".markdown" {
		base = base[:len(base)-len(ext)]
	}
	return base
}

// fileNamed returns the notes whose file name starts with name's (its
// extension left out), or holds it anywhere; none when name's has fewer
// than least letters.
func (s *Store) fileNamed(ctx context.Context, collection, name string, least int, anywhere bool, limit int) ([]string, error) {
	base := baseName(name)
	if utf8.RuneCountInString(strings.TrimSpace(base)) < least {
		return nil, nil
	}
	pattern := likeEscaper.Replace(fold(base)) + "%"
	if anywhere {
		pattern = "%" + pattern
	}
	return s.fileLike(ctx, collection, base, pattern, limit)
}

// fileLike returns the notes whose folded file name is LIKE pattern,
// shortest paths first; base is the name it was made of.
func (s *Store) fileLike(ctx context.Context, collection, base, pattern string, limit int) ([]string, error) {
	return column[string](s.r.QueryContext(ctx, `SELECT c.name || ':' || d.path
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE (? = '' OR c.name = ?) AND `+lowerSQL(fileName, base)+` LIKE ? ESCAPE '\'
		ORDER BY length(d.path), d.path LIMIT ?`, collection, collection, pattern, limit))
}

// likeEscaper escapes LIKE's wildcards and its escape character (ESCAPE
// '\'), so a name is matched as written.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// ShownAs returns the indexed notes, as COLLECTION:PATH, whose path is not
// UTF-8 and reads as shown once each invalid byte is replaced by U+FFFD,
// as JSON writes it, or each run of them, as some terminals show it: what
// a caller copies from a result.
// It reads every path, for the rare call that needs it.
func (s *Store) ShownAs(ctx context.Context, collection, shown string) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.name, d.path FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE ? = '' OR c.name = ?`, collection, collection)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c, p string
		if err := rows.Scan(&c, &p); err != nil {
			return nil, err
		}
		if !utf8.ValidString(p) && (badBytesShown(p) == shown || strings.ToValidUTF8(p, "\uFFFD") == shown) {
			out = append(out, c+":"+p)
		}
	}
	return out, rows.Err()
}

// badBytesShown is p with each byte that is not UTF-8 as U+FFFD, as JSON
// writes it; strings.ToValidUTF8 makes one of a run of them, as some
// terminals show it.
func badBytesShown(p string) string {
	var b strings.Builder
	for _, r := range p { // a bad byte ranges as one RuneError
		b.WriteRune(r)
	}
	return b.String()
}

// NamedLike returns up to limit indexed notes, as COLLECTION:PATH, whose
// path is path in another case, or whose file name is path's (any case):
// "home.md" finds "Home.md", "Command palette.md" finds
// "Plugins/Command palette.md", as a wikilink names a note.
func (s *Store) NamedLike(ctx context.Context, collection, path string, limit int) ([]string, error) {
	base := path[strings.LastIndexByte(path, '/')+1:]
	esc := likeEscaper.Replace(fold(base))
	p := lowerSQL("d.path", path) // SQLite's lower() folds ASCII alone: "Über" is fold()'s
	return column[string](s.r.QueryContext(ctx, `SELECT c.name || ':' || d.path
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE (? = '' OR c.name = ?) AND (`+p+` = ? OR `+p+` = ? OR `+p+` LIKE ? ESCAPE '\')
		ORDER BY length(d.path), d.path LIMIT ?`, collection, collection, fold(path), fold(base), "%/"+esc, limit))
}

// SpelledLike returns up to limit indexed notes, as COLLECTION:PATH, whose
// path is a few edits from path (a letter dropped, doubled, swapped or
// wrong; one for every five letters, in any case), nearest first: a path
// typed with a slip, "kitchen/Sourdogh.md", or a name without folders
// ("Embed file") whose note's file name is a few edits from it. It reads every path of the
// collection (or all), so it is for a note not found.
func (s *Store) SpelledLike(ctx context.Context, collection, path string, limit int) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.name, d.path FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE ? = '' OR c.name = ?`, collection, collection)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	want := []rune(fold(path))
	most := len(want) / 5
	bare := !strings.Contains(path, "/")
	type near struct {
		name string
		d    int
	}
	var found []near
	for rows.Next() {
		var coll, p string
		if err := rows.Scan(&coll, &p); err != nil {
			return nil, err
		}
		against := p
		if bare { // a name as a wikilink writes it: the file's name, in any folder
			against = p[strings.LastIndexByte(p, '/')+1:]
		}
		if d := EditDistance(want, []rune(fold(against)), most); d <= most {
			found = append(found, near{coll + ":" + p, d})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return cmp.Or(a.d-b.d, strings.Compare(a.name, b.name)) })
	var out []string
	for _, f := range found[:min(limit, len(found))] {
		out = append(out, f.name)
	}
	return out, rows.Err()
}

// EndingIn returns up to limit indexed notes, as COLLECTION:PATH, whose
// path is path or ends with "/" and path, in any case ("deep/Tui.md" is
// back/deep/Tui.md): a wikilink may name a note by the end of its path.
// Shortest paths first.
func (s *Store) EndingIn(ctx context.Context, collection, path string, limit int) ([]string, error) {
	low := fold(path)
	esc := likeEscaper.Replace(low)
	p := lowerSQL("d.path", path)
	return column[string](s.r.QueryContext(ctx, `SELECT c.name || ':' || d.path
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE (? = '' OR c.name = ?) AND (`+p+` = ? OR `+p+` LIKE ? ESCAPE '\')
		ORDER BY length(d.path), d.path LIMIT ?`, collection, collection, low, "%/"+esc, limit))
}

// Aliased returns up to limit indexed notes, as COLLECTION:PATH, that
// have name as an alias in their frontmatter ("aliases" or "alias", a list
// or one value, as aliasTerms reads them), in any case: a wikilink may
// name a note by one.
func (s *Store) Aliased(ctx context.Context, collection, name string, limit int) ([]string, error) {
	const scalar = `NOT IN ('array', 'object', 'null')`
	return column[string](s.r.QueryContext(ctx, `SELECT c.name || ':' || d.path
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE (? = '' OR c.name = ?) AND d.frontmatter IS NOT NULL AND EXISTS (
			SELECT 1 FROM json_each(d.frontmatter) f WHERE fold(f.key) IN ('aliases', 'alias') AND (
				f.type `+scalar+` AND fold(CAST(f.value AS TEXT)) = fold(?)
				OR f.type = 'array' AND EXISTS (SELECT 1 FROM json_each(f.value) a
					WHERE a.type `+scalar+` AND fold(CAST(a.value AS TEXT)) = fold(?))))
		ORDER BY length(d.path), d.path LIMIT ?`, collection, collection, name, name, limit))
}

// Inside returns up to limit indexed notes, as COLLECTION:PATH, that lie
// in the folder dir (vault-relative, any case as path filters compare):
// what a read that named a folder rather than a note can offer.
func (s *Store) Inside(ctx context.Context, collection, dir string, limit int) ([]string, error) {
	esc := likeEscaper.Replace(fold(dir))
	return column[string](s.r.QueryContext(ctx, `SELECT c.name || ':' || d.path
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE (? = '' OR c.name = ?) AND `+lowerSQL("d.path", dir)+` LIKE ? ESCAPE '\'
		ORDER BY d.path, c.name LIMIT ?`, collection, collection, esc+"/%", limit))
}
