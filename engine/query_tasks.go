package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch/sections"
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
	// negated is set for -task-todo:call: no result holds such a task
	// (mustNotTask), and its words are no words of the query.
	negated bool
}

// taskOperator reads a task operator whose value starts at query[at],
// past the colon of name: a word, a quoted phrase or a group in
// parentheses, or nothing (task-todo:, task-todo:""), which any task of its
// kind holds. ok is false where it is left open, joins
// words with OR (which one task cannot hold all of) or holds another
// operator: such an operator's words are searched, and it filters
// nothing. A word with a "-" in a group is the query's exclusion, no
// word the task must hold.
func taskOperator(query, name string, at int) (_ task, ok bool) {
	if at == len(query) || isSpaceRune(rune(query[at])) {
		return task{kind: name, written: name + ":"}, true // task-todo: alone: any open task
	}
	var value string
	switch query[at] {
	case '(':
		value = query[at : at+closingParen(query[at:])] // "" where none closes it
	case '"':
		if end := strings.IndexByte(query[at+1:], '"'); end >= 0 {
			value = query[at : at+end+2]
		}
	default:
		value = query[at:]
		if end := strings.IndexFunc(value, isSpaceRune); end >= 0 {
			value = value[:end]
		}
		value = strings.TrimRight(value, ")") // (task-todo:call)
		if value == "" {
			return task{kind: name, written: name + ":"}, true // (task-todo:): any open task
		}
	}
	inside := strings.Trim(value, `()"`)
	if value == `""` || value == "()" {
		return task{kind: name, written: name + ":" + value}, true // as nothing: any task
	}
	if inside == "" || value[0] != '"' && (strings.Contains(value, " OR ") || strings.Contains(value, ":")) {
		return task{}, false // either of two words, or another operator: no one task
	}
	var words []string
	for _, f := range strings.Fields(inside) {
		if !strings.HasPrefix(f, "-") || value[0] == '"' { // -boiler is the query's exclusion
			words = append(words, writtenWords(f)...)
		}
	}
	if len(words) == 0 {
		return task{}, false
	}
	return task{kind: name, words: words, written: name + ":" + value}, true
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

// heldIn reports whether text holds a task of t's kind (a list item
// with a box: store.TaskLine) whose text holds each of t's words, each
// a word of the task or the start of one. A line in fenced code is no
// task.
func (t task) heldIn(text string) bool {
	var fences sections.Fences
	for rest := text; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		if !fences.Line([]byte(line)) && t.at(line, after) {
			return true
		}
		rest = after
	}
	return false
}

// at reports whether line, followed by the text after, opens a task of
// t's kind whose text (taskAt: its continuation lines too) holds its
// words.
func (t task) at(line, after string) bool {
	mark, body, ok := taskAt(line, after)
	if !ok || t.kind == "task-todo" && mark != ' ' || t.kind == "task-done" && mark == ' ' {
		return false
	}
	toks := writtenWords(body)
	return !slices.ContainsFunc(t.words, func(w string) bool { return !startsRun(toks, []string{w}) })
}

// taskAt reads line as a task (store.TaskLine), its text with the lines
// of after that continue it: those next to it, with no blank line
// between, that open no block of their own, under as many quote markers
// as the task's line. A task wrapped over two lines ("- [ ] call the"
// and "  plumber about the leak") is one task, as a note shows it.
func taskAt(line, after string) (mark byte, text string, ok bool) {
	mark, text, ok = store.TaskLine(line)
	if !ok {
		return 0, "", false
	}
	depth, _ := unquoted(line)
	for after != "" {
		l, next, _ := strings.Cut(after, "\n")
		d, rest := unquoted(l)
		if rest = strings.TrimSpace(rest); d != depth || rest == "" || opensBlock(rest) {
			break
		}
		text, after = text+" "+rest, next
	}
	return mark, text, true
}

// unquoted is how many quote markers (">") open line, and the line after
// them.
func unquoted(line string) (depth int, rest string) {
	rest = line
	for {
		t := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(t, ">") {
			return depth, rest
		}
		depth, rest = depth+1, t[1:]
	}
}

// mustTask keeps the results of q to the passages that hold a task of
// each of its task operators' kind with their words (q.tasks): the
// passages in scope holding all their words, whose text holds a box, are
// read (store.Reader.Boxed) and each task line checked. They are then
// held as quoted phrases' passages are (q.holding), so the keyword list
// is read to the last of the passages holding their words that are the
// query's terms (taskTerms, store.Reader.KeywordAll, each term named
// once so that bm25 is the list's), and results are only theirs; with
// quoted phrases too, a result holds both. The candidates left are ranked and
// scored among themselves (taskedOnly). It returns a notice where none
// holds such a task, the only one such a search gives.
func (q *query) mustTask(ctx context.Context, rd *store.Reader) (string, error) {
	if len(q.tasks) == 0 {
		return "", nil
	}
	boxed, err := q.boxed(ctx, rd, store.Unordered)
	if err != nil {
		return "", err
	}
	held := map[int64]bool{}
	for _, b := range boxed {
		held[b.ChunkID] = true
	}
	if q.holding != nil { // quoted phrases too: a result holds both
		maps.DeleteFunc(held, func(id int64, _ bool) bool { return !q.holding[id] })
	}
	q.holding = held
	if len(held) > 0 {
		return "", nil
	}
	return "no passage holds a task that " + tasksWritten(q.tasks) + " asks for", nil
}

// tasksWritten names task operators as typed, for notices:
// "task-todo:" and "task-done:invoice".
func tasksWritten(tasks []task) string {
	named := make([]string, len(tasks))
	for i, t := range tasks {
		named[i] = strconv.Quote(t.written)
	}
	return strings.Join(named, " and ")
}

// boxed are the passages in scope holding a task of each of q's task
// operators' kind with their words, in order o (boxedHolding).
func (q *query) boxed(ctx context.Context, rd *store.Reader, o store.Order) ([]store.BoxedPassage, error) {
	return boxedHolding(ctx, rd, q.tasks, q.filter, o)
}

// boxedHolding are the passages within f holding a task of each of tasks'
// kind with their words, in order o (store.Reader.Boxed): every passage
// whose text holds all their words and a box is read (every passage with
// a box, where they have no words), and its lines checked.
func boxedHolding(ctx context.Context, rd *store.Reader, tasks []task, f store.Filter, o store.Order) ([]store.BoxedPassage, error) {
	var words []string
	for _, t := range tasks {
		for _, w := range t.words {
			// The word's stem, or a stem it starts: "plug" finds
			// "plugins". A word whose stem ends before the word typed
			// ("genera": generalization is "gener") is found by neither,
			// as a search of its words finds it not.
			if p := fmt.Sprintf("(%[1]s OR %[1]s*)", phraseOf([]string{w})); !slices.Contains(words, p) {
				words = append(words, p)
			}
		}
	}
	var match string
	if len(words) > 0 {
		match = "(" + strings.Join(words, " AND ") + ")"
	}
	boxed, err := rd.Boxed(ctx, match, f, o)
	return slices.DeleteFunc(boxed, func(b store.BoxedPassage) bool {
		return slices.ContainsFunc(tasks, func(t task) bool { return !t.heldIn(b.Text) })
	}), err
}

// mustNotTask reads the passages in q's scope that hold a task one of its
// negated task operators names (q.untasked): no result is one of them.
// -task-todo:call leaves out the passages with an open task to call
// someone, and keeps those that say "call" in prose, as Obsidian's
// operator, negated, leaves out what it would find.
func (q *query) mustNotTask(ctx context.Context, rd *store.Reader) error {
	if len(q.notTasks) == 0 {
		return nil
	}
	held, err := heldTasks(ctx, rd, q.notTasks, q.filter)
	if err != nil {
		return err
	}
	q.untasked = map[int64]bool{}
	for _, b := range held {
		q.untasked[b.ChunkID] = true
	}
	return nil
}

// heldTasks are the passages within f that hold a task one of tasks
// names, any of them (boxedHolding asks for one of each).
func heldTasks(ctx context.Context, rd *store.Reader, tasks []task, f store.Filter) ([]store.BoxedPassage, error) {
	var out []store.BoxedPassage
	for _, t := range tasks {
		held, err := boxedHolding(ctx, rd, []task{t}, f, store.Unordered)
		if err != nil {
			return nil, err
		}
		out = append(out, held...)
	}
	return out, nil
}

// taskedOnly keeps the candidates that hold q's tasks (mustTask) and
// none its negated ones name (mustNotTask), before the second stage ranks
// and scores them, as a filter's are: a task operator names what to
// search among, and a task list scored beside the prose that mentions its
// words more often scored under 1 %.
func (q *query) taskedOnly(cands []candidate) []candidate {
	if len(q.tasks) == 0 && len(q.untasked) == 0 {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool {
		return len(q.tasks) > 0 && !q.holding[c.id] || q.untasked[c.id]
	})
}

// taskTerms are the query's terms that are words of its tasks, which
// every passage holding such a task holds: the keyword list is read to
// the last passage holding them all (store.Reader.KeywordAll). With
// quoted phrases, their passages' rows are those read deep instead
// (withHolders), as a result holds both.
func (q *query) taskTerms() []string {
	if len(q.must) > 0 {
		return nil
	}
	var out []string
	for _, t := range q.tasks {
		for _, w := range t.words {
			if p := phraseOf([]string{w}); slices.Contains(q.terms, p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// docsTasked are the notes within f any passage of which holds a task one
// of tasks names: those a list of notes leaves out for the negated task
// operators (tag:x -task-todo:, its notes without an open task).
func docsTasked(ctx context.Context, rd *store.Reader, tasks []task, f store.Filter) ([]int64, error) {
	held, err := heldTasks(ctx, rd, tasks, f)
	seen := map[int64]bool{}
	var docs []int64
	for _, b := range held {
		if !seen[b.DocID] {
			seen[b.DocID] = true
			docs = append(docs, b.DocID)
		}
	}
	return docs, err
}
