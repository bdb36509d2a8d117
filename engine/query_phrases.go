package engine

import (
	"cmp"
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
// them; a pair opened or closed inside a word is code
// (`:title="post.title"`), not a phrase a person quoted, and keeps
// nothing.
func quotedPhrases(query string) []phrase {
	var out []phrase
	q := quotes.Replace(store.KeywordFold(query))
	for open := strings.IndexByte(q, '"'); open >= 0; {
		end := strings.IndexByte(q[open+1:], '"')
		if end < 0 {
			break
		}
		close := open + 1 + end
		if words := tokens(q[open+1 : close]); len(words) > 0 && quoteOpens(q, open) && quoteCloses(q, close) {
			p := phrase{`"` + strings.Join(words, " ") + `"`, strings.TrimSpace(q[open+1 : close])}
			if !slices.ContainsFunc(out, func(o phrase) bool { return o.term == p.term }) {
				out = append(out, p)
			}
		}
		next := strings.IndexByte(q[close+1:], '"')
		if next < 0 {
			break
		}
		open = close + 1 + next
	}
	return out
}

// quoteOpens reports whether the quote at q[i] opens a phrase: it starts
// the query or follows a space or an opening bracket.
func quoteOpens(q string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(q[:i])
	return i == 0 || unicode.IsSpace(r) || strings.ContainsRune("([{", r)
}

// quoteCloses reports whether the quote at q[i] closes a phrase: it ends
// the query or comes before a space or punctuation.
func quoteCloses(q string, i int) bool {
	r, _ := utf8.DecodeRuneInString(q[i+1:])
	return i == len(q)-1 || unicode.IsSpace(r) || unicode.IsPunct(r) && r != '"'
}

// mustHold keeps the results of q to the passages holding one of its
// quoted phrases or more (q.must; withHolders, holdersOnly). Those
// holding more rank higher, as they hold more of the query's terms. Not
// all: prose that quotes two sections' headings ("see “Methods” and
// “Paths for Referring to an Item”") asks for either, which no passage
// holds together. A phrase no passage in the scope holds keeps nothing:
// its words are searched one by one instead (phraseWords), and the
// notice says so. Semantic mode reads meaning alone, so quotes keep
// nothing there.
func (q *query) mustHold(ctx context.Context, rd *store.Reader) (string, error) {
	ps := quotedPhrases(q.req.Query)
	if len(ps) == 0 || q.mode == mdsearch.ModeSemantic {
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
	var keep, lack, named []string
	for i, p := range ps {
		if held[i] {
			keep = append(keep, p.term)
		} else {
			lack, named = append(lack, p.term), append(named, strconv.Quote(p.text))
		}
	}
	if len(keep) > 0 {
		q.must = "(" + strings.Join(keep, " OR ") + ")"
	}
	if len(lack) == 0 {
		return "", nil
	}
	q.terms = phraseWords(q.terms, lack)
	where := ""
	if !q.filter.IsZero() {
		where = " with these filters"
	}
	return "no passage" + where + " holds " + phraseList(named) + ", so " + its(len(lack)) + " words were searched one by one", nil
}

// phraseWords is terms with each phrase of lack replaced by its words,
// but for common ones (a phrase of common words alone stays).
func phraseWords(terms, lack []string) []string {
	out := slices.Clone(terms) // terms may be the search's own
	for _, p := range lack {
		i := slices.Index(out, p)
		if i < 0 {
			continue
		}
		var words []string
		for _, w := range strings.Fields(strings.Trim(p, `"`)) {
			if t := `"` + w + `"`; !stopwords[w] && !slices.Contains(out, t) && !slices.Contains(words, t) {
				words = append(words, t)
			}
		}
		if len(words) > 0 {
			out = slices.Insert(slices.Delete(out, i, i+1), i, words...)
		}
	}
	return out
}

// withHolders adds to the keyword list hits, read to limit, the passages
// that hold q's phrases which it did not reach, as deep as limit again:
// a phrase's passages whose other words are few rank deep in the list of
// every word. The list of the phrases' passages is that list's own order
// (bm25 of the same terms), so none of it above the list's bottom is
// missing. Where it ends before limit, every passage that holds the
// phrases is a candidate, and reading deeper finds no more results.
func (q *query) withHolders(ctx context.Context, rd *store.Reader, w store.Weights, hits []store.KeywordHit, limit int) ([]store.KeywordHit, error) {
	if q.must == "" {
		return hits, nil
	}
	held, err := rd.KeywordAny(ctx, q.terms, q.must, q.filter, w, limit)
	if err != nil {
		return nil, err
	}
	q.holdersRead = len(held) < limit
	seen := make(map[int64]bool, len(hits))
	for _, h := range hits {
		seen[h.ChunkID] = true
	}
	for _, h := range held {
		if !seen[h.ChunkID] {
			hits = append(hits, h)
		}
	}
	slices.SortStableFunc(hits, func(a, b store.KeywordHit) int {
		return cmp.Or(cmp.Compare(a.BM25, b.BM25), cmp.Compare(a.ChunkID, b.ChunkID))
	})
	return hits, nil
}

// holdersOnly keeps the candidates that hold q's phrases, ranked and
// scored as the query's candidates all were: a phrase keeps results to
// its passages, but does not change what the second stage reads of them,
// so their scores mean what they mean unquoted.
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
