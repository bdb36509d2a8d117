package eval

import (
	"testing"
)

// TestDefaultBeatsKeywordAndBaseline holds the rule docs/evaluation.md
// states: on every dev set the default mode (hybrid) scores at least
// keyword-only (0.01 tolerance on section hit@5) and at least the plain
// bm25-sections baseline, on section hit@5 and on page MRR.
func TestDefaultBeatsKeywordAndBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("a few minutes with the model; skipped with -short")
	}
	emb := realModel(t)
	for _, set := range []struct{ dir, vault string }{
		{"chroma-wikitexts", "vault"}, {"qmd-eval", "test"}, {"vue-docs", "vault"}, {"rust-book", "src"},
	} {
		t.Run(set.dir, func(t *testing.T) {
			configs, err := ParseConfigs([]string{"bm25-sections,sections-keyword,sections-hybrid"})
			if err != nil {
				t.Fatal(err)
			}
			rep := runCorpusConfigs(t, set.dir, set.vault, emb, configs)
			m := map[string]ConfigReport{}
			for _, c := range rep.Configs {
				m[c.Name] = c
				t.Logf("%-17s section@5 %.3f MRR %.3f", c.Name, c.SectionHit, c.MRR)
			}
			def, kw, base := m["sections-hybrid"], m["sections-keyword"], m["bm25-sections"]
			if def.SectionHit < kw.SectionHit-0.01 || def.SectionHit < base.SectionHit {
				t.Errorf("default section@5 %.3f: keyword %.3f, baseline %.3f", def.SectionHit, kw.SectionHit, base.SectionHit)
			}
			if def.MRR < kw.MRR || def.MRR < base.MRR {
				t.Errorf("default MRR %.3f: keyword %.3f, baseline %.3f", def.MRR, kw.MRR, base.MRR)
			}
		})
	}
}
