package eval

import (
	"context"
	"strings"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/vault"
)

// Resolve checks every query against the vault: each labelled note must
// exist and each labelled section must be found in it, and each
// expected_path_contains must match some note. It records each labelled
// section's line range for span hits. Errors name the query file and line.
func (qs *QuerySet) Resolve(ctx context.Context, dir string) error {
	v, err := vault.Open(dir, vault.Options{})
	if err != nil {
		return err
	}
	files, _, err := v.Walk(ctx)
	if err != nil {
		return err
	}
	notes := make(map[string]bool, len(files))
	for _, f := range files {
		notes[f.Path] = true
	}
	docs := map[string]*sections.Document{}
	for qi := range qs.Queries {
		q := &qs.Queries[qi]
		if q.PathContains != "" && !anyContains(notes, q.PathContains) {
			return queryError(qs.File, q.Line, "no note in %s has a path containing %q", dir, q.PathContains)
		}
		for li := range q.Relevant {
			if err := qs.resolveLabel(v, notes, docs, q, &q.Relevant[li]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (qs *QuerySet) resolveLabel(v *vault.Vault, notes map[string]bool, docs map[string]*sections.Document, q *Query, l *Label) error {
	if !notes[l.Path] {
		return queryError(qs.File, q.Line, "%q is not a note of the vault", l.Path)
	}
	doc := docs[l.Path]
	if doc == nil {
		src, err := v.ReadNote(l.Path)
		if err != nil {
			return queryError(qs.File, q.Line, "%v", err)
		}
		doc = sections.Parse(l.Path, src)
		docs[l.Path] = doc
	}
	if len(l.SectionPath) == 0 {
		l.span = span{resolved: true, start: 1, end: doc.Line(len(doc.Src))}
		return nil
	}
	sec := findExact(doc, l.SectionPath)
	if sec == nil {
		var err error
		if sec, err = doc.Find(strings.Join(l.SectionPath, "/")); err != nil {
			return queryError(qs.File, q.Line, "%v", err)
		}
	}
	l.span = span{resolved: true, path: sec.Path, start: sec.StartLine, end: sec.EndLine}
	return nil
}

// findExact returns the one section whose heading path equals want,
// ignoring case; headings that contain "/" make Find's paths ambiguous.
func findExact(doc *sections.Document, want []string) *sections.Section {
	var found *sections.Section
	for i := range doc.Sections {
		s := &doc.Sections[i]
		if len(s.Path) != len(want) {
			continue
		}
		same := true
		for j := range want {
			if !strings.EqualFold(strings.TrimSpace(s.Path[j]), strings.TrimSpace(want[j])) {
				same = false
				break
			}
		}
		if same {
			if found != nil {
				return nil // ambiguous: let Find explain
			}
			found = s
		}
	}
	return found
}

func anyContains(notes map[string]bool, sub string) bool {
	for p := range notes {
		if strings.Contains(p, sub) {
			return true
		}
	}
	return false
}
