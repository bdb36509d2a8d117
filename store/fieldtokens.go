package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/internal/swar"
)

// MatchFields reads the candidates' keyword rows in Go the way the keyword
// index's tokenizer does (unicode61, remove_diacritics 2, under porter):
// a token starts at a word character and runs on through word characters
// and diacritics; a diacritic cannot start one. How each character reads
// is asked of SQLite itself, once per process (learnRunes): its tables
// are not Go's (SQLite takes unassigned code points for letters, for one).
// Stems come from SQLite's porter too (stemTokens).

// Rune classes, as the tokenizer reads a character.
const (
	classUnknown uint8 = iota // not asked of SQLite yet
	classSep                  // separates tokens
	classWord                 // starts or continues a token
	classMark                 // continues a token, never starts one
	classOdd                  // read some other way: leave it to SQLite
)

// asciiWord are the ASCII characters unicode61 keeps in tokens: letters
// and digits (TestFieldTokenizerASCII checks every other one separates).
var asciiWord = func() (w [128]bool) {
	for c := range w {
		w[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return w
}()

// maxRuneClasses bounds the remembered classes; a text of every script
// could reach it, and then they are asked again.
const maxRuneClasses = 200_000

var runeClasses = struct {
	sync.RWMutex
	m map[rune]uint8
}{m: map[rune]uint8{}}

// maxToken is the longest token Go reads; FTS5 cuts a token over 32 KB
// when it writes it, which MatchFields leaves to SQLite.
const maxToken = 32 << 10

// errNotInGo says MatchFields' Go path cannot answer exactly, and the
// scratch table must.
var errNotInGo = errors.New("store: not matched in Go")

// tokenizer splits texts into tokens with the classes it holds, a copy of
// the remembered ones for the runes its texts hold.
type tokenizer struct {
	classes map[rune]uint8
}

// newTokenizer learns the class of every non-ASCII character of texts.
func newTokenizer(ctx context.Context, texts func(yield func(string) bool)) (*tokenizer, error) {
	tk := &tokenizer{classes: map[rune]uint8{}}
	var unknown []rune
	runeClasses.RLock()
	for s := range texts {
		if swar.ASCII(s) {
			continue
		}
		for i := 0; i < len(s); i++ {
			if s[i] < utf8.RuneSelf {
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n - 1
			if _, ok := tk.classes[r]; ok {
				continue
			}
			c := runeClasses.m[r]
			tk.classes[r] = c
			if c == classUnknown && (r != utf8.RuneError || n > 1) { // not an invalid byte
				unknown = append(unknown, r)
			}
		}
	}
	runeClasses.RUnlock()
	if len(unknown) == 0 {
		return tk, nil
	}
	learned, err := learnRunes(ctx, unknown)
	if err != nil {
		return nil, err
	}
	runeClasses.Lock()
	if len(runeClasses.m)+len(learned) > maxRuneClasses {
		clear(runeClasses.m)
	}
	for r, c := range learned {
		runeClasses.m[r] = c
		tk.classes[r] = c
	}
	runeClasses.Unlock()
	return tk, nil
}

// tokens calls fn with the byte range of each token of s, in order, and
// reports false when s holds what the Go reading cannot vouch for
// (invalid UTF-8, a NUL, a character of class odd, a token over maxToken).
func (tk *tokenizer) tokens(s string, fn func(start, end int)) bool {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf { // the common case: ASCII, read a run at a time
			if asciiWord[c] {
				if start < 0 {
					start = i
				}
				for i++; i < len(s) && s[i] < utf8.RuneSelf && asciiWord[s[i]]; i++ {
				}
				continue
			}
			if c == 0 {
				return false
			}
			if start >= 0 {
				if i-start > maxToken {
					return false
				}
				fn(start, i)
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		switch tk.classes[r] {
		case classWord:
			if start < 0 {
				start = i
			}
		case classMark: // within a token it goes on; before one it is skipped
		case classSep:
			if start >= 0 {
				if i-start > maxToken {
					return false
				}
				fn(start, i)
				start = -1
			}
		default:
			return false
		}
		i += size
	}
	if start >= 0 {
		if len(s)-start > maxToken {
			return false
		}
		fn(start, len(s))
	}
	return true
}

// probeMarker separates the probes of one row: no probe's tokens can be
// it (each is one character's fold, or holds q).
const probeMarker = "x0"

// learnRunes asks SQLite's tokenizer (without porter) how it reads each
// of runes. Each gets a probe, "x0 r qrq": a word character makes a token
// of its own and joins "qrq"; a diacritic joins "qrq" only; a separator
// splits "q q". Anything else (a word character that folds to nothing,
// which would make an empty token) is odd.
func learnRunes(ctx context.Context, runes []rune) (map[rune]uint8, error) {
	var b strings.Builder
	for _, r := range runes {
		b.WriteString(probeMarker + " ")
		b.WriteRune(r)
		b.WriteString(" q")
		b.WriteRune(r)
		b.WriteString("q ")
	}
	toks, err := scratchTokens(ctx, `u`, b.String())
	if err != nil {
		return nil, err
	}
	out := make(map[rune]uint8, len(runes))
	seg := -1
	var at []int // where each probe's tokens start in toks
	for i, t := range toks {
		if t.term == probeMarker {
			seg++
			at = append(at, i)
		}
	}
	if seg+1 != len(runes) {
		return nil, errNotInGo // the probes read back otherwise than planned
	}
	at = append(at, len(toks))
	for k, r := range runes {
		out[r] = probeClass(toks[at[k]:at[k+1]])
	}
	return out, nil
}

// probeClass reads one probe's tokens (its marker first).
func probeClass(toks []scratchToken) uint8 {
	if len(toks) == 0 {
		return classOdd
	}
	m := toks[0].offset
	rel := func(i int) int { return toks[i].offset - m }
	wrapped := func(s string) (string, bool) { // "qFq" → F
		if len(s) >= 2 && s[0] == 'q' && s[len(s)-1] == 'q' {
			return s[1 : len(s)-1], true
		}
		return "", false
	}
	switch len(toks) {
	case 3:
		if toks[1].term == "q" && toks[2].term == "q" && rel(1) == 1 && rel(2) == 2 {
			return classSep
		}
		f, ok := wrapped(toks[2].term)
		if ok && f != "" && f == toks[1].term && utf8.RuneCountInString(f) == 1 && rel(1) == 1 && rel(2) == 2 {
			return classWord
		}
	case 2:
		if f, ok := wrapped(toks[1].term); ok && rel(1) == 1 && utf8.RuneCountInString(f) <= 1 {
			return classMark
		}
	}
	return classOdd
}

// scratchToken is one token of a scratch table's row, as fts5vocab
// tells it.
type scratchToken struct {
	term   string
	offset int
}

// scratchTokens writes text as the only row of scratch table table (w:
// the keyword index's tokenizer; u: the same without porter) and reads
// its tokens back in order.
func scratchTokens(ctx context.Context, table, text string) ([]scratchToken, error) {
	conn, err := scratch.get(ctx)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() { scratch.put(conn, ok) }()
	if err := conn.table(ctx, table); err != nil {
		return nil, err
	}
	tx, err := conn.c.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+`(`+table+`) VALUES ('delete-all')`); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+`(rowid, word) VALUES (1, ?)`, text); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT term, offset FROM `+table+`v ORDER BY offset`)
	if err != nil {
		return nil, err
	}
	var out []scratchToken
	for rows.Next() {
		var t scratchToken
		if err := rows.Scan(&t.term, &t.offset); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	ok = true
	return out, nil
}

// stemTokens returns the stem of each of keys, each one token as the
// index's tokenizer reads it (tokenizer.tokens made them): remembered
// ones from the cache Stems keeps, the rest from one row of the scratch
// table, where the i-th token is the i-th new key's stem.
func stemTokens(ctx context.Context, keys []string) ([]string, error) {
	out := make([]string, len(keys))
	var ask []string
	var askAt []int
	stemCache.Lock()
	for i, k := range keys {
		if s, ok := stemCache.m[k]; ok {
			out[i] = s
		} else {
			ask = append(ask, k)
			askAt = append(askAt, i)
		}
	}
	stemCache.Unlock()
	if len(ask) == 0 {
		return out, nil
	}
	toks, err := scratchTokens(ctx, `w`, strings.Join(ask, " "))
	if err != nil {
		return nil, err
	}
	if len(toks) != len(ask) {
		return nil, errNotInGo // a key was not one token after all
	}
	stemCache.Lock()
	if len(stemCache.m)+len(ask) > maxStems {
		clear(stemCache.m)
	}
	for j, t := range toks {
		stemCache.m[strings.Clone(ask[j])] = t.term // not a slice of a whole row kept
		out[askAt[j]] = t.term
	}
	stemCache.Unlock()
	return out, nil
}

// stemFilter tells the row tokens whose stem may be one of a query's
// stems, or begin with one, from those whose stem cannot: only the first
// need stemming. FTS5's porter stemmer keeps a token's start: its steps
// cut endings off, always leaving the first byte, and put back at most 4
// bytes in place of an ending, never more than was cut (1B's "at" to "ate"
// only after cutting "ed" or "ing"). A stem is thus no longer than its
// token, and is the token's first j >= 1 bytes and at most 4 more: a
// token stems to s, or to a word starting with s, only if it is as long
// as s and starts as s does, in its first byte and its first len(s)-4.
// TestStemKeepsStart checks this on every word of the corpora.
type stemFilter struct {
	first [128][]filterStem // by the stem's first byte (ASCII)
}

type filterStem struct {
	start string // the stem's first max(1, len-4) bytes
	n     int    // its length
}

func newStemFilter(stems []string) *stemFilter {
	f := &stemFilter{}
	for _, s := range stems {
		if s == "" || s[0] >= utf8.RuneSelf {
			continue // no ASCII token's stem starts so; others all pass
		}
		f.first[s[0]] = append(f.first[s[0]], filterStem{s[:max(1, len(s)-4)], len(s)})
	}
	return f
}

// may reports whether token tok may stem to one of the stems or a word
// beginning with one. The filter reads ASCII tokens only, lower case as
// the tokenizer folds them; it passes any other.
func (f *stemFilter) may(tok string) bool {
	c := tok[0]
	if c >= utf8.RuneSelf {
		return true
	}
	if c >= 'A' && c <= 'Z' {
		c += 'a' - 'A'
	}
	cands := f.first[c]
	if len(cands) == 0 {
		return false // its first byte, folded, is its stem's
	}
	for i := 1; i < len(tok); i++ {
		if tok[i] >= utf8.RuneSelf {
			return true
		}
	}
next:
	for _, s := range cands {
		if len(tok) < s.n {
			continue
		}
		for i := 1; i < len(s.start); i++ {
			b := tok[i]
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			if b != s.start[i] {
				continue next
			}
		}
		return true
	}
	return false
}
