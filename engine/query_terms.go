package engine

import (
	"context"
	"iter"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/store"
)

// maxTerms bounds the keyword query; longer input is mostly noise and each
// ORed term costs a posting-list scan.
const maxTerms = 32

// matchTerms turns anything a person types into quoted FTS5 terms that,
// ORed or ANDed, cannot be a syntax error; none when the input has no
// searchable words. Words are split the way FTS5's unicode61 tokenizer splits them and
// each is quoted, so operators, column filters and punctuation are plain
// text. Text in double quotes (or “”, 「」) stays a phrase; so do words
// joined by punctuation ("rust-lang", "e.g."). A trailing '*' asks for a
// prefix. The input is folded as the index's text is (store.KeywordFold).
// Common English words are dropped when anything else is left. The terms
// are ORed (store.KeywordAny): bm25 then ranks chunks by how many, and how
// rare, the matched terms are.
func matchTerms(input string) []string {
	parts, _, _ := splitTerms(input)
	return parts
}

// splitTerms is matchTerms, whether the terms are the input's common
// words alone, kept because nothing else was left (AsksNothing), and the
// phrases of generic types written whole (Rc<RefCell<T>>), which their
// type names stand beside: such a phrase the notes never write is no word
// of the query they lack (termWeight).
func splitTerms(input string) (parts []string, commonOnly bool, generic map[string]bool) {
	seen := map[string]bool{}
	add := func(words []string, prefix bool) {
		if len(words) == 0 || len(parts) >= maxTerms {
			return
		}
		p := phraseOf(words)
		if prefix {
			p += "*"
		}
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	var stop []string // stopwords, kept in case nothing else is left
	for chunk, phrase := range pieces(input) {
		words := tokens(chunk)
		if !phrase && hasUnspaced(words) {
			for _, t := range unspacedTerms(words) {
				add(t, false)
			}
			continue
		}
		prefix := !phrase && strings.HasSuffix(chunk, "*") && len(words) > 0
		if !phrase && len(words) == 1 && !prefix && stopwords[words[0]] {
			stop = append(stop, words[0])
			continue
		}
		add(words, prefix)
		if !phrase && len(words) > 1 && isGeneric(chunk) {
			if names := typeNames(chunk); names != nil {
				if generic == nil {
					generic = map[string]bool{}
				}
				generic[phraseOf(words)] = true
				for _, t := range names {
					add(t, false)
				}
			}
		}
	}
	if len(parts) == 0 {
		for _, w := range stop {
			add([]string{w}, false)
		}
		return parts, len(parts) > 0, generic
	}
	return parts, false, generic
}

// withoutClitics is a piece of a query with its English clitics read as
// words of their own ("doesn't" is "does not") or none (the possessive
// "Canvas's" is "Canvas", "what's" is "what"): the apostrophe would make
// it a phrase, "canvas s", that only a note writing "Canvas's" holds. A
// piece joined by other punctuation ("don't-panic") stays a phrase, as
// the index reads the note that writes it ("don t panic"); so does a
// negation asked as a prefix ("don't*" is no prefix of "not").
func withoutClitics(chunk string) string {
	if !strings.ContainsAny(chunk, "'’") {
		return chunk
	}
	word := strings.TrimRight(chunk, "?!.,;:*")
	if strings.ContainsFunc(word, func(r rune) bool { return !store.WordRune(r) && r != '\'' && r != '’' }) {
		return chunk
	}
	return readClitics(chunk, !strings.HasSuffix(chunk, "*"))
}

// unclitic is text with its English clitics read as withoutClitics reads
// a piece of a query, wherever they are (in quotes, in "don't-panic"):
// "what's canvas" is "what canvas", "Don't Panic" "do not panic". The
// features that read a query's words beside a heading's or a title's
// read both through it, so the two agree however either is written.
func unclitic(text string) string { return readClitics(text, true) }

// withoutContractions is text with its clitics other than negations
// dropped: "what's new" is "what new", "don't panic" stays. IsQuestion
// reads a query so: "what's" opens a question, "don't" does not.
func withoutContractions(text string) string { return readClitics(text, false) }

// readClitics is text in lower case with its clitics dropped and, with
// negations, its negations read as two words; text without an apostrophe
// as it is.
func readClitics(text string, negations bool) string {
	if !strings.ContainsAny(text, "'’") {
		return text
	}
	text = strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	if negations {
		text = negation.ReplaceAllStringFunc(text, notOf)
	}
	return clitic.ReplaceAllString(text, "")
}

// notOf is a negation's words: "doesn't" is "does not", "can't" "can
// not", "won't" "will not".
func notOf(neg string) string {
	stem := strings.TrimSuffix(neg, "n't")
	if whole, ok := irregularNegations[stem]; ok {
		stem = whole
	}
	return stem + " not"
}

// irregularNegations are the negations whose first word is not what
// precedes "n't".
var irregularNegations = map[string]string{"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}

var (
	// negation is a word ending in "n't".
	negation = regexp.MustCompile(`\pL+n't\b`)
	// clitic is an apostrophe and what follows it to the word's end,
	// where that is a clitic: 's, 'd, 'll, 're, 've, 'm.
	clitic = regexp.MustCompile(`'(?:s|d|ll|re|ve|m)\b`)
)

// termWeight is the idf of a query term that n of the index's rows rows
// hold, as coverage weighs it: a generic type's phrase that no note
// writes weighs nothing, as its type names, terms of their own, say
// whether the notes hold it ("rc refcell t", where the notes write
// Rc<RefCell<i32>>, is not half of the query missing).
func (q *query) termWeight(i, n int) float64 {
	if n == 0 && q.generic[q.terms[i]] {
		return 0
	}
	return idf(n, q.rows)
}

// isGeneric reports whether a piece of a query is a generic type written
// whole, its angle brackets balanced and nothing after the last
// (Rc<RefCell<T>>): "Box<dyn" or "PartialOrd>(list:" are pieces of a
// signature that spaces cut, whose words are no type names.
func isGeneric(chunk string) bool {
	open := strings.IndexByte(chunk, '<')
	return open > 0 && strings.HasSuffix(chunk, ">") &&
		strings.Count(chunk, "<") == strings.Count(chunk, ">") && !strings.ContainsAny(chunk, "(): ")
}

// typeNames are the names of a generic type as code writes it, each a
// term of its own beside the phrase of the whole: Rc<RefCell<T>> is
// "rc" and "refcell", so the passages about Rc<RefCell<i32>>, or about
// Rc<T> and RefCell<T>, which the phrase "rc refcell t" misses, are found.
// A one-letter parameter (T, K, V) names no type.
func typeNames(chunk string) [][]string {
	var out [][]string
	for _, part := range strings.FieldsFunc(chunk, func(r rune) bool { return r == '<' || r == '>' || r == ',' }) {
		if w := tokens(part); len(w) > 1 || len(w) == 1 && len([]rune(w[0])) > 1 {
			out = append(out, w)
		}
	}
	if len(out) < 2 {
		return nil // not a generic type: the phrase alone
	}
	return out
}

// pieces yields the pieces of a query as typed, folded as the index's
// text is: each text in double quotes (phrase true), and each run of
// other text between spaces and quotes, its clitics read as words of
// their own or none (withoutClitics). An unclosed quote is punctuation.
func pieces(input string) iter.Seq2[string, bool] {
	return func(yield func(string, bool) bool) {
		rest := quotes.Replace(store.KeywordFold(input))
		for rest != "" {
			if c, size := utf8.DecodeRuneInString(rest); unicode.IsSpace(c) {
				rest = rest[size:]
				continue
			}
			var chunk string
			phrase := rest[0] == '"'
			if phrase {
				end := strings.IndexByte(rest[1:], '"')
				if end < 0 {
					rest = rest[1:]
					continue
				}
				chunk, rest = rest[1:1+end], rest[2+end:]
			} else {
				f := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
				if f < 0 {
					f = len(rest)
				}
				chunk, rest = rest[:f], rest[f:]
			}
			if !phrase {
				// "doesn't" is two pieces, "does" and "not".
				for _, c := range strings.Fields(withoutClitics(chunk)) {
					if !yield(c, false) {
						return
					}
				}
				continue
			}
			if !yield(chunk, phrase) {
				return
			}
		}
	}
}

// quotes are the quotation marks a phrase may be typed in: ASCII ones,
// and those keyboards and input methods give (“…”, „…“, 「…」, 『…』).
var quotes = strings.NewReplacer("\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u300c", `"`, "\u300d", `"`,
	"\u300e", `"`, "\u300f", `"`)

// tokens splits text into lower-case words of letters, numbers (〇, Ⅻ
// too), marks and private-use characters, as the keyword index reads it (store.KeywordText): each character of a
// script written without spaces is a word of its own, with its marks.
func tokens(s string) []string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !store.WordRune(r) })
	out := words[:0:0]
	for _, w := range words {
		if k := store.KeywordText(w); k != w {
			out = append(out, strings.Fields(k)...)
		} else {
			out = append(out, w)
		}
	}
	return out
}

// hasUnspaced reports whether any of words is a character of a script
// written without spaces.
func hasUnspaced(words []string) bool {
	return slices.ContainsFunc(words, unspaced)
}

func unspaced(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	return store.KeywordChar(r)
}

// unspacedTerms are the terms of an unquoted piece of a query that holds
// text written without spaces. Such text names no word boundaries, so a
// run of its characters asks for every pair of neighbours (a lone one for
// itself): a passage holding more of the pairs ranks higher, as one
// holding more of a query's words does. The words around a run are a
// phrase, as in any piece of the query.
func unspacedTerms(words []string) [][]string {
	var terms [][]string
	for len(words) > 0 {
		n := 1
		if !unspaced(words[0]) {
			for n < len(words) && !unspaced(words[n]) {
				n++
			}
			terms = append(terms, words[:n])
			words = words[n:]
			continue
		}
		for n < len(words) && unspaced(words[n]) {
			n++
		}
		run := words[:n]
		if n == 1 {
			terms = append(terms, run)
		}
		for i := 0; i+1 < n; i++ {
			terms = append(terms, run[i:i+2])
		}
		words = words[n:]
	}
	return terms
}

// CommonWordsOf is the query's common words (stopwords) alone, in order,
// one a word: "how do I" of "how do I feed the starter". eval makes
// queries that ask for nothing from real ones with it.
func CommonWordsOf(query string) string {
	var out []string
	for _, w := range tokens(store.KeywordFold(query)) {
		if stopwords[w] {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// AsksNothing reports whether every word of a query is a common word, as
// in "the" or "how do I": it names nothing to look for, so no passage can
// be known to answer it (the calibrator reads it: rescore.CommonOnly). A
// quoted phrase ("The Who"), words joined by punctuation or a prefix ask
// for that text. Its words are read as the keyword query reads them.
func AsksNothing(query string) bool {
	_, common, _ := splitTerms(query)
	return common
}

// stopwords are words too common to help a keyword match.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about after all also an and any are as at be been but by can
		could did do does doing for from had has have how i if in into is it its just me my no not
		of on or our out over so some such than that the their them then there these they this
		those to too up us was we were what when where which while who whom why will with would
		you your`) {
		m[w] = true
	}
	return m
}()

// widenPrefixes is terms with each one-word prefix the index holds no term
// of ("validatio"*: the index holds the stem "valid") widened to the stem
// of the word it begins (store.Reader.WidenPrefix), and what each widened
// term was typed as, for why to show; terms are new where one is.
func (e *Engine) widenPrefixes(ctx context.Context, terms []string) ([]string, map[string]string) {
	out := terms
	var typed map[string]string
	for i, t := range terms {
		p, ok := strings.CutSuffix(t, `"*`)
		if !ok || !strings.HasPrefix(p, `"`) || strings.ContainsAny(p[1:], `" `) {
			continue
		}
		wide, err := e.st.WidenPrefix(ctx, p[1:])
		if err != nil || wide == p[1:] {
			continue
		}
		if typed == nil {
			out, typed = slices.Clone(terms), map[string]string{}
		}
		out[i] = `"` + wide + `"*`
		typed[out[i]] = t
	}
	return out, typed
}

// termList is the query's keyword terms as a person reads them (termText):
// "a, b".
func termList(terms []string) string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = termText(t)
	}
	return strings.Join(out, ", ")
}

// oneLetterNotice says of a query whose one keyword term is a single
// letter ("x", "T") that it matches wherever the letter stands alone,
// which in notes is mostly a variable, a type parameter or an initial:
// its best result may score as a likely answer and be about anything.
// A prefix ("x*") asks for words and gets none.
func oneLetterNotice(query string, terms []string) string {
	if len(terms) != 1 {
		return ""
	}
	w := strings.TrimSuffix(strings.TrimPrefix(terms[0], `"`), `"`)
	r, n := utf8.DecodeRuneInString(w)
	if n == 0 || n != len(w) || !unicode.IsLetter(r) {
		return ""
	}
	rs := []rune(query)
	for i, q := range rs { // as typed, "T" rather than the index's "t": the letter standing alone
		alone := (i == 0 || !unicode.IsLetter(rs[i-1])) && (i == len(rs)-1 || !unicode.IsLetter(rs[i+1]))
		if unicode.ToLower(q) == r && alone {
			r = q
			break
		}
	}
	return `the query is one letter ("` + string(r) + `"), which matches wherever it stands alone (a variable, a type parameter, an initial); add what you look for`
}
