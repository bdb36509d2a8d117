package store

import (
	"strings"

	"github.com/mdsearch/mdsearch"
)

// datePrefix is a value that starts as dateValue's do: the values a date
// compares with.
const datePrefix = `[0-9][0-9][0-9][0-9]-[0-9][0-9]*`

// compareCond is the condition that the json_each row x meets every
// comparison of cs, and its arguments: a number compares with a number
// property, a date with a text property that starts with one, up to the
// date's length (<2024-07-01 holds for 2024-06-30T23:59, and >2024-07
// for 2024-08-02).
func compareCond(x string, cs []mdsearch.Comparison) (string, []any) {
	parts := make([]string, len(cs))
	var args []any
	for i, c := range cs {
		if c.Date == "" {
			parts[i] = x + `.type IN ('integer', 'real') AND ` + x + `.value ` + c.Op + ` ?`
			args = append(args, c.Num)
			continue
		}
		parts[i] = x + `.type = 'text' AND ` + x + `.value GLOB '` + datePrefix + `' AND ` +
			`replace(substr(` + x + `.value, 1, ?), ' ', 'T') ` + c.Op + ` ?`
		args = append(args, len(c.Date), c.Date)
	}
	return `(` + strings.Join(parts, " AND ") + `)`, args
}
