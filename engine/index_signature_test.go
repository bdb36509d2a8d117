package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/chunks"
)

// TestSignature checks that the chunker signature, which decides when a
// collection is re-cut, names the chunker's version and every setting that
// changes what is embedded.
func TestSignature(t *testing.T) {
	e := &Engine{}
	base := e.signature(chunks.Options{}, "")
	if !strings.Contains(base, fmt.Sprintf(" v=%d ", chunks.Version)) {
		t.Errorf("signature %q does not name chunks.Version %d", base, chunks.Version)
	}
	for _, o := range []chunks.Options{{CodeLines: 2}, {Overlap: -1}, {MaxTokens: 64}, {PassageWords: 200}, {StubWords: 10}, {Profile: chunks.ProfileH2H3}} {
		if sig := e.signature(o, ""); sig == base {
			t.Errorf("%+v: same signature as the defaults: %q", o, sig)
		}
	}
	if sig := e.signature(chunks.Options{}, "fixed"); sig == base {
		t.Errorf("a profile of Options.Profiles: same signature as the defaults: %q", sig)
	}
}
