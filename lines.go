package mdsearch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseLines reads a line range: "40-80", "40-" (to the end, returned as
// end 0) or "40" (that line alone). Lines are 1-based and inclusive. An
// en or em dash is a hyphen: results print "lines 40–80", which an agent
// pastes as it reads it.
func ParseLines(s string) (start, end int, err error) {
	a, b, dash := strings.Cut(lineDashes.Replace(strings.TrimSpace(s)), "-")
	start, err = strconv.Atoi(strings.TrimSpace(a))
	if err == nil && dash && strings.TrimSpace(b) != "" {
		end, err = strconv.Atoi(strings.TrimSpace(b))
	} else if err == nil && !dash {
		end = start
	}
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, 0, fmt.Errorf("lines %q: a line number that large is no line; to read to the end, leave the end out (40-)", s)
	case err != nil:
		return 0, 0, fmt.Errorf("lines %q: want START-END, START- or LINE, as 40-80", s)
	case start < 1 || end != 0 && end < start:
		return 0, 0, fmt.Errorf("lines %q: lines count from 1, and the end is not before the start", s)
	}
	return start, end, nil
}

// lineDashes reads the dashes a line range may be written with as the
// hyphen ParseLines splits at.
var lineDashes = strings.NewReplacer("\u2013", "-", "\u2014", "-", "\u2212", "-")
