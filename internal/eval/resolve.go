package eval

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/vault"
)

// Resolve checks every query against the vault: each labelled note must
// exist and each labelled section must be found in it, and each
// expected_path_contains must match some note. It records each labelled
// section's line range for span hits. Errors name the query file and line.
func (qs *QuerySet) Resolve(ctx context.Context, dir string) error {
	v, files, err := openVault(ctx, dir)
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
		if err := qs.checkExclude(notes, q); err != nil {
			return err
		}
		for li := range q.Relevant {
			if err := qs.resolveLabel(v, notes, docs, q, &q.Relevant[li]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkExclude refuses an excluded note the vault lacks, which drops
// nothing, and one a label names, whose results are dropped: the query
// could never find it.
func (qs *QuerySet) checkExclude(notes map[string]bool, q *Query) error {
	if q.Exclude == "" {
		return nil
	}
	if !notes[q.Exclude] {
		return queryError(qs.File, q.Line, `"exclude": %q is not a note of the vault`, q.Exclude)
	}
	if q.PathContains != "" && !anyContains(notes, q.PathContains, q.Exclude) {
		return queryError(qs.File, q.Line, `"exclude": %q is the only note whose path contains %q (expected_path_contains): its results are dropped, so the query could never find it`, q.Exclude, q.PathContains)
	}
	for i := range q.Relevant {
		if l := &q.Relevant[i]; l.Path == q.Exclude {
			line, idx := q.where(l, i)
			return queryError(qs.File, line, `"exclude": %q is the note relevant[%d] labels: its results are dropped, so the query could never find it`, q.Exclude, idx)
		}
	}
	return nil
}

// resolveLabel finds the section a label names. A label resolved already
// (Generate resolves its own, knowing the very section) is kept.
func (qs *QuerySet) resolveLabel(v *vault.Vault, notes map[string]bool, docs map[string]*sections.Document, q *Query, l *Label) error {
	if l.span.resolved {
		return nil
	}
	line, _ := q.where(l, 0)
	if !notes[l.Path] {
		return queryError(qs.File, line, "%q is not a note of the vault", l.Path)
	}
	doc := docs[l.Path]
	if doc == nil {
		var err error
		if _, doc, err = readDoc(v, l.Path); err != nil {
			return queryError(qs.File, line, "%v", err)
		}
		docs[l.Path] = doc
	}
	if len(l.SectionPath) == 0 {
		l.span = span{resolved: true, start: 1, end: doc.Line(len(doc.Src))}
		return nil
	}
	sec, err := findLabel(doc, l.SectionPath)
	if err != nil {
		// Labels may keep what section paths leave out: inline HTML
		// ("useId() <sup …/>") and backslash escapes.
		clean := make([]string, len(l.SectionPath))
		for i, h := range l.SectionPath {
			h = mdEscape.ReplaceAllString(inlineHTML.ReplaceAllString(h, " "), "$1")
			clean[i] = strings.Join(strings.Fields(h), " ")
		}
		if sec2, err2 := findLabel(doc, clean); err2 == nil {
			sec, err = sec2, nil
		} else if len(clean) == 1 {
			// A heading named alone may stand in several places; any counts.
			if secs := byHeading(doc, clean[0]); len(secs) > 0 {
				sec, err = secs[0], nil
				for _, o := range secs[1:] {
					l.alts = append(l.alts, span{resolved: true, path: o.Path, start: o.StartLine, end: o.EndLine})
				}
			}
		}
	}
	if err != nil {
		return queryError(qs.File, line, "%v", err)
	}
	l.span = span{resolved: true, path: sec.Path, start: sec.StartLine, end: sec.EndLine}
	if l.Own {
		l.span.end = ownEnd(doc, sec)
	}
	return nil
}

// ownEnd is the last line of a section's own text, before its first
// subsection (its heading's line when it has none).
func ownEnd(doc *sections.Document, sec *sections.Section) int {
	return doc.Line(max(sec.StartByte, sec.BodyEnd-1))
}

// findLabel finds a labelled section: the exact heading path, else as
// section reads resolve it. A name that sections of several paths answer
// to, which a read takes for the first, names no one section here: a
// heading named alone stands for each of them (byHeading).
func findLabel(doc *sections.Document, want []string) (*sections.Section, error) {
	if sec := findExact(doc, want); sec != nil {
		return sec, nil
	}
	sec, others, err := doc.Matches(strings.Join(want, "/"))
	for _, o := range others {
		if !slices.Equal(o.Path, sec.Path) {
			return nil, fmt.Errorf("section %q: it matches several sections of different paths", strings.Join(want, "/"))
		}
	}
	return sec, err
}

// byHeading lists the sections whose heading is h, ignoring case.
func byHeading(doc *sections.Document, h string) []*sections.Section {
	var out []*sections.Section
	for i := range doc.Sections {
		if s := &doc.Sections[i]; s.Level > 0 && strings.EqualFold(s.Heading, strings.TrimSpace(h)) {
			out = append(out, s)
		}
	}
	return out
}

// inlineHTML matches the tags a label may carry from a heading written
// with inline HTML ("useId() <sup class=…/>"), which section paths leave out.
var inlineHTML = regexp.MustCompile(`<[^>]*>`)

// mdEscape matches a backslash escape of punctuation.
var mdEscape = regexp.MustCompile(`\\([[:punct:]])`)

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

// anyContains reports whether a note's path contains sub, but for the
// notes named in but.
func anyContains(notes map[string]bool, sub string, but ...string) bool {
	for p := range notes {
		if strings.Contains(p, sub) && !slices.Contains(but, p) {
			return true
		}
	}
	return false
}
