package engine

import (
	"regexp"
	"slices"
	"strings"
)

// wordOperators are Obsidian's search operators that mdsearch reads no
// filter from: line:, block:, section:, content:, the task ones and the
// case ones. Their words are searched as the query's others (a passage is
// one section's text, and every search is of the notes' text), and their
// names, no word of what is asked, are taken out.
var wordOperators = regexp.MustCompile(`(?i)(^-?|[\s(]-?)(line|block|section|content|task|task-todo|task-done|match-case|ignore-case):([^\s:])`)

// dropWordOperators takes the names of wordOperators out of query, before
// the operators it reads are taken (takeOperators), and returns them as
// written, each once. One nested in another's parentheses,
// line:(section:x), is taken on a second pass.
func dropWordOperators(query string) (string, []string) {
	var names []string
	for range 3 {
		out, found := dropWordOperatorsOnce(query, names)
		if out == query {
			break
		}
		query, names = out, found
	}
	return query, names
}

// dropWordOperatorsOnce is one pass of dropWordOperators, adding the
// names it takes to names.
func dropWordOperatorsOnce(query string, names []string) (string, []string) {
	if !strings.Contains(query, ":") {
		return query, names
	}
	var b strings.Builder
	at := 0
	for _, m := range wordOperators.FindAllStringSubmatchIndex(query, -1) {
		if quoted(query[:m[0]]) {
			continue // a phrase's words, or a path: value, are as written
		}
		name := strings.ToLower(query[m[4]:m[5]]) + ":"
		// Negated before a word or a phrase, -content:plugin is an
		// exclusion of it (takeExclusions), which is what it means: the
		// query without the name holds one at its "-".
		excludes := false
		if neg := m[3] - 1; neg >= 0 && !isStatement(query) {
			_, _, excludes = exclusionAt(query[:m[3]]+query[m[5]+1:], neg)
		}
		if !excludes && !slices.Contains(names, name) { // names are in lower case
			names = append(names, name)
		}
		b.WriteString(query[at:m[3]]) // up to the name, its "-" kept
		at = m[5] + 1                 // past its colon
	}
	b.WriteString(query[at:])
	return b.String(), names
}

// quoted reports whether text ends inside a quotation (a quote mark of
// any kind opened and not closed).
func quoted(text string) bool {
	return strings.Count(quotes.Replace(text), `"`)%2 == 1
}

// wordsNotice says which of Obsidian's operators were read as words, or
// is "".
func (o operators) wordsNotice() string {
	switch len(o.asWords) {
	case 0:
		return ""
	case 1:
		return "Obsidian's " + o.asWords[0] + " operator filters nothing here: its words were searched as the query's others"
	}
	last := len(o.asWords) - 1
	return "Obsidian's " + strings.Join(o.asWords[:last], ", ") + " and " + o.asWords[last] + " operators filter nothing here: their words were searched as the query's others"
}
