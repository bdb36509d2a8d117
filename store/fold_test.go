package store

import "testing"

// lowerSQL folds a column as cheaply as the argument allows: SQLite's
// lower() alone for ASCII without an i or a k, the two capitals beyond
// ASCII that lower-case to those replaced first otherwise, and fold() for
// an argument beyond ASCII.
func TestLowerSQL(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"summary", "lower(d.path)"},
		{"Istanbul", "lower(replace(replace(replace(d.path, 'I\u0307', 'I'), '\u0130', 'I'), '\u212A', 'K'))"},
		{"kelvin", "lower(replace(replace(replace(d.path, 'I\u0307', 'I'), '\u0130', 'I'), '\u212A', 'K'))"},
		{"Über", "fold(d.path)"},
	} {
		if got := lowerSQL("d.path", tc.arg); got != tc.want {
			t.Errorf("lowerSQL(%q) = %s, want %s", tc.arg, got, tc.want)
		}
	}
}
