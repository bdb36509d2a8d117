package engine

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/store"
)

// suggestion is a query respelled (see suggest), and the notice that
// offers it; lacking names the words no passage holds where the
// suggestion is not offered (none, or one that finds no strong answer).
type suggestion struct {
	query, notice, lacking string
	// shown is the notice of a search that shows the suggestion's results
	// in place of the typed query's (Engine.offer).
	shown string
	// slips: every word respelled is one edit from a long word typed, as
	// most misspellings are ("borowing"), not two ("percussion" →
	// "permission"): a weaker answer may then be offered (rescued).
	slips bool
}

// suggest returns the query with each of its words that no passage holds
// respelled as the nearest word the index does hold (store.Respell), and
// a notice naming them; none when no such word has a near one. It costs a
// search next to nothing unless a word matched no passage: whether a word
// is held is read from the second stage's term counts (without them, or
// for a word joined to others by punctuation, one row is asked for). A
// quoted phrase that a passage holds, a prefix (word*), words with digits (versions, dates,
// ids) and words of scripts written without spaces are left as typed, and
// so are words known to be spelled right (known) and operators the query
// holds unread (unreadOperators); a query with more than maxRespelled
// words the vault lacks gets none. The operators (tag:, path:, file:,
// [property:value]) lead the suggestion as written. hasTerms says the
// query has keyword terms, in any mode: semantic mode gets a suggestion
// too, as a misspelling blurs what the model reads as well. Search offers it only once offer has
// searched it.
func suggest(ctx context.Context, rd *store.Reader, q *query, hasTerms bool, operators []string, known func(string) bool) (suggestion, error) {
	if !hasTerms || q.nothing {
		return suggestion{}, nil
	}
	unread := unreadOperators(q.req.Query)
	if q.counts != nil && !slices.Contains(q.counts, 0) {
		return joinSuggestion(ctx, rd, q, unread, operators) // every term matched: no word is lacking
	}
	var lacked, short []string // short: too short to respell, named alone
	for _, word := range looseWords(masked(q.req.Query, unread), q.unheld) {
		if held, err := q.holds(ctx, rd, word); err != nil {
			return suggestion{}, err
		} else if !held && !known(word) && store.MaxEdits(word) > 0 {
			lacked = append(lacked, word)
		} else if !held && !known(word) {
			// "io" the notes may hold as "I/O": its letters apart.
			if spaced, err := q.holds(ctx, rd, strings.Join(strings.Split(word, ""), " ")); err != nil {
				return suggestion{}, err
			} else if !spaced {
				short = append(short, word)
			}
		}
	}
	if len(lacked) == 0 && len(short) == 0 {
		return joinSuggestion(ctx, rd, q, unread, operators)
	}
	if len(lacked) > maxRespelled {
		return suggestion{}, nil
	}
	fixes := map[string]string{}
	// Two words the notes lack that they write as one ("spell check"
	// where only "spellcheck" is) are joined, not respelled each.
	joins, err := compounds(ctx, rd, masked(q.req.Query, unread))
	if err != nil {
		return suggestion{}, err
	}
	joined := map[string]bool{}
	for pair, fix := range joins {
		a, b, _ := strings.Cut(pair, " ")
		if slices.Contains(lacked, a) || slices.Contains(lacked, b) {
			fixes[pair], joined[a], joined[b] = fix, true, true
		}
	}
	for _, word := range lacked {
		if joined[word] {
			continue
		}
		fix, err := rd.Respell(ctx, word)
		if err != nil {
			return suggestion{}, err
		}
		if fix != "" && !compoundKept(word, fix, known) {
			fixes[word] = fix
		}
	}
	if err := inScope(ctx, rd, q.filter, fixes); err != nil {
		return suggestion{}, err
	}
	lacking := lackingNotice(append(slices.Clip(lacked), short...), fixes)
	if len(fixes) == 0 {
		return suggestion{lacking: lacking}, nil
	}
	return respelled(q.req.Query, unread, operators, fixes, short, lacking, q.unheld), nil
}

// respelled is the suggestion of query with fixes made (rewrite, inside
// the quoted phrases unheld names too), outside the operators it could
// not read (unread), the operators it read leading.
func respelled(query string, unread [][2]int, operators []string, fixes map[string]string, short []string, lacking string, unheld map[string]bool) suggestion {
	var typed []respelling
	text := outside(query, unread, func(s string) string {
		r, t := rewrite(s, fixes, unheld)
		for _, w := range t {
			if !slices.Contains(typed, w) {
				typed = append(typed, w)
			}
		}
		return r
	})
	if len(typed) == 0 { // nothing the fixes name is in the query as they read it
		return suggestion{lacking: lacking}
	}
	sug := strings.Join(append(slices.Clip(operators), text), " ")
	return suggestion{sug, suggestionNotice(query, sug, typed, short), lacking, shownNotice(query, sug, typed, short), slips(typed)}
}

// joinSuggestion is the suggestion of a query whose every word the notes
// hold, where two of its words side by side are a word the notes write
// as one (compounds): "turn off spell check" as "turn off spellcheck".
// Like a respelling, it is offered only where it finds a strong answer.
func joinSuggestion(ctx context.Context, rd *store.Reader, q *query, unread [][2]int, operators []string) (suggestion, error) {
	joins, err := compounds(ctx, rd, masked(q.req.Query, unread))
	if err != nil || len(joins) == 0 {
		return suggestion{}, err
	}
	if err := inScope(ctx, rd, q.filter, joins); err != nil || len(joins) == 0 {
		return suggestion{}, err
	}
	return respelled(q.req.Query, unread, operators, joins, nil, "", nil), nil
}

// inScope leaves out of fixes the respellings no passage the filter
// lets through holds: respelled so, the word would match nothing the
// search reads, and the query would rank on its other words alone
// ("graf view filters" as "gra view filters", "gra" a piece of a link in
// another collection).
func inScope(ctx context.Context, rd *store.Reader, f store.Filter, fixes map[string]string) error {
	if f.IsZero() || len(fixes) == 0 {
		return nil
	}
	words := slices.Sorted(maps.Keys(fixes))
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = `"` + strings.ToLower(fixes[w]) + `"`
	}
	in, err := rd.TermsInScope(ctx, terms, f)
	if err != nil {
		return err
	}
	for i, w := range words {
		if !in[i] {
			delete(fixes, w)
		}
	}
	return nil
}

// lackingNotice names the words no passage holds, each with the nearest
// word the notes hold where there is one, for a search that offers no
// suggestion: the results rest on the query's other words (or on meaning
// alone), which a reader should know. The respelling is named but not
// offered: the query respelled so found no strong answer.
func lackingNotice(lacked []string, fixes map[string]string) string {
	if len(lacked) == 0 {
		return ""
	}
	quoted := make([]string, len(lacked))
	var near []string
	for i, w := range lacked {
		quoted[i] = strconv.Quote(w)
		if fix := fixes[w]; fix != "" {
			near = append(near, strconv.Quote(w)+" → "+strconv.Quote(fix))
		}
	}
	msg := "no passage holds " + strings.Join(quoted, " or ")
	switch {
	case len(lacked) == 1 && len(near) == 1:
		msg += " (the nearest word the notes hold is " + strconv.Quote(fixes[lacked[0]]) + "; the query respelled so finds no answer scoring " + strongShare + " or more)"
	case len(near) > 0:
		msg += " (the nearest words the notes hold: " + strings.Join(near, ", ") + "; the query respelled so finds no answer scoring " + strongShare + " or more)"
	}
	return msg
}

// respelling is a word as typed and as a suggestion respells it.
type respelling struct{ typed, fix string }

// suggestionNotice names the words no passage holds and offers the query
// respelled; a long query (not mdsearch.ShortQuery) by its words alone,
// "rende" → "render": quoted back whole, a pasted error log would cost
// more than the answer. The suggestion carries the whole query either way.
func suggestionNotice(typedQuery, query string, words []respelling, short []string) string {
	missing, fixes := quoteRespellings(words, short)
	offer := strconv.Quote(query)
	if !mdsearch.ShortQuery(typedQuery) || !mdsearch.ShortQuery(query) {
		offer = fixes
	}
	return "no passage holds " + missing + "; did you mean " + offer + "?"
}

// quoteRespellings names words as the notices do: the words typed and
// the short ones no passage holds either (`"a" or "b" or "xq"`), and
// each respelled with its respelling (`"a" → "x", "b" → "y"`).
func quoteRespellings(words []respelling, short []string) (missing, fixes string) {
	typed := make([]string, 0, len(words)+len(short))
	fixed := make([]string, len(words))
	for i, w := range words {
		typed = append(typed, strconv.Quote(w.typed))
		fixed[i] = strconv.Quote(w.typed) + " → " + strconv.Quote(w.fix)
	}
	for _, w := range short {
		typed = append(typed, strconv.Quote(w))
	}
	return strings.Join(typed, " or "), strings.Join(fixed, ", ")
}

// shownNotice is suggestionNotice for a search that shows the
// suggestion's results: it names the words respelled, and how to search
// for the query as typed (SearchRequest.AsTyped).
func shownNotice(typedQuery, query string, words []respelling, short []string) string {
	missing, fixes := quoteRespellings(words, short)
	shown := "for " + strconv.Quote(query)
	if !mdsearch.ShortQuery(typedQuery) || !mdsearch.ShortQuery(query) {
		shown = "respelled " + fixes
	}
	return "no passage holds " + missing + ": showing results " + shown + "; as_typed searches for the query as typed"
}

// outside is query with f applied to the text between the spans, each
// span kept as it is.
func outside(query string, spans [][2]int, f func(string) string) string {
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		b.WriteString(f(query[at:sp[0]]))
		b.WriteString(query[sp[0]:sp[1]])
		at = sp[1]
	}
	b.WriteString(f(query[at:]))
	return b.String()
}

// masked is query with each span a space.
func masked(query string, spans [][2]int) string {
	for i := len(spans) - 1; i >= 0; i-- {
		query = query[:spans[i][0]] + " " + query[spans[i][1]:]
	}
	return query
}

// maxRespelled is the most words the vault lacks that a query may hold
// and still get a suggestion: more are a question about other things, or
// in other words, not misspellings (and each costs a read of the index's
// terms).
const maxRespelled = 3

// inflections are endings a word of the model's vocabulary may take
// ("explored" of "explore", "installs" of "install").
var inflections = []string{"s", "es", "ed", "d", "ing", "ly", "er", "ers", "ion", "ions"}

// knownWord reports whether the model knows word as one of its whole
// words, or as one with an ending (inflections): a word spelled right that
// the vault does not hold ("status", which is one edit from "stats") is
// asked for as typed. The words known are Options.Lexicon's, else the
// embedder's; a remote model has none, and then no word is known.
func (e *Engine) knownWord(word string) bool {
	lex := e.opts.Lexicon
	if l, ok := e.emb.(embed.Lexicon); ok && lex == nil {
		lex = l
	}
	if lex == nil {
		return false
	}
	if lex.Knows(word) {
		return true
	}
	for _, end := range inflections {
		if base, ok := strings.CutSuffix(word, end); ok && len(base) >= 3 && (lex.Knows(base) || lex.Knows(base+"e")) {
			return true
		}
	}
	return false
}

// slips reports whether every respelling is one edit from a word typed
// of slipLetters or more (a join of two words, one space taken out, is
// one edit): a short word's neighbour is as often another word the notes
// lack ("oven" is not "over", nor "chess" "chefs").
func slips(typed []respelling) bool {
	for _, r := range typed {
		if utf8.RuneCountInString(r.typed) < slipLetters || edits(r.typed, r.fix, 1) > 1 {
			return false
		}
	}
	return true
}

// edits is how many edits apart a and b are, case aside, counted up to
// most (store.EditDistance).
func edits(a, b string, most int) int {
	return store.EditDistance([]rune(strings.ToLower(a)), []rune(strings.ToLower(b)), most)
}

// slipLetters is how long a word must be for one edit to read as a slip.
const slipLetters = 6

// compoundKept reports whether word, which the notes lack, reads as two
// words known to be spelled right ("tailwind": "tail" and "wind") and fix
// is more than one edit from it: such a word is likelier a name or a
// compound the notes do not use than a slip of two letters ("tailing"),
// while one edit still respells ("backround" as "background").
func compoundKept(word, fix string, known func(string) bool) bool {
	if edits(word, fix, 2) <= 1 {
		return false
	}
	w := []rune(strings.ToLower(word))
	for i := 3; i+3 <= len(w); i++ {
		if known(string(w[:i])) && known(string(w[i:])) {
			return true
		}
	}
	return false
}

// suggestMinScore is the top score a suggestion must find: a strong
// answer, as the README reads scores; strongShare says it as a share.
const suggestMinScore = 0.5

var strongShare = strconv.FormatFloat(100*suggestMinScore, 'f', -1, 64) + "%"

// confirm searches for the suggestion by keywords and reports whether it
// finds a strong answer (suggestMinScore): a word the vault lacks is more
// often a word it has no answer for than a misspelling ("election" is one
// edit from "electron"), and a suggestion that answers nothing is noise.
// Keyword mode's scores are probabilities whatever the embedder (and no
// remote reranker is asked), so the bar means the same on every vault:
// offer asks it where the mode searched scores otherwise (modeGates).
func (e *Engine) confirm(ctx context.Context, req mdsearch.SearchRequest, query string) (bool, error) {
	alt := req
	alt.Query, alt.Mode, alt.N, alt.MaxTokens, alt.NoRerank, alt.MinScore = query, mdsearch.ModeKeyword, 1, 0, true, 0
	f, err := e.search(ctx, alt, false)
	if err != nil || len(f.resp.Results) == 0 {
		return false, err
	}
	return f.resp.Results[0].Score >= suggestMinScore, nil
}

// holds reports whether some passage holds word: from the second stage's
// counts where it ran and word is a term of its own, else asked of the
// index (one row is enough to know).
func (q *query) holds(ctx context.Context, rd *store.Reader, word string) (bool, error) {
	term := `"` + word + `"`
	if i := slices.Index(q.terms, term); i >= 0 && q.counts != nil {
		return q.counts[i] > 0, nil
	}
	n, err := rd.TermRows(ctx, []string{term}, 1)
	if err != nil {
		return false, err
	}
	return n[0] > 0, nil
}

// looseWords are the words of a query that a suggestion may respell, each
// once, folded as the index folds them: those outside quoted phrases (but
// those unheld names, which no passage holds: "opne in new tab") and
// prefixes (word*), words joined by punctuation included
// ("app.config.errorHanfler"), of letters alone, of two letters or more
// (those too short to respell, store.MaxEdits, are only named when no
// passage holds them: "rul") and not common ones; at most maxTerms.
func looseWords(query string, unheld map[string]bool) []string {
	var out []string
	for chunk, phrase := range pieces(query) {
		if phrase && !unheld[phraseTerm(chunk)] || strings.HasSuffix(chunk, "*") {
			continue
		}
		for _, w := range tokens(chunk) {
			if len(out) == maxTerms {
				return out // as many as the keyword query reads
			}
			if utf8.RuneCountInString(w) > 1 && !stopwords[w] && !slices.Contains(out, w) && !strings.ContainsFunc(w, func(r rune) bool {
				return !unicode.IsLetter(r) || store.KeywordChar(r)
			}) {
				out = append(out, w)
			}
		}
	}
	return out
}

// rewrite replaces each word of query that fixes names (as the index
// folds it) with its fix, in the word's case: "Reactivty" becomes
// "Reactivity"; a key of two words, "spell check", replaces the two
// neighbours, apart by spaces alone ("spell check" becomes "spellcheck").
// The rest of the query is kept as typed, quoted phrases whole but those
// unheld names (their words respelled within the quotes). typed are the
// words replaced, as typed, each once, with their fix.
func rewrite(query string, fixes map[string]string, unheld map[string]bool) (respelled string, typed []respelling) {
	var b strings.Builder
	for query != "" {
		i := strings.IndexFunc(query, func(r rune) bool { return store.WordRune(r) || isQuote(r) })
		if i < 0 {
			b.WriteString(query)
			break
		}
		b.WriteString(query[:i])
		query = query[i:]
		if q, size := utf8.DecodeRuneInString(query); isQuote(q) {
			// A phrase runs to the next quote; an unclosed one is
			// punctuation, as pieces reads it.
			end, closing := strings.IndexFunc(query[size:], isQuote), 0
			if end < 0 {
				end = 0
			} else {
				_, closing = utf8.DecodeRuneInString(query[size+end:])
			}
			if inner := query[size : size+end]; closing > 0 && unheld[phraseTerm(store.KeywordFold(inner))] {
				r, t := rewrite(inner, fixes, nil)
				b.WriteString(query[:size] + r + query[size+end:size+end+closing])
				for _, w := range t {
					if !slices.Contains(typed, w) {
						typed = append(typed, w)
					}
				}
			} else {
				b.WriteString(query[:size+end+closing])
			}
			query = query[size+end+closing:]
			continue
		}
		j := strings.IndexFunc(query, func(r rune) bool { return !store.WordRune(r) })
		if j < 0 {
			j = len(query)
		}
		word := query[:j]
		query = query[j:]
		if w := tokens(word); len(w) == 1 {
			// Two words the notes write as one: "spell check".
			if next, rest, ok := nextWord(query); ok {
				if n := tokens(next); len(n) == 1 && fixes[w[0]+" "+n[0]] != "" {
					fix := respelling{word + query[:len(query)-len(rest)], sameCase(fixes[w[0]+" "+n[0]], word)}
					fix.typed = strings.Join(strings.Fields(fix.typed), " ")
					b.WriteString(fix.fix)
					query = rest
					if !slices.Contains(typed, fix) {
						typed = append(typed, fix)
					}
					continue
				}
			}
		}
		if w := tokens(word); len(w) == 1 && fixes[w[0]] != "" {
			fix := respelling{word, sameCase(fixes[w[0]], word)}
			b.WriteString(fix.fix)
			if !slices.Contains(typed, fix) {
				typed = append(typed, fix)
			}
		} else {
			b.WriteString(word)
		}
	}
	return b.String(), typed
}

// phraseTerm is a quoted text's FTS5 phrase, as splitTerms makes it.
func phraseTerm(text string) string { return phraseOf(tokens(text)) }

// phraseOf is words as one quoted FTS5 phrase.
func phraseOf(words []string) string { return `"` + strings.Join(words, " ") + `"` }

// isQuote reports whether r is a quotation mark a phrase may be typed in
// (quotes).
func isQuote(r rune) bool {
	return r == '"' || quotes.Replace(string(r)) == `"`
}

// nextWord is the word query opens with after spaces (none else between),
// and the query after it; ok is false when it opens otherwise.
func nextWord(query string) (word, rest string, ok bool) {
	trimmed := strings.TrimLeftFunc(query, unicode.IsSpace)
	if trimmed == query || trimmed == "" {
		return "", "", false
	}
	j := strings.IndexFunc(trimmed, func(r rune) bool { return !store.WordRune(r) })
	if j == 0 {
		return "", "", false
	}
	if j < 0 {
		j = len(trimmed)
	}
	return trimmed[:j], trimmed[j:], true
}

// sameCase writes fix in the case typed was (all upper, capitalised, or
// lower), unless the passages spell fix in mixed case, as code names are
// ("defineProps"): that spelling is kept.
func sameCase(fix, typed string) string {
	if fix != strings.ToLower(fix) {
		return fix // store.Respell keeps mixed case alone
	}
	first, size := utf8.DecodeRuneInString(typed)
	switch {
	case utf8.RuneCountInString(typed) > 1 && strings.ToUpper(typed) == typed && strings.ToLower(typed) != typed:
		return strings.ToUpper(fix)
	case unicode.IsUpper(first) && strings.ToLower(typed[size:]) == typed[size:]:
		r, n := utf8.DecodeRuneInString(fix)
		return string(unicode.ToUpper(r)) + fix[n:]
	}
	return fix
}
