package engine

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// phrase is text a query quotes: its FTS5 phrase (`"open in new
// tab"`) and its text as typed, folded as the index folds it.
type phrase struct{ term, text string }

// quotedPhrases are the texts a query quotes, each once: what a keyword
// or hybrid search keeps its results to. Quotes pair as pieces pairs
// them. A pair of ASCII quotes opened or closed inside a word is code
// (`:title="post.title"`), not a phrase a person quoted, and keeps
// nothing; typographic quotes (“…”, 「…」) always quote, as scripts
// written without spaces put them inside a run of text.
func quotedPhrases(query string) []phrase {
	var out []phrase
	f := store.KeywordFold(query)
	marks := quoteMarks(f)
	for i := 0; i+1 < len(marks); i += 2 {
		open, close := marks[i], marks[i+1]
		inside := f[open.end:close.start]
		words := tokens(inside)
		if len(words) == 0 || !open.typographic && !quoteOpens(f, open.start) || !close.typographic && !quoteCloses(f, close.end) {
			continue
		}
		p := phrase{phraseOf(words), strings.TrimSpace(inside)}
		if !slices.ContainsFunc(out, func(o phrase) bool { return o.term == p.term }) {
			out = append(out, p)
		}
	}
	return out
}

// quoteMark is a quotation mark of a query: its bytes, and whether it is
// a typographic one rather than ASCII's.
type quoteMark struct {
	start, end  int
	typographic bool
}

// quoteMarks are the quotation marks of text that quotes reads as
// quotes, in order.
func quoteMarks(text string) []quoteMark {
	var out []quoteMark
	for i, r := range text {
		if isQuote(r) {
			out = append(out, quoteMark{i, i + utf8.RuneLen(r), r != '"'})
		}
	}
	return out
}

// quoteOpens reports whether the ASCII quote at text[i] opens a phrase:
// it starts the text or follows a space or an opening bracket.
func quoteOpens(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return i == 0 || unicode.IsSpace(r) || strings.ContainsRune("([{", r)
}

// quoteCloses reports whether the ASCII quote ending at text[end]
// closes a phrase: it ends the text or comes before a space or
// punctuation.
func quoteCloses(text string, end int) bool {
	r, _ := utf8.DecodeRuneInString(text[end:])
	return end == len(text) || unicode.IsSpace(r) || unicode.IsPunct(r) && r != '"'
}

// mustHold keeps the results of q to the passages holding one of its
// quoted phrases or more (q.must; withHolders, holdersOnly). Those
// holding more tend to rank higher, holding more of the query's terms. Not
// all: a query that quotes two sections' headings ("“Methods” and
// “Paths for Referring to an Item”") asks for either, which no passage
// holds together. A phrase no passage in the scope holds keeps nothing:
// its words are searched one by one instead (phraseWords), and the
// notice says so. Semantic mode reads meaning alone, so quotes keep
// nothing there, nor in a query written as a statement (isStatement).
func (q *query) mustHold(ctx context.Context, rd *store.Reader) (string, error) {
	if q.mode == mdsearch.ModeSemantic || isStatement(q.req.Query) {
		return "", nil
	}
	// The phrases among the query's terms: the terms are bounded
	// (maxTerms), and a phrase past them is not searched at all.
	ps := slices.DeleteFunc(quotedPhrases(q.req.Query), func(p phrase) bool { return !slices.Contains(q.terms, p.term) })
	if len(ps) == 0 {
		return "", nil
	}
	terms := make([]string, len(ps))
	for i, p := range ps {
		terms[i] = p.term
	}
	held, err := rd.TermsInScope(ctx, terms, q.filter)
	if err != nil {
		return "", err
	}
	var keep []string
	var lack []phrase
	for i, p := range ps {
		if held[i] {
			keep = append(keep, p.term)
		} else {
			lack = append(lack, p)
		}
	}
	if len(keep) > 0 {
		q.must = keep
		if q.holding, err = rd.Holding(ctx, q.must, q.filter); err != nil {
			return "", err
		}
	}
	var split, kept []string // the phrases no passage holds, by what became of them
	for _, p := range lack {
		var ok bool
		if q.terms, ok = phraseWords(q.terms, p.term); ok {
			split = append(split, strconv.Quote(p.text))
			if q.unheld == nil {
				q.unheld = map[string]bool{}
			}
			q.unheld[p.term] = true
		} else {
			kept = append(kept, strconv.Quote(p.text))
		}
	}
	return lackNotice(split, kept, !q.filter.IsZero()), nil
}

// lackNotice says which quoted phrases no passage holds: those searched
// as their words instead (split), and those of common words alone, which
// stay phrases (kept).
func lackNotice(split, kept []string, filtered bool) string {
	where := ""
	if filtered {
		where = " with these filters"
	}
	var notice string
	if len(split) > 0 {
		notice = "no passage" + where + " holds " + phraseList(split) + ", so " + its(len(split)) + " words were searched one by one"
	}
	if len(kept) > 0 {
		notice = joinNotices(notice, "no passage"+where+" holds "+phraseList(kept)+", whose words are common ones alone")
	}
	return notice
}

// phraseWords is terms with the phrase p replaced by its words, but for
// common ones, as far as maxTerms holds them; ok is false where none
// replaced it (its words are common ones alone), and terms is returned.
func phraseWords(terms []string, p string) (_ []string, ok bool) {
	i := slices.Index(terms, p)
	if i < 0 {
		return terms, false
	}
	var words []string
	for _, w := range strings.Fields(strings.Trim(p, `"`)) {
		if t := `"` + w + `"`; !stopwords[w] && !slices.Contains(terms, t) && !slices.Contains(words, t) {
			words = append(words, t)
		}
	}
	if len(words) == 0 {
		return terms, false
	}
	words = words[:min(len(words), maxTerms-len(terms)+1)] // the phrase's place is freed
	out := slices.Concat(terms[:i], words, terms[i+1:])    // a new slice: terms may be the search's own
	return out, true
}

// isStatement reports whether a query is written as a statement: it ends
// with a full stop, a colon or a semicolon (past closing quotes and
// brackets). Such a query is text pasted to find more like it (a
// sentence of a note, a paragraph of a page), whose quotation marks are
// the text's own, quoting a title or a term it cites, and keep nothing:
// the linked-to sections a page's sentences cite by their headings were
// measured ranking a shade lower with them kept, as their notes' other
// sections hold the heading too (docs/evaluation.md, "Quoted phrases").
func isStatement(query string) bool {
	t := strings.TrimRightFunc(query, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`"'”’」』)]`, r)
	})
	return strings.HasSuffix(t, ".") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, ";")
}

// withHolders adds to the keyword list's best rows top the rows of the
// passages that hold q's phrases which top did not reach (q.kwHeld, as
// deep as the list was read): a phrase's passages whose other words are
// few rank deep in the list of every word. q.kwHeld is that list's own
// order (the same terms' bm25), so every passage holding a phrase that
// the list reads is in it. The rows added all rank below top's (its last
// is the best bm25 they lack), so the keyword rank they get, past top's,
// is their rank's least bound.
func (q *query) withHolders(top []store.KeywordHit) []store.KeywordHit {
	if len(q.kwHeld) == 0 {
		return top
	}
	out := store.AppendUnseen(slices.Clone(top), q.kwHeld, store.KeywordHit.Passage, len(top)+len(q.kwHeld)) // top is q.kw's
	slices.SortStableFunc(out, store.CompareHits)
	return out
}

// holdersRead reports whether every passage that holds q's phrases (or
// its tasks) is a candidate: the list of them ended before the depth it was read to, so
// reading deeper finds no more results.
func (q *query) holdersRead() bool {
	return (len(q.must) > 0 || len(q.taskTerms()) > 0) && q.kw != nil && len(q.kwHeld) < q.kwLimit
}

// stageRead is the candidates the second stage reads (top) and those it
// ranks (cands): its best secondK of cands, or the first round's fewer
// (keepFirstTop); with quoted phrases, as many of their passages past
// those again, beside them, and the rest of those passages after them, as
// the results are theirs (holdersOnly). Those past the best that hold no
// phrase are left out here.
func (q *query) stageRead(cands []candidate) (_, top []candidate) {
	n := secondK
	if len(q.firstTop) > 0 {
		n = len(q.firstTop)
	}
	top = cands[:min(n, len(cands))]
	if q.holding == nil || len(cands) <= n {
		return cands, top
	}
	more := q.holdersAmong(cands[n:], len(cands))
	cands = slices.Concat(top, more)
	return cands, cands[:n+min(secondK, len(more))]
}

// holdersAmong is the first n of cands that hold q's phrases.
func (q *query) holdersAmong(cands []candidate, n int) []candidate {
	var out []candidate
	for _, c := range cands {
		if len(out) == n {
			break
		}
		if q.holding[c.id] {
			out = append(out, c)
		}
	}
	return out
}

// holdersOnly keeps the candidates that hold q's phrases, ranked and
// scored among the query's candidates all: the second stage compares a
// passage with the query's other candidates, not with its fellow
// holders alone (which measured worse: docs/evaluation.md, "Quoted
// phrases").
func (q *query) holdersOnly(cands []candidate) []candidate {
	if q.holding == nil {
		return cands
	}
	return slices.DeleteFunc(cands, func(c candidate) bool { return !q.holding[c.id] })
}

// phraseList names quoted phrases: the phrase "a b", the phrases "a b",
// "c".
func phraseList(ps []string) string {
	if len(ps) == 1 {
		return "the phrase " + ps[0]
	}
	return "the phrases " + strings.Join(ps, ", ")
}

// its is the possessive of one phrase or more.
func its(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}
