package eval

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mdsearch/mdsearch/store"
)

// queryFieldNames and labelFieldNames are the fields of the format, in the
// order the errors list them.
var (
	queryFieldNames = []string{"query", "relevant", "expected_path_contains", "difficulty", "exclude"}
	labelFieldNames = []string{"path", "section_path", "own"}
)

// meantInLabel and meantInQuery say what a field the format does not have was most likely
// meant to be, where a near spelling would not find it: search's JSON
// names a result's heading path "section", and label fields written on
// the query line belong in a label.
var (
	meantInLabel = map[string]string{"section": sectionPathHint, "heading": sectionPathHint, "headings": sectionPathHint}
	meantInQuery = map[string]string{"path": labelsHint, "section_path": labelsHint, "section": labelsHint}
)

const (
	sectionPathHint = `the label's field is "section_path", the headings from the note's top down to the section: ["Note", "Part"]`
	labelsHint      = `labels go in "relevant": [{"path": "Note.md", "section_path": ["Note", "Part"]}]`
)

// checkFields refuses a field of a query line, or of one of its labels,
// that the format does not have: ignored, a misspelt "section_path" would
// quietly make a section label a note label. A line that is not a JSON
// object passes: parseQuery says what is wrong with it.
func checkFields(raw []byte) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	if err := unknownField("", top, queryFieldNames, meantInQuery); err != nil {
		return err
	}
	var labels []map[string]json.RawMessage
	if json.Unmarshal(top["relevant"], &labels) != nil {
		return nil
	}
	for i, l := range labels {
		if err := unknownField(fmt.Sprintf("relevant[%d].", i), l, labelFieldNames, meantInLabel); err != nil {
			return err
		}
	}
	return nil
}

// unknownField names the first field of obj, by name, that known lacks,
// and what it was likely meant to be.
func unknownField(prefix string, obj map[string]json.RawMessage, known []string, meant map[string]string) error {
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if slices.Contains(known, k) {
			continue
		}
		hint := suggestField(k, known, meant)
		var heading string
		if hint == sectionPathHint && json.Unmarshal(obj[k], &heading) == nil {
			hint = fmt.Sprintf(`the label's field is "section_path", a list: [%q] for a heading alone, else the headings from the note's top down`, heading)
		}
		return fmt.Errorf("unknown field %q: %s", prefix+k, hint)
	}
	return nil
}

// suggestField is the hint for unknown field k: what it was meant to be,
// else a known field one or two edits away, else the fields there are.
func suggestField(k string, known []string, meant map[string]string) string {
	if m, ok := meant[strings.ToLower(k)]; ok {
		return m
	}
	for _, f := range known {
		if store.EditDistance([]rune(strings.ToLower(k)), []rune(f), 2) <= 2 {
			return fmt.Sprintf("did you mean %q?", f)
		}
	}
	return "the fields are " + strings.Join(known, ", ")
}
