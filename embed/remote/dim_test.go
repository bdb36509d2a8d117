package remote

import (
	"context"
	"strings"
	"testing"
)

// A vector of another length than the dimension is refused with a hint
// naming where that dimension came from: MDSEARCH_EMBED_DIM, declared
// and not yet confirmed (unset it, or set it to the server's); earlier
// answers of this process (the server's model changed); or one answer
// mixing lengths. Nothing but a matching answer confirms a declared one.
func TestDimensionChecks(t *testing.T) {
	tests := []struct {
		name     string
		declared int      // MDSEARCH_EMBED_DIM
		first    string   // the first answer, "" for the server's own (4 dimensions)
		then     string   // a later answer, "" for none
		want     []string // in the error
		hint     []string // in its hint
	}{
		{"declared, refused at once", 16, "", "",
			[]string{"vectors of 4 dimensions", "MDSEARCH_EMBED_DIM declares 16"},
			[]string{"unset MDSEARCH_EMBED_DIM", "set it to 4"}},
		{"declared, confirmed, then changed", 4, "", `{"embeddings":[[1,2,3]]}`,
			[]string{"a vector of 3 dimensions (text 1 of the batch), want 4"},
			[]string{"answered 4 dimensions before", "unset MDSEARCH_EMBED_DIM or set it to 3", "mdsearch index"}},
		{"learned, then changed", 0, "", `{"embeddings":[[1,2,3]]}`,
			[]string{"a vector of 3 dimensions (text 1 of the batch), want 4"},
			[]string{"answered 4 dimensions before", "mdsearch index"}},
		{"one answer of two lengths", 0, `{"embeddings":[[1,2],[1]]}`, "",
			[]string{"a vector of 1 dimensions (text 2 of the batch), want 2"},
			[]string{"vectors of several lengths"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, Ollama, 4)
			if tt.first != "" {
				s.then(reply{status: 200, body: tt.first})
			}
			e := open(t, s, func(o *Options) { o.Dim = tt.declared })
			var err error
			if tt.first != "" {
				_, err = e.Embed(context.Background(), []string{"a", "b"})
			} else {
				err = e.Confirm(context.Background())
			}
			if tt.then != "" {
				if err != nil {
					t.Fatalf("the first answer: %v", err)
				}
				s.then(reply{status: 200, body: tt.then})
				_, err = e.Embed(context.Background(), []string{"a"})
			}
			me := wantErr(t, err, tt.want...)
			for _, h := range tt.hint {
				if !strings.Contains(me.Hint, h) {
					t.Errorf("hint %q lacks %q", me.Hint, h)
				}
			}
			if CauseOf(err) != WrongDimension {
				t.Errorf("cause %v; want WrongDimension", CauseOf(err))
			}
			if tt.declared != 0 && e.Dim() != tt.declared {
				t.Errorf("Dim %d; the declared %d is kept, not replaced by an answer", e.Dim(), tt.declared)
			}
		})
	}
}

// A declared dimension is confirmed by one probe, then trusted: Confirm
// asks nothing more. A learned one needs no further probe.
func TestConfirm(t *testing.T) {
	for _, declared := range []int{0, 4} {
		s := newServer(t, Ollama, 4)
		e := open(t, s, func(o *Options) { o.Dim = declared })
		for range 2 {
			if err := e.Confirm(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if s.count() != 1 || e.Dim() != 4 {
			t.Errorf("declared %d: %d requests, Dim %d; want one probe", declared, s.count(), e.Dim())
		}
	}
}
