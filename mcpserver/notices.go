package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch/internal/plural"
)

// forgiven is what lenientArgs read as left out although it was sent: an
// answer names it in its notice, so a leniency never widens an answer
// unsaid (REST refuses the same input).
type forgiven struct {
	blank map[string]string   // text arguments sent blank, by name, as sent
	nulls map[string][]string // object arguments' members sent as null, sorted
}

type forgivenKey struct{}

// withForgiven is ctx carrying f to the tool handler.
func withForgiven(ctx context.Context, f forgiven) context.Context {
	return context.WithValue(ctx, forgivenKey{}, f)
}

// forgivenIn is what lenientArgs forgave in the call ctx belongs to.
func forgivenIn(ctx context.Context) forgiven {
	f, _ := ctx.Value(forgivenKey{}).(forgiven)
	return f
}

// blankNotice names the arguments sent blank: `collection "" and tag " "
// were read as absent`; "" when there were none.
func (f forgiven) blankNotice() string {
	names := slices.Sorted(maps.Keys(f.blank))
	for i, n := range names {
		names[i] = fmt.Sprintf("%s %q", n, f.blank[n])
	}
	return sayAll(names, "was read as absent", "were read as absent")
}

// whereNotice names the where fields sent as null, whose filters the
// search went without; "" when there were none.
func (f forgiven) whereNotice() string {
	if len(f.nulls["where"]) == 0 {
		return ""
	}
	fields := slices.Clone(f.nulls["where"])
	for i, k := range fields {
		fields[i] = fmt.Sprintf("%q", k)
	}
	return "where " + sayAll(fields, "was null: searched without that filter", "were null: searched without those filters")
}

// sayAll is "a one", "a and b many" or "a, b and c many"; "" for no items.
func sayAll(items []string, one, many string) string {
	if len(items) == 0 {
		return ""
	}
	return plural.List(items) + " " + plural.Noun(len(items), one, many)
}

// lead puts msgs (the empty ones left out) before the notice n holds: they
// are about the request, the notice after them about the answer.
func lead(n *string, msgs ...string) {
	var all []string
	for _, m := range append(msgs, *n) {
		if m != "" {
			all = append(all, m)
		}
	}
	*n = strings.Join(all, "; ")
}
