package engine

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/store"
)

// exclusion is a word or a quoted phrase a query leaves out, written as
// Obsidian writes one: -plugin, -"new tab". No result holds it: a search
// leaves out the passages that do (q.barred), a list of notes the notes
// that do (store.Filter.NotHolding), as a result of each is a passage and
// a note. term is its FTS5 phrase, text its words as typed, folded.
type exclusion struct{ term, text, written string }

// takeExclusions takes the exclusions out of a query and returns the
// rest. An exclusion is a hyphen that opens the query or follows a space,
// then three letters or more ("-plugin"; a command's flags, "-g", "-la",
// and negative numbers are read as written) or a quoted phrase
// (-"new tab"), then a space or the end; one inside a quoted phrase is
// the phrase's. A query written as a statement (isStatement) is pasted
// text, whose hyphens are its own: nothing is taken from it.
func takeExclusions(query string) (string, []exclusion) {
	if !strings.Contains(query, "-") || isStatement(query) {
		return query, nil
	}
	var out []exclusion
	var b strings.Builder
	at := 0
	for i := 0; i < len(query); i++ {
		if query[i] != '-' || !fieldOpens(query, i) || quoted(query[:i]) {
			continue
		}
		end, ok := exclusionEnd(query, i+1)
		if !ok {
			continue
		}
		x, ok := newExclusion(query[i:end])
		if !ok {
			continue
		}
		if !slices.ContainsFunc(out, func(o exclusion) bool { return o.term == x.term }) {
			out = append(out, x)
		}
		b.WriteString(query[at:i])
		at, i = end, end-1
	}
	if len(out) == 0 {
		return query, nil
	}
	b.WriteString(query[at:])
	return strings.Join(strings.Fields(b.String()), " "), out
}

// fieldOpens reports whether text[i] opens a field: it starts the text or
// follows a space.
func fieldOpens(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return i == 0 || unicode.IsSpace(r)
}

// exclusionEnd is where the exclusion whose hyphen ends at text[start]
// ends: past three letters or more, or past a closed quoted phrase, at a
// space or the text's end; ok is false where none is written there.
func exclusionEnd(text string, start int) (end int, ok bool) {
	r, size := utf8.DecodeRuneInString(text[start:])
	end = start
	if isQuote(r) {
		j := strings.IndexFunc(text[start+size:], isQuote)
		if j < 0 {
			return 0, false // a quote left open is punctuation here
		}
		end = start + size + j
		_, size = utf8.DecodeRuneInString(text[end:])
		end += size
	} else {
		letters := 0
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if !unicode.IsLetter(r) {
				break
			}
			letters++
			end += size
		}
		if letters < 3 {
			return 0, false
		}
	}
	next, _ := utf8.DecodeRuneInString(text[end:])
	return end, end == len(text) || unicode.IsSpace(next)
}

// newExclusion reads an exclusion as written; ok is false where it holds
// no word the keyword index reads (-"…").
func newExclusion(written string) (_ exclusion, ok bool) {
	text := strings.TrimSpace(strings.TrimFunc(store.KeywordFold(written[1:]), isQuote))
	words := tokens(text)
	if len(words) == 0 {
		return exclusion{}, false
	}
	return exclusion{term: phraseOf(words), text: text, written: written}, true
}

// exclusionTerms are the FTS5 phrases of exclusions.
func exclusionTerms(xs []exclusion) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.term
	}
	return out
}

// describeExclusions names exclusions, for notices.
func describeExclusions(xs []exclusion) []string {
	var out []string
	for _, x := range xs {
		out = append(out, "text lacks "+strconv.Quote(x.text))
	}
	return out
}

// mustLack reads the passages in q's scope that hold one of its
// exclusions, which no result may be (q.barred).
func (q *query) mustLack(ctx context.Context, rd *store.Reader) error {
	if len(q.without) == 0 {
		return nil
	}
	var err error
	q.barred, err = rd.Holding(ctx, q.without, q.filter)
	return err
}

// unbarred leaves out the candidates that hold one of q's exclusions,
// ranked and scored among the query's candidates all, as holdersOnly
// leaves out those lacking its phrases.
func (q *query) unbarred(cands []candidate) []candidate {
	if len(q.barred) == 0 {
		return cands
	}
	return slices.DeleteFunc(cands, func(c candidate) bool { return q.barred[c.id] })
}
