package sections

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// yamlLine is how yaml.v3 names a line of the text it was given.
var yamlLine = regexp.MustCompile(`\bline (\d+)\b`)

// fileLines renumbers the lines a YAML error names as lines of the note:
// the frontmatter starts after the opening "---" line.
func fileLines(msg string) string {
	return yamlLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, err := strconv.Atoi(m[len("line "):])
		if err != nil {
			return m
		}
		return "line " + strconv.Itoa(n+1)
	})
}

// yamlError words a YAML error with the line of the note it is on.
// yaml.v3 numbers some errors' lines from 0 and others from 1, so its
// number n means line n or n+1 of the YAML: the first of the two at which
// the YAML read so far is already bad is the one (an unclosed "[" is bad
// where it opens). Lines the message names are renumbered as the note's.
func yamlError(text []byte, err error) string {
	msg := strings.TrimPrefix(fileLines(err.Error()), "yaml: ")
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return msg
	}
	n, _ := strconv.Atoi(m[1])
	lines := bytes.SplitAfter(text, []byte("\n"))
	if n < len(lines) && readsWell(bytes.Join(lines[:n], nil)) {
		// Its first n lines read well: n counted from 0, the error is on n+1.
		return strings.Replace(msg, "line "+strconv.Itoa(n+1), "line "+strconv.Itoa(n+2), 1)
	}
	return msg
}

// readsWell reports whether text is YAML that parses and decodes, or
// parses and is over the bounds of a decode.
func readsWell(text []byte) bool {
	_, _, err := decodeYAML(text)
	return err == nil || errors.As(err, new(yamlCost))
}

// parseFrontmatter decodes YAML, or TOML, into a JSON-safe map. Bad
// frontmatter, YAML too costly to decode (yamlCost), or YAML that is not
// a mapping, gives a nil map and a warning.
// YAML's mapping node comes too, its scalars as written (PropertyText).
func parseFrontmatter(text []byte, isTOML bool) (map[string]any, *yaml.Node, string) {
	if isTOML {
		m, warning := parseTOML(text)
		return m, nil, warning
	}
	v, node, err := decodeYAML(text)
	if cost := (yamlCost{}); errors.As(err, &cost) {
		return nil, nil, cost.Error()
	}
	if err != nil {
		return nil, nil, fmt.Sprintf("frontmatter is not valid YAML, ignored: %s", yamlError(text, err))
	}
	if v == nil {
		return nil, nil, ""
	}
	m, ok := jsonSafe(v).(map[string]any)
	if !ok {
		return nil, nil, "frontmatter is " + yamlKind(v) + ", not a mapping of fields (key: value lines); ignored"
	}
	return m, node.Content[0], ""
}

// yamlFields reports whether text is YAML of fields (key: value lines) or
// of nothing at all. YAML too costly to decode is not, as YAML that does
// not parse is not.
func yamlFields(text []byte) bool {
	v, _, err := decodeYAML(text)
	if err != nil {
		return false
	}
	switch v.(type) {
	case nil, map[string]any, map[any]any:
		return true
	}
	return false
}

// keepLeadingZeros makes a plain number written with a leading zero
// (zip: 01234, id: 007) text as written: YAML 1.1 reads it as octal (668),
// which no note means by a ZIP code or an ID.
func keepLeadingZeros(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" && n.Style == 0 {
		digits := strings.TrimLeft(n.Value, "+-")
		if len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9' {
			n.Tag = "!!str"
		}
	}
	for _, c := range n.Content {
		keepLeadingZeros(c)
	}
}

// yamlKind names what a YAML document decoded to, for a warning.
func yamlKind(v any) string {
	switch v.(type) {
	case []any:
		return "a YAML list"
	case string:
		return "plain text"
	case bool:
		return "a YAML boolean"
	case int, int64, uint64, float64:
		return "a YAML number"
	}
	return "a YAML value"
}

// parseTOML decodes TOML frontmatter (Hugo's "+++" block).
func parseTOML(text []byte) (map[string]any, string) {
	var m map[string]any
	if err := toml.Unmarshal(text, &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			// +1: the opening "+++" line.
			return nil, fmt.Sprintf("frontmatter is not valid TOML, ignored: line %d: %s", pe.Position.Line+1, pe.Message)
		}
		return nil, fmt.Sprintf("frontmatter is not valid TOML, ignored: %v", err)
	}
	return jsonSafe(m).(map[string]any), ""
}

// jsonSafe rewrites what yaml.v3 and the TOML decoder give into values
// encoding/json accepts, as YAML's would be: maps with non-string keys,
// timestamps (TOML's local ones too), TOML's int64s, and non-finite floats.
func jsonSafe(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonSafe(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonSafe(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonSafe(e)
		}
		return x
	case []map[string]any: // TOML's array of tables ([[runs]])
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonSafe(e)
		}
		return out
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format(time.DateOnly)
		}
		return x.Format(time.RFC3339Nano)
	case int64:
		return int(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
	}
	return v
}

// frontmatterTags reads the tags/tag key: a list, or a string of tags
// separated by commas or spaces. A leading '#' is dropped. Lists inside
// the list are read as one list; a map is no tag, and is skipped with a
// warning naming the field (printed as text it would be "map[a:b]").
func frontmatterTags(fm map[string]any, warn func(string)) []string {
	var tags []string
	keys := make([]string, 0, 2)
	for k := range fm {
		if l := strings.ToLower(k); l == "tags" || l == "tag" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys) // "Tag" < "Tags" < "tag" < "tags": a stable order
	for _, k := range keys {
		var maps int
		tags = appendTags(tags, fm[k], &maps)
		switch {
		case maps == 1:
			warn(fmt.Sprintf("frontmatter field %q holds a map, not a tag: skipped", k))
		case maps > 1:
			warn(fmt.Sprintf("frontmatter field %q holds %d maps, not tags: skipped", k, maps))
		}
	}
	return tags
}

// appendTags appends the tags of one value of a tags field, counting the
// maps it skips.
func appendTags(tags []string, v any, maps *int) []string {
	switch x := v.(type) {
	case nil:
	case []any:
		for _, it := range x {
			tags = appendTags(tags, it, maps)
		}
	case map[string]any:
		*maps++
	default:
		for _, t := range strings.FieldsFunc(fmt.Sprint(x), func(r rune) bool {
			return r == ',' || r == ' ' || r == '\t' || r == '\n'
		}) {
			if t = strings.TrimLeft(t, "#"); t != "" {
				tags = append(tags, t)
			}
		}
	}
	return tags
}

// frontmatterTitle is the title key as text, or "".
func frontmatterTitle(fm map[string]any) string {
	v, ok := fm["title"]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return strings.Join(strings.Fields(s), " ")
	}
	switch v.(type) {
	case map[string]any, []any:
		return ""
	}
	return fmt.Sprint(v)
}
