package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// Filter narrows a search. Zero fields match everything; set fields must
// all match.
type Filter struct {
	CollectionID int64
	// PathPrefix is vault-relative and compared without regard to case
	// (fold: in any script, and composed), so "Projects/" finds
	// "projects/plan.md" and "Работа/" finds "работа/".
	PathPrefix string
	// PathHas and FileHas keep notes whose path, or file name, holds each
	// text, compared as PathPrefix is (Obsidian's path: and file:).
	PathHas, FileHas []string
	Tag              string   // matches the tag and its nested tags (tag/child); case-insensitive
	Tags             []string // each must match, as Tag does
	// Fields keeps notes whose frontmatter field equals the value, or
	// holds it when the field is a list; values compare without regard to
	// case (fold), and a wikilink as the note it links to ("[[Budget|b]]"
	// is "Budget"). A value of comparisons (mdsearch.Comparisons) keeps
	// the notes whose number or date, or one item of a list, meets each.
	Fields map[string]string
	// NotPathHas, NotFileHas, NotTags and NotFields leave out the notes
	// that PathHas, FileHas, Tags and Fields would keep (Obsidian's
	// -path:, -file:, -tag:, -[field:value]); NotFields are name, value.
	NotPathHas, NotFileHas, NotTags []string
	NotFields                       [][2]string
	// NotDocs leaves out the notes of these ids (those holding a word a
	// list of notes excludes, Obsidian's -word).
	NotDocs []int64
	// Exclude leaves out the notes at these vault-relative paths, in any
	// collection, compared exactly.
	Exclude []string
	// ExcludeIn leaves out each note at a path of the collection named
	// (COLLECTION:PATH, as results name a path several collections hold).
	ExcludeIn []NotePath
	// ExcludeFiles leaves out the notes at these absolute file paths, in
	// whichever collection's folder holds them.
	ExcludeFiles []string
}

// NotePath is a note's vault-relative path in the collection named.
type NotePath struct {
	Collection, Path string
}

// IsZero reports whether the filter matches everything.
func (f Filter) IsZero() bool {
	return f.CollectionID == 0 && f.PathPrefix == "" && len(f.PathHas) == 0 && len(f.FileHas) == 0 &&
		f.Tag == "" && len(f.Tags) == 0 && len(f.Fields) == 0 && len(f.Exclude) == 0 && len(f.ExcludeIn) == 0 && len(f.ExcludeFiles) == 0 &&
		len(f.NotPathHas) == 0 && len(f.NotFileHas) == 0 && len(f.NotTags) == 0 && len(f.NotFields) == 0 &&
		len(f.NotDocs) == 0
}

// where returns SQL conditions on documents d, and their arguments.
func (f Filter) where() (string, []any) {
	var c conds
	if f.CollectionID != 0 {
		c.add(`d.collection_id = ?`, f.CollectionID)
	}
	if p := f.PathPrefix; p != "" {
		c.add(`substr(`+lowerSQL("d.path", p)+`, 1, ?) = ?`, len([]rune(fold(p))), fold(p))
	}
	for _, p := range f.PathHas {
		c.add(`instr(`+lowerSQL("d.path", p)+`, ?) > 0`, fold(p))
	}
	for _, name := range f.FileHas {
		c.add(`instr(`+lowerSQL(fileName, name)+`, ?) > 0`, fold(name))
	}
	for _, t := range append([]string{f.Tag}, f.Tags...) {
		if tag := NormTag(t); tag != "" {
			c.add(`d.id IN (SELECT t.doc_id FROM doc_tags t WHERE `+tagMatch+`)`, tagArgs(tag)...)
		}
	}
	for _, k := range sortedKeys(f.Fields) {
		cond, args := fieldMatch(k, f.Fields[k])
		c.add(cond, args...)
	}
	f.whereNot(&c)
	for _, p := range f.Exclude {
		c.add(`d.path <> ?`, p)
	}
	for _, n := range f.ExcludeIn {
		c.add(`NOT (d.path = ? AND `+inCollection+`)`, n.Path, n.Collection)
	}
	sep := string(filepath.Separator)
	for _, p := range f.ExcludeFiles {
		c.add(`NOT `+atFile, sep, sep, sep, p)
	}
	if len(c.sql) == 0 {
		return "1", nil
	}
	return strings.Join(c.sql, " AND "), c.args
}

// inCollection is the condition that document d is of the collection
// named (never NULL, so that NOT of it is never NULL either).
const inCollection = `EXISTS (SELECT 1 FROM collections cx WHERE cx.id = d.collection_id AND cx.name = ?)`

// atFile is the condition that document d is the file at an absolute
// path: its collection's folder joined with its path, both in the
// system's separators (the arguments: the separator three times, then the
// path).
const atFile = `EXISTS (SELECT 1 FROM collections cx WHERE cx.id = d.collection_id AND rtrim(cx.root, ?) || ? || replace(d.path, '/', ?) = ?)`

// Excludes reports, for each filter, whether any indexed note is one its
// Exclude, ExcludeIn or ExcludeFiles name (whatever else it holds): an
// exclude that names none leaves nothing out, and is most often a slip.
// One statement for all: a request may name a hundred.
func (s *Reader) Excludes(ctx context.Context, fs []Filter) ([]bool, error) {
	out := make([]bool, len(fs))
	var cols []string
	var args []any
	var at []int // the place in out of each column
	for i, f := range fs {
		x := Filter{Exclude: f.Exclude, ExcludeIn: f.ExcludeIn, ExcludeFiles: f.ExcludeFiles}
		if x.IsZero() {
			continue
		}
		cond, cargs := x.where() // the notes left: the ones named are the rest
		cols = append(cols, `EXISTS (SELECT 1 FROM documents d WHERE NOT (`+cond+`))`)
		args = append(args, cargs...)
		at = append(at, i)
	}
	if len(cols) == 0 {
		return out, nil
	}
	dst := make([]any, len(cols))
	for k, i := range at {
		dst[k] = &out[i]
	}
	return out, s.r.QueryRowContext(ctx, `SELECT `+strings.Join(cols, ", "), args...).Scan(dst...)
}

// whereNot adds the conditions that leave notes out: the Not fields.
func (f Filter) whereNot(c *conds) {
	for _, p := range f.NotPathHas {
		c.add(`instr(`+lowerSQL("d.path", p)+`, ?) = 0`, fold(p))
	}
	for _, name := range f.NotFileHas {
		c.add(`instr(`+lowerSQL(fileName, name)+`, ?) = 0`, fold(name))
	}
	for _, t := range f.NotTags {
		if tag := NormTag(t); tag != "" {
			c.add(`d.id NOT IN (SELECT t.doc_id FROM doc_tags t WHERE `+tagMatch+`)`, tagArgs(tag)...)
		}
	}
	for _, kv := range f.NotFields {
		cond, args := fieldMatch(kv[0], kv[1])
		c.add(`NOT `+cond, args...)
	}
	if len(f.NotDocs) > 0 {
		ids, _ := json.Marshal(f.NotDocs)
		c.add(`d.id NOT IN (SELECT value FROM json_each(?))`, string(ids))
	}
}

// fieldMatch is the condition that a note's frontmatter field k holds v
// (Fields), and its arguments: a value that is a comparison
// (mdsearch.Comparisons) is met by a number or date that meets it. The
// field file.mtime is the note's file's time (fileTimeCond).
func fieldMatch(k, v string) (string, []any) {
	if mdsearch.IsFileTime(k) {
		return fileTimeCond(v)
	}
	item := equalTo(v)
	if cs, ok := mdsearch.Comparisons(v); ok {
		item = func(x string) (string, []any) { return compareCond(x, cs) }
	} else if period, ok := mdsearch.PeriodOf(v); ok {
		item = periodOrText(v, period)
	}
	cond, args := fieldCond(item)
	args = append([]any{k}, args...)
	if path := fieldPath(k); len(path) > 1 {
		nested, nargs := nestedFieldCond(path, item)
		return `(` + cond + ` OR ` + nested + `)`, append(args, nargs...)
	}
	return cond, args
}

// itemMatch is the condition on the json_each row x that a value (a
// scalar field's, or an item of a list) matches, and its arguments.
type itemMatch func(x string) (string, []any)

// equalTo matches a value equal to v, as text or as a number (valueIs).
func equalTo(v string) itemMatch {
	var num any // NULL matches no number
	if n, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
		num = n
	}
	return func(x string) (string, []any) { return valueIs(x), []any{v, num} }
}

// periodOrText matches a date of period (a day or a month), at any time
// of it, or the text v itself: [due:today] holds for a due date of
// today, and for a property that says "today" in words.
func periodOrText(v, period string) itemMatch {
	text := equalTo(v)
	cs := mdsearch.SpanOf(period, "")
	return func(x string) (string, []any) {
		a, aArgs := text(x)
		b, bArgs := compareCond(x, cs)
		return `(` + a + ` OR ` + b + `)`, append(aArgs, bArgs...)
	}
}

// fileName is the last part of a document's path: rtrim takes every
// character but '/' off its end, leaving the folders.
const fileName = `substr(d.path, length(rtrim(d.path, replace(d.path, '/', ''))) + 1)`

// fieldCond matches a frontmatter field, named without regard to case
// (fold), as Obsidian's properties are: a scalar field by its value, a
// list (or map) field by any item (or value), as item matches one. Its
// arguments follow the field's name.
func fieldCond(item itemMatch) (string, []any) {
	return fieldValueCond("f", `EXISTS (SELECT 1 FROM json_each(d.frontmatter) f WHERE fold(f.key) = fold(?) AND `, item)
}

// fieldValueCond is head (up to the field's value, the json_each row x)
// then the condition that x, or an item of it, matches item.
func fieldValueCond(x, head string, item itemMatch) (string, []any) {
	one, args := item(x)
	inList, listArgs := item("j")
	return head + `(` + x + `.type NOT IN ('array', 'object') AND ` + one +
		` OR ` + x + `.type IN ('array', 'object') AND EXISTS (SELECT 1 FROM json_each(` + x + `.value) j WHERE ` + inList + `)))`, append(args, listArgs...)
}

// fieldPath splits a field name at its dots ("params.author" is the field
// author of the map params), up to maxFieldDepth names; a name with an
// empty part, or deeper, is one name.
func fieldPath(k string) []string {
	parts := strings.Split(k, ".")
	if len(parts) > maxFieldDepth || slices.Contains(parts, "") {
		return []string{k}
	}
	return parts
}

// maxFieldDepth bounds how deep a dotted field name reaches into maps.
const maxFieldDepth = 4

// nestedFieldCond matches a field inside maps of the frontmatter, each
// name of path without regard to case, its value as fieldCond matches a
// field's; a field literally named with dots ("v1.2") is fieldCond's.
func nestedFieldCond(path []string, item itemMatch) (string, []any) {
	var from, where []string
	var args []any
	for i, name := range path {
		src := "d.frontmatter"
		if i > 0 {
			src = fmt.Sprintf("n%d.value", i-1)
			where = append(where, fmt.Sprintf("n%d.type = 'object'", i-1))
		}
		from = append(from, fmt.Sprintf("json_each(%s) n%d", src, i))
		where = append(where, fmt.Sprintf("fold(n%d.key) = fold(?)", i))
		args = append(args, name)
	}
	last := fmt.Sprintf("n%d", len(path)-1)
	head := `EXISTS (SELECT 1 FROM ` + strings.Join(from, ", ") + ` WHERE ` + strings.Join(where, " AND ") + ` AND `
	cond, cargs := fieldValueCond(last, head, item)
	return cond, append(args, cargs...)
}

// valueIs matches the json_each row x to a value given as text (a
// wikilink as the note it links to: foldLink), then as a number (NULL
// when it is none).
func valueIs(x string) string {
	return `(foldlink(` + jsonText(x) + `) = foldlink(?)` +
		` OR (` + x + `.type IN ('integer', 'real') AND ` + x + `.value = ?))`
}

// jsonText is the value of the json_each row x as text, booleans as they
// are written (true, false).
func jsonText(x string) string {
	return `CASE ` + x + `.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(` + x + `.value AS TEXT) END`
}

// conds collects SQL conditions and their arguments.
type conds struct {
	sql  []string
	args []any
}

func (c *conds) add(cond string, args ...any) {
	c.sql = append(c.sql, cond)
	c.args = append(c.args, args...)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tagMatch is the condition on doc_tags t that a filter's tag matches: the
// tag itself or a tag nested under it (tag/child, the tags from "tag/" up
// to "tag0", '0' following '/'); tagArgs are its arguments for a
// normalised tag. Both are ranges of the table's key, and a filter asks
// for the notes once (d.id IN …), not for each row it keeps: a note of
// 100,000 tags made a search that matched none take 42 s.
const tagMatch = `(t.tag = ? OR (t.tag >= ? AND t.tag < ?))`

func tagArgs(tag string) []any { return []any{tag, tag + "/", tag + "0"} }

// TagCount is a tag and how many notes carry it.
type TagCount struct {
	Tag   string
	Notes int
}

// UnknownTags returns the tags of f (Tag and Tags) that no note carries,
// nested tags included, as Filter matches them.
func (s *Reader) UnknownTags(ctx context.Context, f Filter) ([]string, error) {
	var out []string
	for _, t := range append([]string{f.Tag}, f.Tags...) {
		tag := NormTag(t)
		if tag == "" {
			continue
		}
		var one int
		err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM doc_tags t WHERE `+tagMatch+`)`, tagArgs(tag)...).Scan(&one)
		if err != nil {
			return nil, err
		}
		if one == 0 {
			out = append(out, t)
		}
	}
	return out, nil
}

// TopTags returns the tags most notes carry, most first, at most limit,
// each as the first note to carry it writes it ("camelCase", not the
// "camelcase" filters compare).
func (s *Reader) TopTags(ctx context.Context, limit int) ([]TagCount, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT tag, count(*) AS n FROM doc_tags GROUP BY tag ORDER BY n DESC, tag LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TagCount
	for rows.Next() {
		var tc TagCount
		if err := rows.Scan(&tc.Tag, &tc.Notes); err != nil {
			return nil, err
		}
		out = append(out, tc)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for i := range out {
		out[i].Tag = s.writtenTag(ctx, out[i].Tag)
	}
	return out, nil
}

// NearestTag is the tag notes carry nearest in spelling to tag (within
// MaxEdits of it, the case of letters ignored, as filters compare tags),
// the one more notes carry of equally near ones, as the first note to
// carry it writes it, with the notes a filter of it keeps (its nested
// tags' too); ok is false when none is near. Only tags of a near length
// are compared.
func (s *Reader) NearestTag(ctx context.Context, tag string) (near TagCount, ok bool, err error) {
	want := []rune(NormTag(tag))
	edits := MaxEdits(string(want))
	if edits == 0 {
		return near, false, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT tag, count(*) AS n FROM doc_tags WHERE length(tag) BETWEEN ? AND ? GROUP BY tag ORDER BY n DESC, tag`,
		len(want)-edits, len(want)+edits)
	if err != nil {
		return near, false, err
	}
	defer rows.Close()
	best := edits + 1
	for rows.Next() {
		var tc TagCount
		if err := rows.Scan(&tc.Tag, &tc.Notes); err != nil {
			return near, false, err
		}
		if d := EditDistance(want, []rune(tc.Tag), edits); d < best { // most notes first: a tie keeps the first
			near, best = tc, d
		}
	}
	if err := rows.Err(); err != nil || best > edits {
		return near, false, err
	}
	rows.Close()
	if err := s.r.QueryRowContext(ctx, `SELECT count(DISTINCT t.doc_id) FROM doc_tags t WHERE `+tagMatch, tagArgs(near.Tag)...).Scan(&near.Notes); err != nil {
		return near, false, err
	}
	near.Tag = s.writtenTag(ctx, near.Tag)
	return near, true, nil
}

// writtenTag is tag, as doc_tags keeps it (NormTag), as the first note to
// carry it writes it, or tag itself when that cannot be read.
func (s *Reader) writtenTag(ctx context.Context, tag string) string {
	var raw string
	err := s.queryRow(ctx, `SELECT d.tags FROM doc_tags t JOIN documents d ON d.id = t.doc_id WHERE t.tag = ? ORDER BY d.id LIMIT 1`, tag).Scan(&raw)
	var written []string
	if err != nil || json.Unmarshal([]byte(raw), &written) != nil {
		return tag
	}
	for _, w := range written {
		if NormTag(w) == tag {
			return strings.TrimPrefix(strings.TrimSpace(w), "#")
		}
	}
	return tag
}

// TextHolds reports whether a passage's text holds s, ASCII letters
// compared without regard to case: a scan of every passage, for notices
// of searches that found nothing.
func (s *Reader) TextHolds(ctx context.Context, text string) (bool, error) {
	var ok bool
	err := s.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM chunks WHERE instr(lower(text), lower(?)) > 0)`, text).Scan(&ok)
	return ok, err
}

// HasProperty reports whether a note of the index has a frontmatter field
// of the name, in any case (a dotted name's first part: "params.author"
// is a field of params), as Fields compares names.
func (s *Reader) HasProperty(ctx context.Context, name string) (bool, error) {
	var ok bool
	err := s.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM documents d, json_each(d.frontmatter) f
		WHERE d.frontmatter IS NOT NULL AND fold(f.key) IN (fold(?), fold(?)))`, name, fieldPath(name)[0]).Scan(&ok)
	return ok, err
}

// ValueCount is a value of a frontmatter property and how many notes
// hold it.
type ValueCount struct {
	Value string
	Notes int
}

// PropertyValues returns up to limit values of the top-level property
// name (any case), as --where compares them (a list's items each), with
// how many of the notes f keeps hold each, the most held first: what a
// filter that matched nothing could have asked for ("publish" holds true
// and false, not "yes").
func (s *Reader) PropertyValues(ctx context.Context, name string, f Filter, limit int) ([]ValueCount, error) {
	cond, cargs := f.where()
	args := append(append(append(append([]any{name}, cargs...), name), cargs...), limit)
	rows, err := s.r.QueryContext(ctx, `SELECT v, COUNT(DISTINCT id) FROM (
		SELECT d.id AS id, `+jsonText("f")+` AS v
			FROM documents d, json_each(d.frontmatter) f
			WHERE d.frontmatter IS NOT NULL AND fold(f.key) = fold(?) AND f.type NOT IN ('array', 'object', 'null') AND `+cond+`
		UNION ALL
		SELECT d.id, `+jsonText("j")+`
			FROM documents d, json_each(d.frontmatter) f, json_each(f.value) j
			WHERE d.frontmatter IS NOT NULL AND fold(f.key) = fold(?) AND f.type IN ('array', 'object') AND j.type NOT IN ('array', 'object', 'null') AND `+cond+`
	) GROUP BY v ORDER BY 2 DESC, v LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ValueCount
	for rows.Next() {
		var v ValueCount
		if err := rows.Scan(&v.Value, &v.Notes); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
