package assets

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// SpecExample is one example of the CommonMark spec, exactly as the
// commonmark-spec npm package's `tests` export gives it: tabs still appear
// as "→", which readers must replace with "\t".
type SpecExample struct {
	Markdown string `json:"markdown"`
	HTML     string `json:"html"`
	Section  string `json:"section"`
	Number   int    `json:"number"`
}

// The same expressions the package's index.js uses, so the examples, their
// numbers and their sections match it one for one.
var (
	specEnd     = regexp.MustCompile("(?m)^<!-- END TESTS -->[\\s\\S]*")
	specExample = regexp.MustCompile("(?m)^`{32} example\\n([\\s\\S]*?)^\\.\\n([\\s\\S]*?)^`{32}$|^#{1,6} *(.*)$")
)

// ParseSpec extracts the examples from the CommonMark spec.txt.
func ParseSpec(spec string) []SpecExample {
	spec = strings.ReplaceAll(spec, "\r\n", "\n")
	spec = strings.ReplaceAll(spec, "\r", "\n")
	spec = specEnd.ReplaceAllString(spec, "")
	var out []SpecExample
	section := ""
	for _, m := range specExample.FindAllStringSubmatchIndex(spec, -1) {
		if m[6] >= 0 { // a heading; spec.txt has no empty one outside examples
			if h := spec[m[6]:m[7]]; h != "" {
				section = h
			}
			continue
		}
		out = append(out, SpecExample{
			Markdown: spec[m[2]:m[3]],
			HTML:     spec[m[4]:m[5]],
			Section:  section,
			Number:   len(out) + 1,
		})
	}
	return out
}

// specTestsJSON turns spec.txt into the tests.json the cache holds.
func specTestsJSON(spec []byte) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ParseSpec(string(spec))); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
