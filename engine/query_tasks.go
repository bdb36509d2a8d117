package engine

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch/store"
)

// task is one of Obsidian's task operators a query holds: task:call,
// task-todo:(call plumber), task-done:"sent the invoice". Its words are
// searched as the query's others, and every result holds a task of its
// kind (a list item with a box: "- [ ] call the plumber") whose text
// holds each of them, as written or in a longer form (mustTask).
type task struct {
	kind    string   // task, task-todo or task-done
	words   []string // its words, folded as the index folds them, accents set aside
	written string   // as typed, for notices
}

// taskOperator reads a task operator whose value starts at query[at],
// past the colon of name: a word, a quoted phrase or a group in
// parentheses. ok is false where it holds no word, or joins words with
// OR, which one task of a kind cannot hold all of: such an operator's
// words are searched, and it filters nothing, as before.
func taskOperator(query, name string, at int) (_ task, ok bool) {
	end := strings.IndexFunc(query[at:], isSpaceRune)
	switch query[at] {
	case '(':
		end = closingParen(query[at:])
	case '"':
		end = strings.IndexByte(query[at+1:], '"') + 2
	}
	if end <= 0 {
		end = len(query) - at
	}
	value := query[at : at+end]
	if strings.Contains(value, " OR ") {
		return task{}, false
	}
	words := tokens(store.KeywordFold(strings.Trim(value, `()"`)))
	if len(words) == 0 {
		return task{}, false
	}
	return task{kind: name, words: unaccented(words), written: name + ":" + value}, true
}

func isSpaceRune(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }

// closingParen is the length of text up to and with the ")" that closes
// the "(" it starts with, or 0 where none does.
func closingParen(text string) int {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// taskLine is a task as Markdown writes one: a list item (in a quote or
// not) whose text opens with a box, [ ] open, any other mark done
// ([x], [-], [/] …), then a space.
var taskLine = regexp.MustCompile(`^[ \t]*(?:>[ \t]?)*(?:[-*+]|\d{1,9}[.)])[ \t]+\[([^\]])\](?:[ \t]+(.*))?$`)

// heldIn reports whether text holds a task of t's kind whose text holds
// each of t's words, each a word of the task or the start of one.
func (t task) heldIn(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.Contains(line, "] ") && !strings.HasSuffix(strings.TrimRight(line, "\r"), "]") {
			continue // no box: most lines, which the pattern need not read
		}
		m := taskLine.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil || t.kind == "task-todo" && m[1] != " " || t.kind == "task-done" && m[1] == " " {
			continue
		}
		toks := unaccented(tokens(store.KeywordFold(m[2])))
		if !slices.ContainsFunc(t.words, func(w string) bool {
			return !slices.ContainsFunc(toks, func(tok string) bool { return strings.HasPrefix(tok, w) })
		}) {
			return true
		}
	}
	return false
}

// mustTask keeps the results of q to the passages that hold a task of
// each of its task operators' kind with their words (q.tasks): the
// passages in scope holding all their words, whose text holds a box, are
// read (store.Reader.Boxed) and each task line checked. They are then
// held as quoted phrases are (q.must, q.holding), so the keyword list is
// read to the last of them, and results are only theirs; with quoted
// phrases too, a result holds both. The candidates left are ranked and
// scored among themselves (taskedOnly). It returns a notice where none
// holds such a task.
func (q *query) mustTask(ctx context.Context, rd *store.Reader) (string, error) {
	if len(q.tasks) == 0 {
		return "", nil
	}
	var words []string
	for _, t := range q.tasks {
		for _, w := range t.words {
			if p := phraseOf([]string{w}) + "*"; !slices.Contains(words, p) {
				words = append(words, p)
			}
		}
	}
	all := "(" + strings.Join(words, " AND ") + ")"
	texts, err := rd.Boxed(ctx, all, q.filter)
	if err != nil {
		return "", err
	}
	held := map[int64]bool{}
	for id, text := range texts {
		if !slices.ContainsFunc(q.tasks, func(t task) bool { return !t.heldIn(text) }) {
			held[id] = true
		}
	}
	if len(q.must) > 0 {
		for i, p := range q.must {
			q.must[i] = "(" + p + " AND " + all + ")"
		}
		maps.DeleteFunc(held, func(id int64, _ bool) bool { return !q.holding[id] })
	} else {
		q.must = []string{all}
	}
	q.holding = held
	if len(held) > 0 {
		return "", nil
	}
	named := make([]string, len(q.tasks))
	for i, t := range q.tasks {
		named[i] = strconv.Quote(t.written)
	}
	return "no passage holds a task that " + strings.Join(named, " and ") + " asks for", nil
}

// taskedOnly keeps the candidates that hold q's tasks (mustTask), before
// the second stage ranks and scores them, as a filter's are: a task
// operator names what to search among, and a task list scored beside
// the prose that mentions its words more often scored under 1 %.
func (q *query) taskedOnly(cands []candidate) []candidate {
	if len(q.tasks) == 0 {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { return !q.holding[c.id] })
}
