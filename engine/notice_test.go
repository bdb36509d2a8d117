package engine

import "testing"

// addNotice joins sentences with "; ", and an empty one adds nothing (a
// notice ending in "; " read as if something were missing).
func TestAddNotice(t *testing.T) {
	for _, tc := range []struct {
		have, add, want string
	}{
		{"", "a", "a"},
		{"a", "b", "a; b"},
		{"a", "", "a"},
		{"", "", ""},
	} {
		n := tc.have
		if addNotice(&n, tc.add); n != tc.want {
			t.Errorf("addNotice(%q, %q) = %q, want %q", tc.have, tc.add, n, tc.want)
		}
	}
}
