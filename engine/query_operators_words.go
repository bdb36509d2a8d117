package engine

import (
	"regexp"
	"slices"
	"strings"
)

// wordOperators are Obsidian's search operators whose words are searched
// as the query's others, their names, no word of what is asked, taken
// out: line:, block:, section:, content: and the case ones, which filter
// nothing (a passage is one section's text, and every search is of the
// notes' text), and the task ones, which keep the results to the
// passages holding such a task (mustTask). Only a task operator may be
// given nothing (task-todo: alone, for any open task; anyTask): another's
// name before a space or a colon is words.
var wordOperators = regexp.MustCompile(`(?i)(^-?|[\s(]-?)(line|block|section|content|task|task-todo|task-done|match-case|ignore-case):([^\s:]?)`)

// dropWordOperators takes the names of wordOperators out of query, before
// the operators it reads are taken (takeOperators), and returns those
// that filter nothing as written, each once, and the task operators,
// which keep results to the passages holding such a task (mustTask). One
// nested in another's parentheses, line:(section:x), is taken on a second
// pass.
func dropWordOperators(query string) (string, []string, []task) {
	var names []string
	var tasks []task
	for range 3 {
		out, found, more := dropWordOperatorsOnce(query, names)
		if out == query {
			break
		}
		query, names, tasks = out, found, append(tasks, more...)
	}
	return query, names, tasks
}

// dropWordOperatorsOnce is one pass of dropWordOperators, adding the
// names it takes to names and returning the task operators it reads.
func dropWordOperatorsOnce(query string, names []string) (string, []string, []task) {
	if !strings.Contains(query, ":") {
		return query, names, nil
	}
	var tasks []task
	var b strings.Builder
	at := 0
	for _, m := range wordOperators.FindAllStringSubmatchIndex(query, -1) {
		if quoted(query[:m[0]]) {
			continue // a phrase's words, or a path: value, are as written
		}
		name := strings.ToLower(query[m[4]:m[5]]) + ":"
		if m[6] == m[7] && m[7] < len(query) && !isSpaceRune(rune(query[m[7]])) {
			continue // "task::x": words
		}
		// Negated before a word or a phrase, -content:plugin is an
		// exclusion of it (takeExclusions), which is what it means: the
		// query without the name holds one at its "-".
		excludes, negated := false, strings.HasSuffix(query[m[2]:m[3]], "-")
		if neg := m[3] - 1; neg >= 0 && !isStatement(query) {
			_, _, excludes = exclusionAt(query[:m[3]]+query[m[5]+1:], neg)
		}
		t, filters := task{}, false
		// A statement's "-" is its own, as for -word (the colon of a
		// task operator given nothing, "-task-todo:", ends no statement).
		if strings.HasPrefix(name, "task") && !(negated && isStatement(query[:m[3]]+query[m[5]+1:])) {
			t, filters = taskOperator(query, name[:len(name)-1], m[5]+1)
			t.negated = negated
		}
		if (m[6] == m[7] || filters && len(t.words) == 0) && !(filters && anyTask(query, m)) {
			continue // given nothing, and no task operator: "section: x", "My task: write", "-Task-todo:"
		}
		switch {
		case filters:
			tasks = append(tasks, t)
		case !excludes && !slices.Contains(names, name): // names are in lower case
			names = append(names, name)
		}
		if filters && t.negated { // -task-todo:call: neither it, its "-" nor its words stay
			end := m[5] + 1 + len(t.written) - len(name)
			// Nor one space beside it: the one before it ("plumber
			// -task:call soon" is "plumber soon", "leak -task:leak" is
			// "leak"), else those after it ("-task:call plumber").
			if lead := query[m[2] : m[3]-1]; lead != "" && strings.TrimSpace(lead) == "" {
				b.WriteString(query[at:m[2]])
			} else {
				b.WriteString(query[at : m[3]-1]) // "(" kept
				end += len(query[end:]) - len(strings.TrimLeft(query[end:], " \t\n"))
			}
			at = end
			continue
		}
		b.WriteString(query[at:m[3]]) // up to the name, its "-" kept
		at = m[5] + 1                 // past its colon
		if filters && len(t.words) == 0 {
			at += len(t.written) - len(name) // task-todo:"" holds no phrase
		}
	}
	b.WriteString(query[at:])
	return b.String(), names, tasks
}

// anyTask reports whether the task operator of match m, given nothing
// (task-todo:, task-done:"", task:()), asks for any task of its kind: it
// is written in lower case, as Obsidian's operators are, and, the name
// plain "task:" being prose's too ("My task: write the report", "what is
// my next task:"), task: is one only where every other word of the query
// is an operator (holds a colon).
func anyTask(query string, m []int) bool {
	written := query[m[4]:m[5]]
	if written != strings.ToLower(written) {
		return false
	}
	if written != "task" {
		return true
	}
	return !slices.ContainsFunc(strings.Fields(query), func(f string) bool {
		return !strings.Contains(f, ":") && strings.Trim(f, `()"`) != ""
	})
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
