package embed

import (
	"context"
	"errors"
	"testing"
)

// fixed is an Embedder that answers Embed with vecs or err, and, as a
// querier, EmbedQuery with its own vector.
type fixed struct {
	vecs [][]float32
	err  error
}

func (f fixed) Embed(context.Context, []string) ([][]float32, error) { return f.vecs, f.err }
func (fixed) Dim() int                                               { return 2 }
func (fixed) MaxTokens() int                                         { return 8 }
func (fixed) CountTokens(string) int                                 { return 1 }
func (fixed) ModelID() string                                        { return "fixed" }

type querier struct{ fixed }

func (querier) EmbedQuery(context.Context, string) ([]float32, error) { return []float32{0, 1}, nil }

func TestQuery(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name string
		e    Embedder
		want []float32
		err  error
	}{
		{"Embed's one vector", fixed{vecs: [][]float32{{1, 0}}}, []float32{1, 0}, nil},
		{"Embed's error", fixed{err: boom}, nil, boom},
		{"Embed returns none", fixed{}, nil, nil},
		{"Embed returns two", fixed{vecs: [][]float32{{1, 0}, {1, 0}}}, nil, nil},
		{"a Querier's own", querier{fixed{vecs: [][]float32{{1, 0}}}}, []float32{0, 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Query(context.Background(), tt.e, "q")
			if !errors.Is(err, tt.err) || len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("Query = %v, %v; want %v, %v", got, err, tt.want, tt.err)
			}
		})
	}
}
