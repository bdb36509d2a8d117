package store

import (
	"context"
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
}
