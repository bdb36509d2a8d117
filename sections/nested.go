package sections

import "strings"

// NestedRead is what a read of a nested heading returns: the heading,
// its first and last lines (from the heading to the end of the list
// item, quote or callout that holds it, or to the next heading there at
// its level or above), the section whose body holds it, and the ids of
// the other nested headings its text names, in order.
type NestedRead struct {
	Heading    Heading
	Start, End int
	Section    *Section
	Others     []string
}

// FindNested finds the heading inside a list, quote or callout that query
// names, by its id ("#the-stack-and-the-heap", as a page's link writes
// it) or by its text, where no section answers to the query as its
// heading, path or id. Such a heading opens no section: Find reads the
// section holding it for its id, and fails on its text; a read of it is
// its own lines instead.
func (d *Document) FindNested(query string) (NestedRead, bool) {
	if len(d.Nested) == 0 {
		return NestedRead{}, false
	}
	i, others := d.nestedIndex(query)
	if i < 0 {
		return NestedRead{}, false
	}
	h := d.Nested[i]
	sec := d.holdingAt(h.StartByte)
	if sec == nil {
		return NestedRead{}, false
	}
	end := h.StartByte + 1 // its line, should no block hold it
	for _, b := range sec.Blocks {
		if b.StartByte <= h.StartByte && h.StartByte < b.EndByte {
			end = b.EndByte
		}
	}
	if h.containerEnd > h.StartByte {
		end = min(end, d.lines.start(h.containerEnd))
	}
	for _, o := range d.Nested[i+1:] { // a later heading of its container at its level or above ends it
		if o.StartByte < end && o.Level <= h.Level && o.container == h.container {
			end = d.lines.start(o.StartByte) // before that line's "> " or indent
			break
		}
	}
	end = trimQuoted(d.Src, h.StartByte, end)
	return NestedRead{Heading: h, Start: h.Line, End: d.Line(max(h.StartByte, end-1)), Section: sec, Others: others}, true
}

// trimQuoted is end moved back over blank lines and lines of quote
// markers alone ("> ") at the end of src[start:end].
func trimQuoted(src []byte, start, end int) int {
	for {
		e := trimRight(src, start, end)
		if q := quoteMarksBefore(src, start, e); q < e {
			end = q
			continue
		}
		return e
	}
}

// nestedIndex is the index in Nested of the heading query names, or -1:
// by id when the query is written as one ("#id", "{#id}") and no section
// has that id; by its text when no section answers to the query strictly
// (as its heading, path or id), the first of those with that text, the
// others' ids returned.
func (d *Document) nestedIndex(query string) (int, []string) {
	ids := d.NestedIDs()
	anchor := idQuery(query)
	if anchor != strings.TrimSpace(query) { // written as an id
		for _, s := range d.Sections {
			if s.Level > 0 && strings.EqualFold(s.ID, anchor) {
				return -1, nil
			}
		}
		for i, id := range ids {
			if strings.EqualFold(id, anchor) {
				return i, nil
			}
		}
		return -1, nil
	}
	q := normalize(query)
	if q == "" {
		return -1, nil
	}
	if _, _, err := d.findIn(query, d.forms(), true); err == nil {
		return -1, nil
	}
	found := -1
	var others []string
	for i, h := range d.Nested {
		switch {
		case normalize(h.Text) != q:
		case found < 0:
			found = i
		default:
			others = append(others, "#"+ids[i])
		}
	}
	return found, others
}

// holdingAt is the section whose own body holds offset at: the last one
// starting at or before it.
func (d *Document) holdingAt(at int) *Section {
	for k := len(d.Sections) - 1; k >= 0; k-- {
		if s := &d.Sections[k]; s.StartByte <= at {
			return s
		}
	}
	return nil
}
