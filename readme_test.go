package mdsearch

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README's tables of a search answer's fields name each field the
// JSON holds, and say which are always there ("always") and which only
// when they apply (the fields tagged omitempty), so a client reads what
// it may meet.
func TestReadmeAnswerFields(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "### One answer everywhere")
	if start < 0 {
		t.Fatal("README has no section One answer everywhere")
	}
	text = text[start:]
	if end := strings.Index(text[4:], "\n### "); end >= 0 {
		text = text[:end+4]
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (always|when|with)[^|]*\\|")
	documented := map[string]bool{} // field: always there
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		if _, dup := documented[m[1]]; dup {
			t.Errorf("README names %s twice", m[1])
		}
		documented[m[1]] = m[2] == "always"
	}
	want := map[string]bool{}
	for _, typ := range []reflect.Type{reflect.TypeFor[SearchResponse](), reflect.TypeFor[Result]()} {
		for f := range typ.Fields() {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			want[name] = !slices.Contains(strings.Split(opts, ","), "omitempty")
		}
	}
	for name, always := range want {
		got, ok := documented[name]
		switch {
		case !ok:
			t.Errorf("README's answer tables lack %s", name)
		case got != always:
			t.Errorf("README says %s is there %s; the JSON has it %s", name, there(got), there(always))
		}
	}
	for name := range documented {
		if _, ok := want[name]; !ok {
			t.Errorf("README names %s, which no answer holds", name)
		}
	}
}

func there(always bool) string {
	if always {
		return "always"
	}
	return "only when it applies"
}

// The README's stdio config for MCP clients says when to add --text-only,
// as the Claude Code example does.
func TestReadmeMCPConfigTextOnly(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), `"mcpServers"`)
	if !ok {
		t.Fatal("README has no stdio config for MCP clients")
	}
	if next, _, _ := strings.Cut(after, "\n### "); !strings.Contains(next, "--text-only") {
		t.Error("README's stdio config for MCP clients does not say when to add --text-only")
	}
}
