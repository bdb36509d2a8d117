package engine

import (
	"regexp"
	"strings"
)

// wordOperators are Obsidian's search operators that mdsearch reads no
// filter from: line:, block:, section:, content:, the task ones and the
// case ones. Their words are searched as the query's others (a passage is
// one section's text, and every search is of the notes' text), and their
// names, no word of what is asked, are taken out.
var wordOperators = regexp.MustCompile(`(?i)(^|[\s(-])(line|block|section|content|task|task-todo|task-done|match-case|ignore-case):([^\s:])`)

// dropWordOperators takes the names of wordOperators out of query, before
// the operators it reads are taken (takeOperators), and returns them as
// written, each once.
func dropWordOperators(query string) (string, []string) {
	if !strings.Contains(query, ":") {
		return query, nil
	}
	var names []string
	out := wordOperators.ReplaceAllStringFunc(query, func(m string) string {
		sub := wordOperators.FindStringSubmatch(m)
		name := strings.ToLower(sub[2]) + ":"
		if !containsFold(names, name) {
			names = append(names, name)
		}
		return sub[1] + sub[3]
	})
	return out, names
}

func containsFold(list []string, s string) bool {
	for _, l := range list {
		if strings.EqualFold(l, s) {
			return true
		}
	}
	return false
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
