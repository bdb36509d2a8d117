package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

func TestStems(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		words, want []string
	}{
		{[]string{"keyed", "keys", "key"}, []string{"kei", "kei", "kei"}},
		{[]string{"Rendering", "renders", "shallowref"}, []string{"render", "render", "shallowref"}},
		{[]string{"Café", "naïve"}, []string{"cafe", "naiv"}},
		{[]string{"!!", "x-y"}, []string{"!!", "x"}},
		{[]string{"keyed", "keyed"}, []string{"kei", "kei"}}, // asked twice in one call, and again from the cache
	} {
		got, err := Stems(ctx, tc.words)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Stems(%q) = %q, want %q", tc.words, got, tc.want)
		}
	}
	// More words than one statement takes, each its own stem.
	many := make([]string, 3*stemBatch+7)
	for i := range many {
		many[i] = fmt.Sprintf("w%dx", i)
	}
	got, err := Stems(ctx, many)
	if err != nil || len(got) != len(many) || got[len(many)-1] != many[len(many)-1] || got[0] != "w0x" {
		t.Errorf("%d words: %d stems (last %q), %v", len(many), len(got), got[len(got)-1], err)
	}
}
