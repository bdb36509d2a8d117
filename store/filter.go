package store

import (
	"slices"
	"strings"
)

// Filter narrows a search. Zero fields match everything; set fields must
// all match.
type Filter struct {
	CollectionID int64
	// PathPrefix is vault-relative and compared without regard to case
	// (ASCII letters), so "Projects/" finds "projects/plan.md".
	PathPrefix string
	Tag        string   // matches the tag and its nested tags (tag/child); case-insensitive
	Tags       []string // each must match, as Tag does
	// Fields keeps notes whose frontmatter field equals the value, or
	// holds it when the field is a list; values compare without regard to
	// case (ASCII letters).
	Fields map[string]string
}

// IsZero reports whether the filter matches everything.
func (f Filter) IsZero() bool {
	return f.CollectionID == 0 && f.PathPrefix == "" && f.Tag == "" && len(f.Tags) == 0 && len(f.Fields) == 0
}

// where returns SQL conditions on documents d, and their arguments.
func (f Filter) where() (string, []any) {
	var c conds
	if f.CollectionID != 0 {
		c.add(`d.collection_id = ?`, f.CollectionID)
	}
	if f.PathPrefix != "" {
		c.add(`lower(substr(d.path, 1, ?)) = lower(?)`, len([]rune(f.PathPrefix)), f.PathPrefix)
	}
	for _, t := range append([]string{f.Tag}, f.Tags...) {
		if tag := NormTag(t); tag != "" {
			c.add(`EXISTS (SELECT 1 FROM doc_tags t WHERE t.doc_id = d.id AND (t.tag = ? OR substr(t.tag, 1, ?) = ?))`,
				tag, len([]rune(tag))+1, tag+"/")
		}
	}
	for _, k := range sortedKeys(f.Fields) {
		c.add(fieldCond, jsonKey(k), f.Fields[k])
	}
	if len(c.sql) == 0 {
		return "1", nil
	}
	return strings.Join(c.sql, " AND "), c.args
}

// fieldCond matches a frontmatter field: json_each yields a scalar field
// once and a list field's items one by one. Booleans read as true/false,
// as they are written.
const fieldCond = `EXISTS (SELECT 1 FROM json_each(d.frontmatter, ?) j WHERE
	(CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE lower(CAST(j.value AS TEXT)) END) = lower(?))`

// conds collects SQL conditions and their arguments.
type conds struct {
	sql  []string
	args []any
}

func (c *conds) add(cond string, args ...any) {
	c.sql = append(c.sql, cond)
	c.args = append(c.args, args...)
}

// jsonKey is the JSON path of a top-level field, quoted so that dots and
// brackets in a field name stay part of it.
func jsonKey(k string) string {
	return `$."` + strings.ReplaceAll(k, `"`, `\"`) + `"`
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
