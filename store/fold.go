package store

import (
	"database/sql/driver"
	"strings"

	"golang.org/x/text/unicode/norm"
	"modernc.org/sqlite"

	"github.com/mdsearch/mdsearch/internal/swar"
)

// SQLite's lower() folds ASCII letters alone, and compares code points as
// they are stored: a path prefix in Cyrillic capitals, or a note name saved
// decomposed (macOS), would match nothing. fold(x) is x as filters compare
// it in any script: composed (NFC), lower case.
func init() {
	for name, f := range map[string]func(string) string{"fold": fold, "foldlink": foldLink} {
		sqlite.MustRegisterDeterministicScalarFunction(name, 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			switch v := args[0].(type) {
			case string:
				return f(v), nil
			case []byte:
				return f(string(v)), nil
			}
			return args[0], nil
		})
	}
}

// foldLink is fold of a value a frontmatter condition compares: a
// wikilink ("[[Budget 2024|the budget]]", "[[Roadmap#Q3]]") is the note
// it links to, so a link and its note's name match each other.
func foldLink(s string) string {
	if inner, ok := strings.CutPrefix(s, "[["); ok {
		if inner, ok = strings.CutSuffix(inner, "]]"); ok && !strings.Contains(inner, "]]") {
			inner, _, _ = strings.Cut(inner, "|")
			inner, _, _ = strings.Cut(inner, "#")
			s = strings.TrimSpace(inner)
		}
	}
	return fold(s)
}

func fold(s string) string {
	if swar.ASCII(s) {
		return strings.ToLower(s)
	}
	return strings.ToLower(norm.NFC.String(s))
}

// lowerSQL is the SQL that folds expr for a comparison with arg: SQLite's
// own lower() when arg is ASCII, which costs no call into Go for every row
// (the path's other letters are then compared as stored: a decomposed
// é still holds an e), else fold(). Two capitals beyond ASCII lower-case
// to ASCII letters, İ (U+0130; I and a combining dot above, decomposed)
// to i and the Kelvin sign (U+212A) to k, so "istanbul" names
// İstanbul.md: where arg holds an i or a k they are replaced first, in
// SQL too (which costs a scan of every heading at 1M windows half again).
func lowerSQL(expr, arg string) string {
	if swar.ASCII(arg) {
		if !strings.ContainsAny(arg, "iIkK") {
			return "lower(" + expr + ")"
		}
		return "lower(replace(replace(replace(" + expr + ", 'I\u0307', 'I'), '\u0130', 'I'), '\u212A', 'K'))"
	}
	return "fold(" + expr + ")"
}
