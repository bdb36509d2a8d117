package engine

import (
	"context"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// taskPassages lists, for a request of task operators and no words
// (task-todo:, task-done:invoice), the passages in scope that hold such
// a task, in order o (by path, or last changed first; a note's by place
// in it): at most limit after the first offset, and how many hold one in
// all. Obsidian's task operators list task lines; a person asking for
// their open tasks wants them all, in the notes' order, not the few a
// ranking would pick.
func taskPassages(ctx context.Context, rd *store.Reader, q *query, o store.Order, limit, offset int) ([]store.Listed, int, error) {
	boxed, err := q.boxed(ctx, rd, o)
	if err != nil {
		return nil, 0, err
	}
	var out []store.Listed
	for _, b := range boxed[min(offset, len(boxed)):min(offset+limit, len(boxed))] {
		out = append(out, b.Listed)
	}
	return out, len(boxed), nil
}

// toLastTask cuts r after its last line holding a task of one of q's
// task operators, where lines follow it: a list of tasks shows a daily
// note's tasks, not the log under them. end is r's last line before any
// cut (capResults).
func (joins seams) toLastTask(r *mdsearch.Result, q *query, end int) {
	off := 0 // past the last task line
	for at := 0; at < len(r.Text); {
		next := strings.IndexByte(r.Text[at:], '\n') + at + 1
		if next == at {
			next = len(r.Text)
		}
		for _, t := range q.tasks {
			if t.heldIn(r.Text[at:next]) {
				off = next
				break
			}
		}
		at = next
	}
	text := strings.TrimRight(r.Text[:off], "\n")
	if off == 0 || strings.TrimSpace(r.Text[off:]) == "" {
		return
	}
	last := joins.lineAt(*r, len(text))
	joins.cut(r, text, last, last+1, max(r.EndLine, end), "a list of tasks shows each passage to its last such task")
}

// tasksListed is what a list of task passages holds and shows
// (listNotice).
var tasksListed = listed{one: "passage", many: "passages", each: "each to its last such task"}
