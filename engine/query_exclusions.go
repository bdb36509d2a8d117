package engine

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch/internal/swar"
	"github.com/mdsearch/mdsearch/store"
)

// exclusion is a word or a quoted phrase a query leaves out, written as
// Obsidian writes one: -plugin, -"new tab". No result holds it: a search
// leaves out the passages that do (q.barred), a list of notes the notes
// that do (store.Filter.NotDocs), as a result of each is a passage and a
// note. term is its FTS5 phrase, which finds the passages holding a word
// of its stem; words are its words as typed, folded, which tell those
// that hold it as written (heldIn); written is it as typed.
type exclusion struct {
	term, written string
	words         []string
}

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
		x, end, ok := exclusionAt(query, i)
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

// exclusionAt is the exclusion whose hyphen is query[i], and where it
// ends; ok is false where none is written there (the query's being a
// statement aside, which takeExclusions reads once).
func exclusionAt(query string, i int) (x exclusion, end int, ok bool) {
	if query[i] != '-' || !fieldOpens(query, i) || quoted(query[:i]) {
		return x, 0, false
	}
	if end, ok = exclusionEnd(query, i+1); ok {
		x, ok = newExclusion(query[i:end])
	}
	return x, end, ok
}

// fieldOpens reports whether text[i] opens a field: it starts the text or
// follows a space.
func fieldOpens(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return i == 0 || unicode.IsSpace(r)
}

// exclusionEnd is where the exclusion whose hyphen ends at text[start]
// ends: past three letters or more (their accents too, composed or not),
// or past a closed quoted phrase, where a space, the text's end or
// punctuation then a space or the end follows ("-plugin, canvas", "what
// is it -plugin?"); ok is false where none is written there. A "*" after
// letters makes a prefix (-plug*), which is no exclusion.
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
			if unicode.IsLetter(r) {
				letters++
			} else if letters == 0 || !unicode.Is(unicode.Mn, r) {
				break
			}
			end += size
		}
		if letters < 3 {
			return 0, false
		}
	}
	after := end
	for after < len(text) {
		r, size := utf8.DecodeRuneInString(text[after:])
		if !unicode.IsPunct(r) || strings.ContainsRune("*'-_", r) || isQuote(r) {
			break
		}
		after += size
	}
	next, _ := utf8.DecodeRuneInString(text[after:])
	return end, after == len(text) || unicode.IsSpace(next)
}

// newExclusion reads an exclusion as written; ok is false where it holds
// no word the keyword index reads (-"…").
func newExclusion(written string) (_ exclusion, ok bool) {
	words := tokens(store.KeywordFold(written[1:]))
	if len(words) == 0 {
		return exclusion{}, false
	}
	return exclusion{term: phraseOf(words), written: written, words: unaccented(slices.Clone(words))}, true
}

// unaccented is words without their accents, in place, as the keyword
// index compares them (remove_diacritics): "-remy" leaves out "Rémy".
func unaccented(words []string) []string {
	for i, w := range words {
		if !swar.ASCII(w) {
			words[i] = norm.NFC.String(strings.Map(func(r rune) rune {
				if unicode.Is(unicode.Mn, r) {
					return -1
				}
				return r
			}, norm.NFD.String(w)))
		}
	}
	return words
}

// heldIn reports whether a passage whose words are toks (tokens of its
// RowText) holds x as written: its words side by side and in order, each
// a word of the passage or the start of one ("-plugin" leaves out
// "plugins"). The keyword index finds the passages holding a word of the
// same stem, which may be another word: generic, general and generation
// share one, and "generic -generation" would leave out every passage
// about generics.
func (x exclusion) heldIn(toks []string) bool { return startsRun(toks, x.words) }

// startsRun reports whether toks hold words side by side and in order,
// each a token or the start of one (holdsRun asks for the tokens
// themselves).
func startsRun(toks, words []string) bool {
	for i := 0; i+len(words) <= len(toks); i++ {
		if !strings.HasPrefix(toks[i], words[0]) {
			continue
		}
		j := 1
		for j < len(words) && strings.HasPrefix(toks[i+j], words[j]) {
			j++
		}
		if j == len(words) {
			return true
		}
	}
	return false
}

// writtenWords are the words of text as a query's are compared with a
// passage's as written: folded as the index folds them, accents set
// aside.
func writtenWords(text string) []string { return unaccented(tokens(store.KeywordFold(text))) }

// anyHeldIn reports whether a passage's RowText holds one of xs as
// written.
func anyHeldIn(xs []exclusion, t store.RowText) bool {
	toks := writtenWords(t.Text)
	return slices.ContainsFunc(xs, func(x exclusion) bool { return x.heldIn(toks) })
}

// exclusionTerms are the FTS5 phrases of exclusions.
func exclusionTerms(xs []exclusion) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.term
	}
	return out
}

// mustLack reads the passages in q's scope that hold a word of the stem
// of one of its exclusions (q.barred), which unbarred then reads again.
func (q *query) mustLack(ctx context.Context, rd *store.Reader) error {
	if len(q.without) == 0 {
		return nil
	}
	var err error
	q.barred, err = rd.Holding(ctx, exclusionTerms(q.without), q.filter)
	return err
}

// unbarred leaves out the candidates that hold one of q's exclusions as
// written, before the second stage ranks and scores them: the passages
// left are compared with one another, not with passages no result can
// be, and those past the stage's best are read by it, not scored under
// them. Only the candidates whose stem the keyword index finds are read
// again, each once a search.
func (q *query) unbarred(ctx context.Context, rd *store.Reader, cands []candidate) ([]candidate, error) {
	if len(q.barred) == 0 {
		return cands, nil
	}
	if q.asWritten == nil {
		q.asWritten = map[int64]bool{}
	}
	var unread []int64
	for _, c := range cands {
		if _, read := q.asWritten[c.id]; q.barred[c.id] && !read {
			unread = append(unread, c.id)
		}
	}
	texts, err := rd.RowTexts(ctx, unread)
	if err != nil {
		return nil, err
	}
	for _, id := range unread {
		q.asWritten[id] = anyHeldIn(q.without, texts[id]) // one gone since is no result either way
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { return q.asWritten[c.id] }), nil
}

// docsHolding are the notes within f any passage of which holds one of
// xs as written: those a list of notes leaves out.
func docsHolding(ctx context.Context, rd *store.Reader, xs []exclusion, f store.Filter) ([]int64, error) {
	seen := map[int64]bool{}
	var docs []int64
	err := rd.HoldingTexts(ctx, exclusionTerms(xs), f, func(_ int64, t store.RowText) {
		if !seen[t.Doc] && anyHeldIn(xs, t) {
			seen[t.Doc] = true
			docs = append(docs, t.Doc)
		}
	})
	return docs, err
}
