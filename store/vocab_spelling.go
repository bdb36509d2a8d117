package store

import (
	"context"
	"strings"
)

// Spelling is word as the passages holding it most often spell it
// ("defineEmits" for "defineemits"), "" when none holds it or the index
// has no word list (vocabTables).
func (s *Reader) Spelling(ctx context.Context, word string) (string, error) {
	if !s.vocab {
		return "", nil
	}
	stems, err := Stems(ctx, []string{word})
	if err != nil {
		return "", err
	}
	sps, err := s.spellings(ctx, stems[0])
	if err != nil {
		return "", err
	}
	best := spelling{}
	for _, sp := range sps {
		if strings.EqualFold(sp.word, word) && sp.n > best.n {
			best = sp
		}
	}
	return best.word, nil
}
