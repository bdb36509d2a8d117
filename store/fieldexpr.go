package store

import (
	"strconv"
	"strings"
)

// fieldExpr is a MATCH expression of the shapes the second stage asks
// MatchFields about, as FTS5 reads them: one phrase (a quoted string or a
// bare word, a trailing * making its last token a prefix; strings joined
// by + make one phrase), or NEAR(phrase phrase ..., N). Its phrases are
// still text: tokens come once the characters' classes are known.
type fieldExpr struct {
	phrases [][]exprItem // one phrase, or a NEAR group's
	near    int          // the NEAR group's distance; -1: no NEAR
}

// exprItem is one string of a phrase, and whether its last token is a
// prefix.
type exprItem struct {
	text   string
	prefix bool
}

// maxNear bounds the NEAR distance read in Go.
const maxNear = 1 << 20

// parseFieldExpr reads e, or reports false for any other shape (column
// filters, AND/OR/NOT, ^, escaped quotes, whitespace other than spaces),
// which MatchFields leaves to SQLite.
func parseFieldExpr(e string) (fieldExpr, bool) {
	p := exprParser{s: e}
	p.space()
	if strings.HasPrefix(p.s[p.i:], "NEAR(") {
		p.i += len("NEAR(")
		x := fieldExpr{near: 10}
		for {
			p.space()
			if p.i < len(p.s) && (p.s[p.i] == ',' || p.s[p.i] == ')') {
				break
			}
			ph, ok := p.phrase()
			if !ok {
				return fieldExpr{}, false
			}
			x.phrases = append(x.phrases, ph)
		}
		if p.s[p.i] == ',' {
			p.i++
			p.space()
			start := p.i
			for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
				p.i++
			}
			n, err := strconv.Atoi(p.s[start:p.i])
			if err != nil || n > maxNear {
				return fieldExpr{}, false
			}
			x.near = n
			p.space()
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' || len(x.phrases) < 2 {
			return fieldExpr{}, false
		}
		p.i++
		p.space()
		return x, p.i == len(p.s)
	}
	ph, ok := p.phrase()
	p.space()
	if !ok || p.i != len(p.s) {
		return fieldExpr{}, false
	}
	return fieldExpr{phrases: [][]exprItem{ph}, near: -1}, true
}

type exprParser struct {
	s string
	i int
}

func (p *exprParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// phrase reads items joined by +.
func (p *exprParser) phrase() ([]exprItem, bool) {
	var out []exprItem
	for {
		p.space()
		it, ok := p.item()
		if !ok {
			return nil, false
		}
		out = append(out, it)
		save := p.i
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '+' {
			p.i++
			continue
		}
		p.i = save
		return out, true
	}
}

// item reads a quoted string or a bare word, and a * right after it.
func (p *exprParser) item() (exprItem, bool) {
	var it exprItem
	switch {
	case p.i < len(p.s) && p.s[p.i] == '"':
		end := strings.IndexByte(p.s[p.i+1:], '"')
		if end < 0 {
			return it, false
		}
		it.text = p.s[p.i+1 : p.i+1+end]
		p.i += end + 2
		if p.i < len(p.s) && p.s[p.i] == '"' { // "" is a quote inside the string
			return it, false
		}
	default:
		start := p.i
		for p.i < len(p.s) && bareword(p.s[p.i]) {
			p.i++
		}
		it.text = p.s[start:p.i]
		switch it.text {
		case "", "AND", "OR", "NOT", "NEAR":
			return it, false
		}
	}
	if p.i < len(p.s) && p.s[p.i] == '*' {
		it.prefix = true
		p.i++
	}
	return it, true
}

// bareword reports whether FTS5 reads byte c as part of a bare word.
func bareword(c byte) bool {
	return c >= 0x80 || c == '_' || c == 0x1A || c < 0x80 && asciiWord[c]
}
