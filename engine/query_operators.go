package engine

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// operators are the filters of Obsidian's search syntax a query may hold:
// tag:NAME (or tag:#NAME), path:TEXT (the note's path holds it),
// file:TEXT (its file name does) and [property:value] (a --where
// condition; propertyOperator). A value with spaces is quoted:
// path:"Daily notes" (or in the other quotes matchTerms takes); a quote
// left open runs to the end of the query, as in Obsidian. Text in quotes
// is left as it is, and so is an operator with no value ("tag:" alone is
// a word).
type operators struct {
	tags, paths, files []string
	props              [][2]string // [property:value]: name, value
	// The same, negated (-tag:, -path:, -file:, -[property:value]): the
	// notes they name are left out.
	notTags, notPaths, notFiles []string
	notProps                    [][2]string
	asText                      []string    // [name:value] read as words: no note has the property (known)
	first                       string      // the first operator, as written, for messages
	written                     []string    // every operator, as written
	grouped                     bool        // parentheses or OR around operators, which filter as if absent (ungroup)
	asWords                     []string    // Obsidian's operators read as words (line:, section:, …: dropWordOperators)
	without                     []exclusion // -word, -"a phrase": what no result holds (takeExclusions)
	tasks                       []task      // task:, task-todo:, task-done: what task each result holds (mustTask)
	notTasks                    []task      // -task:, -task-todo:, -task-done: what task no result holds (mustNotTask)
	frame                       string      // the request that opened the query, taken off ("list notes about": requestFrame)
}

// operatorNames are the operators, lower case, with their colon.
var operatorNames = []string{"tag:", "path:", "file:"}

// takeOperators takes the operators out of a query typed as in Obsidian's
// search, and returns the rest: the words to look for. A [name:value]
// whose name known says no note has is left as words ("[WARNING:root]" of
// a pasted log line); a nil known takes every one.
func takeOperators(query string, known func(name string) bool) (string, operators) {
	var ops operators
	lower := strings.ToLower(query)
	if !strings.Contains(query, "[") && !slices.ContainsFunc(operatorNames, func(n string) bool { return strings.Contains(lower, n) }) {
		return query, ops
	}
	fields, grouped := ungroup(strings.Fields(quotes.Replace(query)))
	ops.grouped = grouped
	var kept []string
	quoted := false
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if !quoted {
			at, neg := fields, len(f) > 1 && f[0] == '-'
			if neg { // -tag:x leaves out what tag:x keeps
				at = slices.Clone(fields)
				at[i] = f[1:]
			}
			if name, val, next, ok := operator(at, i); ok {
				written := strings.Join(fields[i:next+1], " ")
				if strings.Count(written, `"`) == 1 {
					written += `"` // closed where the query ended: a suggestion led by it reads the same
				}
				ops.add(name, val, written, neg)
				i = next
				continue
			}
			if name, val, next, ok := propertyOperator(at, i); ok {
				written := strings.Join(fields[i:next+1], " ")
				if known == nil || known(name) {
					ops.add("["+name, val, written, neg)
					i = next
					continue
				}
				ops.asText = append(ops.asText, written)
			}
		}
		// A quote opens a phrase only where another closes it: alone, it
		// is punctuation (27" monitor), as matchTerms reads it.
		if strings.Count(f, `"`)%2 == 1 && (quoted || closedLater(fields[i+1:])) {
			quoted = !quoted
		}
		kept = append(kept, f)
	}
	if ops.first == "" {
		return query, ops
	}
	return strings.Join(kept, " "), ops
}

// ungroup reads Obsidian's grouping of operators, which this search does
// not: every filter must match. Parentheses taken off operators, each ")"
// closing one "(" taken, and an OR between two operators are dropped, so
// "tag:x (path:a OR path:b)" filters on all three rather than on a path
// holding "b)" with "(path:a OR" as words. A negated group of operators
// joined by OR, -(tag:a OR tag:b), is each one negated, which means the
// same; any other negated group is left as written. Words, and quoted
// phrases, keep their parentheses and OR. grouped reports any grouping,
// for a notice.
func ungroup(fields []string) (out []string, grouped bool) {
	out = make([]string, 0, len(fields))
	open, quoted := 0, false
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if !quoted && strings.HasPrefix(f, "-(") && isOperator(strings.TrimLeft(f[1:], "(")) {
			grouped = true
			if neg, next, ok := negatedGroup(fields, i); ok {
				out, i = append(out, neg...), next
				continue
			}
		}
		closes := quoted && strings.Count(f, `"`)%2 == 1 // the last word of a quoted value: a ")" after it is outside
		if !quoted {
			if g := strings.TrimLeft(f, "("); g != f && isOperator(g) {
				open += len(f) - len(g)
				f, grouped = g, true
			}
		}
		if g := strings.TrimRight(f, ")"); g != f && open > 0 && (!quoted || closes) {
			n := min(open, len(f)-len(g))
			if h := f[:len(f)-n]; isOperator(h) || closes && strings.HasSuffix(h, `"`) {
				open, f = open-n, h
			}
		}
		if !quoted {
			if f == "OR" && len(out) > 0 && isOperator(out[len(out)-1]) && i+1 < len(fields) && isOperator(strings.TrimLeft(fields[i+1], "(")) {
				grouped = true
				continue
			}
		}
		if strings.Count(f, `"`)%2 == 1 && (quoted || closedLater(fields[i+1:])) {
			quoted = !quoted
		}
		out = append(out, f)
	}
	return out, grouped
}

// negatedGroup reads -(op OR op …) at fields[i] as each operator negated
// (not a and not b: what not (a or b) means), returning them and the
// index of the group's last field; ok is false for any other group.
func negatedGroup(fields []string, i int) (neg []string, last int, ok bool) {
	for j := i; j < len(fields); j++ {
		f := fields[j]
		if j == i {
			f = f[2:]
		}
		end := strings.HasSuffix(f, ")")
		f = strings.TrimSuffix(f, ")")
		switch {
		case (j-i)%2 == 1 && f == "OR" && !end:
		case (j-i)%2 == 0 && isOperator(f) && !strings.HasPrefix(f, "-"):
			neg = append(neg, "-"+f)
		default:
			return nil, 0, false
		}
		if end {
			return neg, j, (j-i)%2 == 0
		}
	}
	return nil, 0, false
}

// isOperator reports whether a field is an operator whole, negated or
// not: tag:, path:, file: with a value, or a [property:value], so that
// taking parentheses off it leaves one the query's reading takes.
func isOperator(f string) bool {
	one := []string{strings.TrimPrefix(f, "-")}
	if _, _, _, ok := operator(one, 0); ok {
		return true
	}
	_, _, _, ok := propertyOperator(one, 0)
	return ok
}

// groupedNotice says that grouping filtered nothing, or is "".
func (o operators) groupedNotice() string {
	if !o.grouped || len(o.written) == 0 {
		return ""
	}
	return "OR and parentheses do not group filters here: every filter must match (" + strings.Join(o.written, ", ") + ")"
}

// operator reads an operator at fields[i]: its name, its value and the
// index of its last field (a quoted value may run over several, and an
// unclosed one over the rest).
func operator(fields []string, i int) (name, val string, last int, ok bool) {
	f := fields[i]
	for _, n := range operatorNames {
		if len(f) > len(n) && strings.EqualFold(f[:len(n)], n) {
			name, val = n[:len(n)-1], f[len(n):]
			break
		}
	}
	if name == "" {
		return "", "", 0, false
	}
	last = i
	if strings.HasPrefix(val, `"`) {
		for !closedQuote(val) && last+1 < len(fields) {
			last++
			val += " " + fields[last]
		}
		if !closedQuote(val) {
			if strings.Count(val, `"`) != 1 {
				return "", "", 0, false // quotes that close elsewhere (file:"a"b): no one value
			}
			val += `"`
		}
		val = val[1 : len(val)-1]
	}
	if name == "tag" {
		val = strings.TrimLeft(val, "#")
	}
	if strings.TrimSpace(val) == "" || strings.Contains(val, `"`) {
		return "", "", 0, false
	}
	return name, val, last, true
}

// unreadOperators are the byte ranges of the fields of query, outside
// quoted phrases, that start as an operator with a value does: in a query
// takeOperators has read, the ones it could not (file:a"b, path:""),
// which a suggestion leaves as typed.
func unreadOperators(query string) [][2]int {
	var spans [][2]int
	quoted := false
	for i := 0; i < len(query); {
		start := i + strings.IndexFunc(query[i:], func(r rune) bool { return !unicode.IsSpace(r) })
		if start < i {
			break // only spaces left
		}
		end := len(query)
		if j := strings.IndexFunc(query[start:], unicode.IsSpace); j >= 0 {
			end = start + j
		}
		f := query[start:end]
		g := strings.TrimPrefix(f, "-") // -tag:x, negated
		if !quoted && slices.ContainsFunc(operatorNames, func(n string) bool { return len(g) > len(n) && strings.EqualFold(g[:len(n)], n) }) {
			spans = append(spans, [2]int{start, end})
		} else if strings.Count(quotes.Replace(f), `"`)%2 == 1 && (quoted || strings.ContainsFunc(query[end:], isQuote)) {
			quoted = !quoted // as takeOperators reads phrases
		}
		i = end
	}
	return spans
}

// closedLater reports whether a quote is in any of fields.
func closedLater(fields []string) bool {
	return slices.ContainsFunc(fields, func(f string) bool { return strings.Contains(f, `"`) })
}

// closedQuote reports whether v is one quoted value: "…".
func closedQuote(v string) bool {
	return len(v) >= 2 && strings.HasSuffix(v, `"`) && strings.Count(v, `"`) == 2
}

// add records an operator; neg, written with a leading "-", among those
// that leave notes out.
func (o *operators) add(name, val, written string, neg bool) {
	if o.first == "" {
		o.first = written
	}
	o.written = append(o.written, written)
	tags, paths, files, props := &o.tags, &o.paths, &o.files, &o.props
	if neg {
		tags, paths, files, props = &o.notTags, &o.notPaths, &o.notFiles, &o.notProps
	}
	switch name {
	case "tag":
		*tags = append(*tags, val)
	case "path":
		*paths = append(*paths, strings.TrimLeft(strings.TrimPrefix(val, "./"), "/"))
	case "file":
		*files = append(*files, val)
	default: // "[name"
		*props = append(*props, [2]string{name[1:], val})
	}
}

// apply adds the path and file operators, and the negated ones, to a
// filter (tags and properties go through the request's Tags and Where,
// as their flags do).
func (o operators) apply(f *store.Filter) {
	f.PathHas = append(f.PathHas, o.paths...)
	f.FileHas = append(f.FileHas, o.files...)
	f.NotPathHas = append(f.NotPathHas, o.notPaths...)
	f.NotFileHas = append(f.NotFileHas, o.notFiles...)
	f.NotTags = append(f.NotTags, o.notTags...)
	f.NotFields = append(f.NotFields, o.notProps...)
}

// describe names the path and file operators, for notices.
func (o operators) describe() []string {
	var out []string
	for _, p := range o.paths {
		out = append(out, "path has "+strconv.Quote(p))
	}
	for _, f := range o.files {
		out = append(out, "file name has "+strconv.Quote(f))
	}
	for _, p := range o.notPaths {
		out = append(out, "path lacks "+strconv.Quote(p))
	}
	for _, f := range o.notFiles {
		out = append(out, "file name lacks "+strconv.Quote(f))
	}
	for _, t := range o.notTags {
		out = append(out, "not tagged "+strconv.Quote(t))
	}
	for _, p := range o.notProps {
		if period, ok := mdsearch.PeriodOf(p[1]); ok {
			out = append(out, p[0]+" is not "+period)
		} else if mdsearch.IsComparison(p[1]) {
			out = append(out, "not "+mdsearch.ConditionText(p[0], p[1]))
		} else {
			out = append(out, p[0]+" is not "+strconv.Quote(p[1]))
		}
	}
	for _, x := range o.without {
		out = append(out, x.written) // -plugin
	}
	for _, t := range o.notTasks {
		out = append(out, strconv.Quote("-"+t.written)) // "-task-todo:call"
	}
	return out
}
