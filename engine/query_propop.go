package engine

import (
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch"
)

// propertyOperator reads Obsidian's [property:value] at fields[i]: the
// property's name, its value (which may run over several fields, or be
// quoted) and the index of its last field. Only the form with a value is
// read: "[status]" (Obsidian's "has the property") is too often text in a
// pasted sentence, and so is a bracket that opens inside a word
// ("arr[i:j]"), names no property ("[1:3]") or never closes.
func propertyOperator(fields []string, i int) (name, val string, last int, ok bool) {
	f := fields[i]
	colon := strings.IndexByte(f, ':')
	if !strings.HasPrefix(f, "[") || colon < 0 || !propertyName(f[1:colon]) {
		return "", "", 0, false
	}
	name, acc := f[1:colon], f[colon+1:]
	for last = i; !strings.HasSuffix(acc, "]") || strings.Count(acc, `"`)%2 == 1; {
		if last++; last == len(fields) {
			return "", "", 0, false
		}
		acc += " " + fields[last]
	}
	val = strings.TrimSpace(acc[:len(acc)-1])
	if len(val) >= 2 && strings.HasPrefix(val, `"`) && strings.HasSuffix(val, `"`) {
		val = strings.TrimSpace(val[1 : len(val)-1])
	}
	if val == "" || strings.ContainsAny(val, `"[]`) {
		return "", "", 0, false
	}
	return name, val, last, true
}

// propertyName reports whether s can name a property in [name:value]: a
// letter first, then letters, digits, '_', '-' or '.' (a field inside a
// map, as --where reads it).
func propertyName(s string) bool {
	for i, r := range s {
		if !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r) && !strings.ContainsRune("_-.", r)) {
			return false
		}
	}
	return s != ""
}

// withProperties adds the query's [property:value] operators to the
// request's where conditions (a copy: the caller's map is left alone). A
// property given two values, or a value with Obsidian's OR, is an error: a
// condition holds one value, and a note's property one of them.
func withProperties(req mdsearch.SearchRequest, props [][2]string) (mdsearch.SearchRequest, error) {
	if len(props) == 0 {
		return req, nil
	}
	where := make(map[string]string, len(req.Where)+len(props))
	for k, v := range req.Where {
		where[k] = v
	}
	for _, p := range props {
		if strings.Contains(p[1], " OR ") {
			return req, mdsearch.Errorf(mdsearch.KindInvalid, "", "", "",
				"[%s:%s]: one value per property; search once for each value", p[0], p[1])
		}
		k := p[0]
		for have, v := range where {
			if strings.EqualFold(have, k) {
				if !strings.EqualFold(strings.TrimSpace(v), p[1]) {
					return req, mdsearch.Errorf(mdsearch.KindInvalid, "", "", "",
						"property %s is given two values (%q and %q), and a note holds one: drop one", k, v, p[1])
				}
				k = have
			}
		}
		where[k] = p[1]
	}
	req.Where = where
	return req, nil
}
