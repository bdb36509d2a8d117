package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// taskPassages lists, for a request of task operators and no words
// (task-todo:, task-done:invoice), the passages in scope that hold such
// a task, in order o (by path, or last changed first; a note's by place
// in it): at most limit after the first offset, and how many hold one in
// all. Obsidian's task operators list task lines; a person asking for
// their open tasks wants them all, in the notes' order, not the few a
// ranking would pick. The query's exclusions (-word) leave out the
// passages that hold them, as in a search: a task list's results are
// passages, not notes.
func taskPassages(ctx context.Context, rd *store.Reader, q *query, o store.Order, limit, offset int) ([]store.Listed, int, error) {
	boxed, err := q.boxed(ctx, rd, o)
	if err != nil {
		return nil, 0, err
	}
	if len(q.notTasks) > 0 { // those holding a negated one's task, as a search leaves them out
		if err := q.mustNotTask(ctx, rd); err != nil {
			return nil, 0, err
		}
		boxed = slices.DeleteFunc(boxed, func(b store.BoxedPassage) bool { return q.untasked[b.ChunkID] })
	}
	if len(q.without) > 0 { // the passages holding an excluded word as written, as a search leaves them out
		if err := q.mustLack(ctx, rd); err != nil {
			return nil, 0, err
		}
		cands := make([]candidate, len(boxed))
		for i, b := range boxed {
			cands[i] = candidate{id: b.ChunkID}
		}
		if cands, err = q.unbarred(ctx, rd, cands); err != nil {
			return nil, 0, err
		}
		kept := map[int64]bool{}
		for _, c := range cands {
			kept[c.id] = true
		}
		boxed = slices.DeleteFunc(boxed, func(b store.BoxedPassage) bool { return !kept[b.ChunkID] })
	}
	var out []store.Listed
	for _, b := range boxed[min(offset, len(boxed)):min(offset+limit, len(boxed))] {
		out = append(out, b.Listed)
	}
	return out, len(boxed), nil
}

// toLastTask cuts r after the list item of its last task of one of q's
// task operators (its sub-items and continuation lines too), where lines
// follow it: a list of tasks shows a daily note's tasks, not the log
// under them. Tasks in fenced code are none. end is r's last line before
// any cut (capResults).
func (joins seams) toLastTask(r *mdsearch.Result, q *query, end int) {
	lines := strings.SplitAfter(r.Text, "\n")
	last := -1
	var fences sections.Fences
	off := 0
	for i, l := range lines {
		off += len(l)
		if !fences.Line([]byte(l)) && slices.ContainsFunc(q.tasks, func(t task) bool { return t.at(l, r.Text[off:]) }) {
			last = i
		}
	}
	if last < 0 {
		return
	}
	off = 0
	for _, l := range lines[:itemEnd(lines, last)] {
		off += len(l)
	}
	text := strings.TrimRight(r.Text[:off], "\n")
	if strings.TrimSpace(r.Text[off:]) == "" {
		return
	}
	at := joins.lineAt(*r, len(text))
	joins.cut(r, closeFence(text), at, at+1, max(r.EndLine, end), "a list of tasks shows each passage to its last such task")
}

// itemEnd is the index of the line after the list item that starts at
// lines[i]: the lines indented deeper than it (its sub-items, its
// continuation and code), and those that continue its text with no blank
// line between that open no block of their own.
func itemEnd(lines []string, i int) int {
	indent, end, blank := indentOf(lines[i]), i+1, false
	if strings.HasPrefix(strings.TrimSpace(lines[i]), ">") {
		return end // a task in a quote: its line
	}
	for j := i + 1; j < len(lines); j++ {
		switch l := lines[j]; {
		case strings.TrimSpace(l) == "":
			blank = true
		case indentOf(l) > indent || !blank && !opensBlock(l):
			end, blank = j+1, false
		default:
			return end
		}
	}
	return end
}

// indentOf is the width of line's leading white space, a tab to the next
// stop of four.
func indentOf(line string) int {
	n := 0
	for _, c := range line {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// opensBlock reports whether line opens a block of its own (a list item,
// a heading, a quote, a fence, a table row), which ends a list item's
// lazy continuation. It is read for every task's next line, so by hand:
// a regular expression cost a list of 3,000 notes' tasks 0.5 ms.
func opensBlock(line string) bool {
	t := strings.TrimLeft(line, " \t\n\r\f")
	if t == "" {
		return false
	}
	switch c := t[0]; {
	case c == '#' || c == '>' || c == '|':
		return true
	case c == '-' || c == '*' || c == '+':
		return len(t) == 1 || isBlank(t[1])
	case c == '`' || c == '~':
		return strings.HasPrefix(t, strings.Repeat(string(c), 3))
	case c >= '0' && c <= '9':
		j := 1
		for j < len(t) && j < 10 && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		return j < 10 && j < len(t) && (t[j] == '.' || t[j] == ')') && (j+1 == len(t) || isBlank(t[j+1]))
	}
	return false
}

// isBlank reports whether c is white space, as RE2's \s reads it.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// tasksListed is what a list of task passages holds and shows
// (listNotice).
var tasksListed = listed{one: "passage", many: "passages", each: "each to its last such task"}
