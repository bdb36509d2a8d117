package store

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// vocabTables read the keyword index's terms (stems, as chunks_fts holds
// them): chunks_vocab each term and how many rows hold it, in term order;
// chunks_instances where each is (row, column, token). They keep no data
// of their own: FTS5 reads chunks_fts's term index when they are queried.
// Made with the file, or added when a writer first opens an index written
// before them.
var vocabTables = []string{
	`CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, row)`,
	`CREATE VIRTUAL TABLE IF NOT EXISTS chunks_instances USING fts5vocab(chunks_fts, instance)`,
}

// addVocab adds vocabTables to an index written before them, as its
// tables read at open (f) say: opening an index that has them never
// waits for the write lock.
func (s *Store) addVocab(ctx context.Context, f *fileInfo) error {
	if f.hasVocab() {
		return nil
	}
	for _, q := range vocabTables {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// hasVocab reports whether the index had vocabTables when it was opened.
func (f *fileInfo) hasVocab() bool {
	return f.tables["chunks_vocab"] && f.tables["chunks_instances"]
}

// maxVocabRead bounds the terms Respell reads at once: the terms of one
// first letter in an index of a million passages are well under it.
const maxVocabRead = 200_000

// respellStems is how many of the nearest stems Respell reads the
// spellings of.
const respellStems = 8

// spellingRows bounds the passages read for a stem's spellings.
const spellingRows = 16

// spellingSpan bounds the passages holding a stem that spellingRows are
// picked from: a stem of a million passages costs no more than one of a
// few thousand.
const spellingSpan = 1024

// spread returns at most n of ids, evenly spaced: passages from all over
// the index spell a stem in more ways than the first few, which are often
// one note's.
func spread(ids []int64, n int) []int64 {
	if len(ids) <= n {
		return ids
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = ids[i*len(ids)/n]
	}
	return out
}

// MinRespelled is the shortest word Respell respells: a shorter one is
// one edit from too many others to guess which was meant.
const MinRespelled = 4

// MaxEdits is how far a word may be from the word Respell suggests for
// it: none under MinRespelled characters, one edit up to 7, two from 8
// (as search engines commonly allow).
func MaxEdits(word string) int {
	switch n := utf8.RuneCountInString(word); {
	case n < MinRespelled:
		return 0
	case n < 8:
		return 1
	default:
		return 2
	}
}

// maxSuffix is how many more edits a spelling may be from the word than
// its stem is from the word's stem: the endings stemming takes off
// ("recieve" is one edit from the stem of "receives", two from it), up to
// a third of the word's letters (Respell).
const maxSuffix = 3

// maxStripped is the most characters stemming takes off a word's end
// ("ational" of "relational", "ations" of "animations"): a stem that
// much shorter than the word may still be a start of it.
const maxStripped = 7

// near is an indexed stem near a word, and how many rows hold it.
type near struct {
	stem     string
	rows     int
	distance int
	// stemNear says stem is near the word's stem, not only near a start
	// of the word: its spellings may then be up to maxSuffix edits
	// farther from the word than MaxEdits allows.
	stemNear bool
}

// Respell returns the word nearest to word (lower case, folded as the
// index folds text) that the keyword index holds, spelled as a passage
// spells it; "" when none is near (MaxEdits). A misspelling seldom gets
// the first letter wrong, and the index reads its terms in order, so only
// the terms of that letter are compared (of its first two, first:
// nearStems). The index holds stems, which
// name no word a person types ("reactiv" for "reactivity" and
// "reactive"), so a stem is near when it is near the word's stem, or near
// a start of the word ("compon", from "component", for "compnent", whose
// stem keeps its "ent") and one of its spellings is near the word; the
// spellings the passages holding the nearest stems use are then compared
// with the word itself. An index written before vocabTables has none to
// offer: "".
func (s *Reader) Respell(ctx context.Context, word string) (string, error) {
	maxDist := MaxEdits(word)
	if !s.vocab || maxDist < 1 {
		return "", nil
	}
	stems, err := Stems(ctx, []string{word})
	if err != nil {
		return "", err
	}
	cands, err := s.nearStems(ctx, []rune(word), []rune(stems[0]), maxDist)
	if err != nil {
		return "", err
	}
	if cands, err = s.swappedStems(ctx, word, stems[0], cands); err != nil {
		return "", err
	}
	type pick struct {
		word            string
		d, rows, end, n int
	}
	best := pick{d: maxDist + maxSuffix + 1}
	// A spelling whose stem is near the word's may be farther from the
	// word by the endings stemming takes off, but never change more than
	// a third of its letters: "scarc" (of "scarcely") is one edit from
	// "scarf", "scarcely" four.
	stemmedDist := max(maxDist, min(maxDist+maxSuffix, utf8.RuneCountInString(word)/3))
	for i, c := range cands {
		// The stems come nearest first, and a spelling is seldom nearer
		// to the word than its stem is: once one is as near as the next
		// stem, the rest are not read (each costs a read of passages).
		if i > 0 && best.d <= c.distance && best.word != "" {
			break
		}
		spellings, err := s.spellings(ctx, c.stem)
		if err != nil {
			return "", err
		}
		for _, sp := range spellings {
			lower := strings.ToLower(sp.word)
			if MaxEdits(lower) == 0 { // too short to respell, too short to be one: "graf" is not "gra"
				continue
			}
			allowed := maxDist // only a start of it is near: "how" is not "hooch"
			if c.stemNear {
				allowed = stemmedDist
			}
			p := pick{sp.word, EditDistance([]rune(word), []rune(lower), allowed), c.rows, sameEnd(word, lower), sp.n}
			if p.d > allowed {
				continue
			}
			if better(p.d, best.d, p.rows, best.rows, p.end, best.end, p.n, best.n) {
				best = p
			}
		}
	}
	return best.word, nil
}

// nearStems returns the indexed stems within maxDist edits of word's stem
// (fewer for a short stem), or of a start of the word no shorter than the
// word less maxStripped, nearest first and, as near, the longer (more of
// the word explained), then those more rows hold: at most respellStems.
// It reads the stems that start with the stem's first letter; in an
// index of more than narrowRows passages, those of its first two letters
// first, and the rest of the letter's only when none of them is near:
// reading a stem costs a pass over the rows that hold it (FTS5 counts
// them), and a letter's stems hold some tenth of an index's words. There,
// a misspelled second letter is found only when no stem of the two
// letters typed is near.
func (s *Reader) nearStems(ctx context.Context, word, stem []rune, maxDist int) ([]near, error) {
	if len(stem) == 0 {
		return nil, nil
	}
	if rows, err := s.KeywordRows(ctx); err != nil {
		return nil, err
	} else if rows > narrowRows && len(stem) > 1 {
		cands, err := s.nearIn(ctx, word, stem, maxDist, stem[:2])
		if err != nil || len(cands) > 0 {
			return cands, err
		}
	}
	return s.nearIn(ctx, word, stem, maxDist, stem[:1])
}

// narrowRows is the index size, in passages, from which nearStems reads
// the stems of two letters first: the stems of one letter cost some 5–15
// ms at 9,000 passages, and their cost grows with the index.
var narrowRows = 20_000 // replaced in tests

// nearIn is nearStems over the stems that start with start.
func (s *Reader) nearIn(ctx context.Context, word, stem []rune, maxDist int, start []rune) ([]near, error) {
	end := slices.Clone(start)
	end[len(end)-1]++
	rows, err := s.query(ctx, `SELECT term, doc FROM chunks_vocab WHERE term >= ? AND term < ? LIMIT ?`,
		string(start), string(end), maxVocabRead)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	// Stems are shorter than words, and as many edits change more of
	// them: "chocol" is two from "choos".
	stemDist := min(maxDist, MaxEdits(string(stem)))
	var cands []near
	for rows.Next() {
		var c near
		if err := rows.Scan(&c.stem, &c.rows); err != nil {
			return nil, err
		}
		r := []rune(c.stem)
		c.distance = maxDist + 1
		if d := EditDistance(stem, r, stemDist); d <= stemDist {
			c.distance, c.stemNear = d, true
		}
		if len(r) >= max(3, len(word)-maxStripped) {
			c.distance = min(c.distance, prefixDistance(word, r, maxDist))
		}
		if c.distance <= maxDist && c.stem != string(stem) {
			cands = append(cands, c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(cands, func(a, b near) int {
		if a.distance != b.distance {
			return a.distance - b.distance
		}
		if len(a.stem) != len(b.stem) { // more of the word explained
			return len(b.stem) - len(a.stem)
		}
		if a.rows != b.rows {
			return b.rows - a.rows
		}
		return strings.Compare(a.stem, b.stem)
	})
	return cands[:min(respellStems, len(cands))], nil
}

// better compares two spellings: the nearer, then the one whose stem
// more rows hold, then the one ending as the word typed does for longer
// ("dispatched" for "dispatchd", not "dispatch"), then the one the
// passages read use more.
func better(d, bestD, rows, bestRows, end, bestEnd, n, bestN int) bool {
	for _, c := range [][2]int{{bestD, d}, {rows, bestRows}, {end, bestEnd}, {n, bestN}} {
		if c[0] != c[1] {
			return c[0] > c[1]
		}
	}
	return false
}

// sameEnd is how many trailing characters a and b share.
func sameEnd(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// spelling is a word as passages spell it (mixedCase kept, else lower
// case), and how often the passages read hold it.
type spelling struct {
	word string
	n    int
}

// spellings returns the words, as the passages holding stem spell them,
// that the index reads as stem: from the few rows that hold it first, in
// the order met. They are found through chunks_instances, by the stem
// itself: a stem asked for in a MATCH would be stemmed again, and stemming
// a stem does not always give it back ("suspens" becomes "suspen").
func (s *Reader) spellings(ctx context.Context, stem string) ([]spelling, error) {
	rows, err := s.query(ctx, `SELECT DISTINCT doc FROM chunks_instances WHERE term = ? LIMIT ?`, stem, spellingSpan)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return nil, err
	}
	ids = spread(ids, spellingRows)
	ps, err := s.Passages(ctx, ids)
	if err != nil {
		return nil, err
	}
	texts := make([]string, 0, 4*len(ids))
	for _, id := range ids {
		kw := ps[id].Keywords
		texts = append(texts, kw[:]...)
	}
	// Words that start as the stem does, first: stemming keeps a word's
	// start but for its last letters (and diacritics, which it removes;
	// then every word is read).
	out, err := spellingsIn(ctx, texts, stem, startOf(stem))
	if err != nil || len(out) > 0 {
		return out, err
	}
	return spellingsIn(ctx, texts, stem, "")
}

// startOf is the start of stem that the words it stems from share: all
// but its last two letters, at least one.
func startOf(stem string) string {
	r := []rune(stem)
	return string(r[:max(1, len(r)-2)])
}

// spellingsIn returns the words of texts that start with start (in any case)
// and whose stem is stem, one spelling a word whatever its case: lower
// case, or mixed case where a passage writes it so ("defineProps", not
// "Reactivity" at the start of a heading).
func spellingsIn(ctx context.Context, texts []string, stem, start string) ([]spelling, error) {
	at := map[string]int{}
	var out []spelling
	var lower []string
	for _, text := range texts {
		for _, w := range strings.FieldsFunc(text, notWordRune) {
			if len(w) < len(start) || !strings.EqualFold(w[:len(start)], start) {
				continue
			}
			l := strings.ToLower(w)
			i, ok := at[l]
			if !ok {
				i = len(out)
				at[l] = i
				out = append(out, spelling{word: l})
				lower = append(lower, l)
			}
			out[i].n++
			if mixedCase(w) {
				out[i].word = w
			}
		}
	}
	stems, err := Stems(ctx, lower)
	if err != nil {
		return nil, err
	}
	kept := out[:0]
	for i, sp := range out {
		if stems[i] == stem {
			kept = append(kept, sp)
		}
	}
	return kept, nil
}

// mixedCase reports whether w has an upper-case letter after its first
// character and a lower-case one, as code names do ("defineProps", not
// "Reactivity" or "API").
func mixedCase(w string) bool {
	_, size := utf8.DecodeRuneInString(w)
	return strings.ToLower(w[size:]) != w[size:] && strings.ToUpper(w) != w
}

// WordRune reports whether r is part of a word as a query's words are
// read (and the engine reads them: letters, numbers, marks and
// private-use characters); other characters split words.
func WordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Co, r)
}

func notWordRune(r rune) bool { return !WordRune(r) }

// EditDistance is the number of single-character insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (optimal
// string alignment), or max+1 when it is more than max: the count stops
// there, so far-apart words cost as much as near ones.
func EditDistance(a, b []rune, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	whole, _ := editTable(a, b, max)
	return whole
}

// prefixDistance is the least EditDistance from a start of a (a itself
// included) to b, or max+1 when that is more than max.
func prefixDistance(a, b []rune, max int) int {
	_, prefix := editTable(a, b, max)
	return prefix
}

// editTable fills the edit table of a against b row by row (a row a
// character of a) and returns its last cell, the distance from a to b, and
// the least cell of its last column, the distance from the nearest start
// of a to b; each max+1 when more than max. It stops at a row whose every
// cell is over max: no later cell can be less.
func editTable(a, b []rune, max int) (whole, prefix int) {
	// Three rows of the table: two back for swaps.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	prefix = len(b)
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			low = min(low, c)
		}
		prefix = min(prefix, cur[len(b)])
		if low > max {
			return max + 1, min(prefix, max+1)
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], max+1), min(prefix, max+1)
}

// WidenPrefix is the prefix a query's "word*" asks the keyword index for:
// prefix itself where some indexed term starts with it, else the longest
// indexed stem of a word the prefix begins ("validatio" begins
// "validation", held as "valid"), found by stemming the prefix with the
// endings that most often complete one (widenEndings). The index holds
// stems, so "validatio*" found nothing; it is "valid*". A prefix no
// such word's stem answers stays as typed, and so does every prefix of an
// index written before vocabTables.
func (s *Reader) WidenPrefix(ctx context.Context, prefix string) (string, error) {
	if !s.vocab || utf8.RuneCountInString(prefix) <= minPrefix {
		return prefix, nil
	}
	var starts bool
	err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM chunks_vocab WHERE term >= ? AND term < ?)`,
		prefix, prefix+string(utf8.MaxRune)).Scan(&starts)
	if err != nil || starts {
		return prefix, err
	}
	words := make([]string, len(widenEndings))
	for i, end := range widenEndings {
		words[i] = prefix + end
	}
	stems, err := Stems(ctx, words)
	if err != nil {
		return prefix, err
	}
	var cands []any
	for _, st := range stems {
		if utf8.RuneCountInString(st) >= minPrefix && st != prefix && !slices.Contains(cands, any(st)) {
			cands = append(cands, st)
		}
	}
	if len(cands) == 0 {
		return prefix, nil
	}
	held, err := column[string](s.r.QueryContext(ctx, `SELECT term FROM chunks_vocab WHERE term IN (?`+strings.Repeat(",?", len(cands)-1)+`)`, cands...))
	if err != nil {
		return prefix, err
	}
	best := prefix
	for _, st := range held {
		if best == prefix || utf8.RuneCountInString(st) > utf8.RuneCountInString(best) {
			best = st
		}
	}
	return best, nil
}

// widenEndings complete a prefix into the words WidenPrefix stems: the
// prefix itself and its likeliest endings ("validatio" + "n").
var widenEndings = []string{"", "e", "s", "n", "r", "t", "y", "g", "d", "l", "h", "on", "ng", "ve", "ce", "ion", "ing", "ed", "al", "ity", "ive", "ble", "ment", "ation"}

// minPrefix is the shortest prefix WidenPrefix widens, and the shortest
// stem it widens one to: a prefix of three letters or fewer matches too
// much.
const minPrefix = 3
