package store

import (
	"context"
	"math"
	"strings"
	"unicode/utf8"
)

// matchInGo is MatchFields' reading of rows in Go: the expressions are
// matched on the rows' tokens and stems as FTS5 would match them in a
// table of those rows alone, and scored by FTS5's bm25 over that table.
// It returns errNotInGo where it cannot vouch for the answer: the
// scratch table must answer then.
func matchInGo(ctx context.Context, exprs []string, rows map[int64][4]string) ([]map[int64]FieldScores, error) {
	parsed := make([]fieldExpr, len(exprs))
	for i, e := range exprs {
		x, ok := parseFieldExpr(e)
		if !ok {
			return nil, errNotInGo
		}
		parsed[i] = x
	}
	tk, err := newTokenizer(ctx, func(yield func(string) bool) {
		for _, r := range rows {
			for _, c := range r {
				if !yield(c) {
					return
				}
			}
		}
		for _, x := range parsed {
			for _, ph := range x.phrases {
				for _, it := range ph {
					if !yield(it.text) {
						return
					}
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	// Each expression's phrases as words; a phrase Go reads no token in
	// is left to SQLite.
	var qv vocab
	qs := make([][][]queryToken, len(parsed))
	for i, x := range parsed {
		for _, ph := range x.phrases {
			var toks []queryToken
			for _, it := range ph {
				n := len(toks)
				if !tk.tokens(it.text, func(s, e int) { toks = append(toks, queryToken{word: qv.id(it.text[s:e])}) }) || len(toks) == n {
					return nil, errNotInGo
				}
				toks[len(toks)-1].prefix = it.prefix
			}
			qs[i] = append(qs[i], toks)
		}
	}
	qstems, err := stemTokens(ctx, qv.keys)
	if err != nil {
		return nil, err
	}
	// The rows' tokens, as words where their stem may be one of the
	// query's or begin with one (stemFilter), else as 0: only those
	// words are stemmed.
	f := newStemFilter(qstems)
	var rv vocab
	m := matchRows{ids: make([]int64, 0, len(rows))}
	for id := range rows {
		m.ids = append(m.ids, id)
	}
	m.cols = make([][4][]int32, len(m.ids))
	m.hits = make([][4][]int32, len(m.ids))
	for k, id := range m.ids {
		for c, text := range rows[id] {
			toks, hits := make([]int32, 0, len(text)/5), []int32(nil)
			if !tk.tokens(text, func(s, e int) {
				w := int32(0)
				if f.may(text[s:e]) {
					w = rv.id(text[s:e]) + 1
					hits = append(hits, int32(len(toks)))
				}
				toks = append(toks, w)
			}) {
				return nil, errNotInGo
			}
			m.cols[k][c], m.hits[k][c] = toks, hits
		}
	}
	rstems, err := stemTokens(ctx, rv.keys)
	if err != nil {
		return nil, err
	}
	m.stem(rstems, qstems, qs)
	out := make([]map[int64]FieldScores, len(exprs))
	for i, x := range parsed {
		out[i] = m.score(qs[i], x.near)
	}
	return out, nil
}

// vocab numbers the distinct tokens of one call by the form their stem
// is asked and remembered under: lower case when ASCII (unicode61 folds
// ASCII so and no other way), as written otherwise.
type vocab struct {
	ids  map[string]int32
	keys []string
	buf  []byte
}

func (v *vocab) id(tok string) int32 {
	if v.ids == nil {
		v.ids = map[string]int32{}
	}
	key := tok
	if lower, ok := asciiLower(tok, v.buf[:0]); ok {
		v.buf = lower
		if id, ok := v.ids[string(lower)]; ok { // no copy made to look up
			return id
		}
		key = string(lower)
	} else if id, ok := v.ids[tok]; ok {
		return id
	}
	id := int32(len(v.keys))
	v.ids[key] = id
	v.keys = append(v.keys, key)
	return id
}

// asciiLower appends tok in lower case to buf when tok is ASCII and has
// a capital, else reports false.
func asciiLower(tok string, buf []byte) ([]byte, bool) {
	upper := false
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= utf8.RuneSelf {
			return buf, false
		}
		upper = upper || c >= 'A' && c <= 'Z'
	}
	if !upper {
		return buf, false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}

// queryToken is one token of an expression's phrase: a word of the
// query, then its stem; a prefix token matches every stem it begins.
type queryToken struct {
	word   int32
	stem   int32
	prefix bool
}

// matchRows are the rows of one call, each column's tokens as stem ids:
// 0 for a token no query stem can match.
type matchRows struct {
	ids     []int64
	cols    [][4][]int32 // word ids (from 1), then stem ids
	hits    [][4][]int32 // the offsets in cols whose token has a word id
	stems   []string     // by stem id; stems[0] is none
	phrases map[string][][]int64
}

// stem numbers the distinct stems of the rows' words (rstems, by word
// id less 1) and of the query's (qstems), and rewrites the rows' tokens
// and the phrases qs with them.
func (m *matchRows) stem(rstems, qstems []string, qs [][][]queryToken) {
	ids := make(map[string]int32, len(rstems)+len(qstems))
	m.stems = []string{""}
	number := func(s string) int32 {
		id, ok := ids[s]
		if !ok {
			id = int32(len(m.stems))
			ids[s] = id
			m.stems = append(m.stems, s)
		}
		return id
	}
	words := make([]int32, len(rstems)+1)
	for w, s := range rstems {
		words[w+1] = number(s)
	}
	for k := range m.cols {
		for c := range m.cols[k] {
			for p, w := range m.cols[k][c] {
				m.cols[k][c][p] = words[w]
			}
		}
	}
	for _, phs := range qs {
		for _, ph := range phs {
			for j := range ph {
				ph[j].stem = number(qstems[ph[j].word])
			}
		}
	}
}

// instances are the positions (column << 32 | offset, FTS5's order)
// where phrase ph starts in each row, nil where it does not occur.
// Phrases asked again are remembered.
func (m *matchRows) instances(ph []queryToken) [][]int64 {
	var key strings.Builder
	for _, t := range ph {
		key.WriteString(m.stems[t.stem])
		if t.prefix {
			key.WriteByte('*')
		}
		key.WriteByte(0)
	}
	if got, ok := m.phrases[key.String()]; ok {
		return got
	}
	// One test per token: its stem id, or the stems it is a prefix of.
	type test struct {
		stem int32
		set  []bool
	}
	tests := make([]test, len(ph))
	for j, t := range ph {
		tests[j].stem = t.stem
		if t.prefix {
			tests[j].set = make([]bool, len(m.stems))
			for id, st := range m.stems[1:] {
				tests[j].set[id+1] = strings.HasPrefix(st, m.stems[t.stem])
			}
		}
	}
	is := func(j int, s int32) bool {
		if tests[j].set != nil {
			return tests[j].set[s]
		}
		return s == tests[j].stem
	}
	out := make([][]int64, len(m.ids))
	for k := range m.cols {
		for c, col := range m.cols[k] {
		next:
			for _, p := range m.hits[k][c] { // a phrase starts where a query stem may
				if int(p)+len(ph) > len(col) {
					break
				}
				for j := range ph {
					if !is(j, col[int(p)+j]) {
						continue next
					}
				}
				out[k] = append(out[k], int64(c)<<32|int64(p))
			}
		}
	}
	if m.phrases == nil {
		m.phrases = map[string][][]int64{}
	}
	m.phrases[key.String()] = out
	return out
}

// score matches one expression (its phrases; near < 0: one phrase, no
// NEAR) and scores each matching row per column with FTS5's bm25 over
// these rows: weights 1 for the column and 0 for the rest, D the row's
// tokens, avgdl the rows' mean, each phrase's idf from the rows it
// occurs in (floored at 1e-6).
func (m *matchRows) score(phrases [][]queryToken, near int) map[int64]FieldScores {
	out := map[int64]FieldScores{}
	lists := make([][][]int64, len(phrases))
	lens := make([]int, len(phrases))
	var total int64
	for k := range m.cols {
		for _, col := range m.cols[k] {
			total += int64(len(col))
		}
	}
	n := int64(len(m.ids))
	idf := make([]float64, len(phrases))
	for i, ph := range phrases {
		lists[i] = m.instances(ph)
		lens[i] = len(ph)
		var hit int64
		for _, l := range lists[i] {
			if len(l) > 0 {
				hit++
			}
		}
		idf[i] = math.Log((float64(n-hit) + 0.5) / (float64(hit) + 0.5))
		if idf[i] <= 0 {
			idf[i] = 1e-6
		}
	}
	avgdl := float64(total) / float64(n)
	k1, b := 1.2, 0.75 // float64 arithmetic from here, as in C: 1.2+1 is not the constant 2.2
	inst := make([][]int64, len(phrases))
	freq := make([][4]float64, len(phrases))
	for k, id := range m.ids {
		for i := range phrases {
			inst[i] = lists[i][k]
		}
		if !matched(inst, lens, near) {
			continue
		}
		var d int
		for _, col := range m.cols[k] {
			d += len(col)
		}
		D := float64(d)
		for i := range freq {
			freq[i] = [4]float64{}
			for _, pos := range inst[i] {
				freq[i][pos>>32]++
			}
		}
		var f FieldScores
		for c := range f {
			var score float64
			for i := range phrases {
				x := freq[i][c]
				score += idf[i] * (x * (k1 + 1) / (x + k1*(1-b+b*D/avgdl)))
			}
			f[c] = score
		}
		out[id] = f
	}
	return out
}

// matched reports whether a row whose phrases start at inst matches;
// for a NEAR group it keeps in inst only the instances FTS5 keeps.
func matched(inst [][]int64, lens []int, near int) bool {
	for _, l := range inst {
		if len(l) == 0 {
			return false
		}
	}
	if near < 0 {
		return true
	}
	kept := nearInstances(inst, lens, near)
	copy(inst, kept)
	return len(kept[0]) > 0
}

// nearInstances are the instances of a NEAR group's phrases (each list
// ordered, none empty, phrase i lens[i] tokens long) that FTS5 keeps:
// it sweeps the lists together, each at a current instance with the
// next in view; while some phrase starts before the latest start less
// its length and the distance, or after that start, the lagging ones
// move on (the latest start moving with them); every set of current
// instances that fits is kept, and the list whose next instance comes
// first (the earliest listed among equals) moves on, until one runs out.
// Keeping FTS5's sweep, not merely its condition, keeps bm25's counts.
func nearInstances(lists [][]int64, lens []int, near int) [][]int64 {
	const end = int64(1) << 62
	type cursor struct {
		list      []int64
		at, ahead int64
		i         int
	}
	step := func(c *cursor) bool { // reports whether c ran out
		c.at = c.ahead
		c.ahead = end
		if c.i < len(c.list) {
			c.ahead = c.list[c.i]
			c.i++
		}
		return c.at == end
	}
	cs := make([]cursor, len(lists))
	for i, l := range lists {
		cs[i].list = l
		step(&cs[i])
		step(&cs[i])
	}
	kept := make([][]int64, len(lists))
	for {
		latest := cs[0].at
		for fits := false; !fits; {
			fits = true
			for i := range cs {
				earliest := latest - int64(lens[i]) - int64(near)
				if cs[i].at >= earliest && cs[i].at <= latest {
					continue
				}
				fits = false
				for cs[i].at < earliest {
					if step(&cs[i]) {
						return kept
					}
				}
				latest = max(latest, cs[i].at)
			}
		}
		for i := range cs {
			if k := kept[i]; len(k) == 0 || k[len(k)-1] != cs[i].at {
				kept[i] = append(kept[i], cs[i].at)
			}
		}
		next := 0
		for i := range cs {
			if cs[i].ahead < cs[next].ahead {
				next = i
			}
		}
		if step(&cs[next]) {
			return kept
		}
	}
}
