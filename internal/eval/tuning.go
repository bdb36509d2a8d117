package eval

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/store"
)

// Tuning holds engine settings to evaluate instead of the defaults; zero
// fields keep the engine's defaults. Each applies to every configuration
// it can affect: the chunker settings only to mdsearch's own chunker.
type Tuning struct {
	Keyword   float64        `json:"keyword_weight,omitempty"` // weight of the keyword score in hybrid search
	BM25Half  float64        `json:"bm25_half,omitempty"`      // bm25 magnitude that scores 0.5
	CosFloor  float64        `json:"cos_floor,omitempty"`      // cosine that scores 0; only with CosCeil
	CosCeil   float64        `json:"cos_ceil,omitempty"`       // cosine that scores 1; sets CosFloor too (0 if unset)
	HeadCos   float64        `json:"heading_cos,omitempty"`    // scale of a heading window's cosine
	Weights   *store.Weights `json:"bm25_weights,omitempty"`   // keyword column weights
	Passage   int            `json:"passage_words,omitempty"`  // passage reading budget in words
	Overlap   float64        `json:"overlap,omitempty"`        // fraction of the budget repeated between parts; negative for none
	StubWords int            `json:"stub_words,omitempty"`     // sections under this many words merge forward; negative for none
	MaxTokens int            `json:"max_tokens,omitempty"`     // window budget, at most the model window
}

// Check refuses settings that apply would ignore: a cosine floor without
// its ceiling (the pair applies together: a ceiling alone has the floor 0),
// and a ceiling not above the floor.
func (t Tuning) Check() error {
	for _, v := range []float64{t.Keyword, t.BM25Half, t.CosFloor, t.CosCeil, t.HeadCos, t.Overlap} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "give numbers", "a tuning value is %g", v)
		}
	}
	switch {
	case t.CosFloor != 0 && t.CosCeil == 0:
		return mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "give --cos-ceil too",
			"a cosine floor (%g) applies only with a cosine ceiling", t.CosFloor)
	case t.CosCeil != 0 && (t.CosCeil <= 0 || t.CosCeil <= t.CosFloor):
		return mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "",
			"the cosine ceiling (%g) must be above 0 and above the floor (%g)", t.CosCeil, t.CosFloor)
	}
	return nil
}

// IsZero reports whether t changes nothing.
func (t Tuning) IsZero() bool { return t == Tuning{} }

// String lists the settings that differ from the defaults.
func (t Tuning) String() string {
	var parts []string
	if t.Keyword != 0 {
		parts = append(parts, fmt.Sprintf("keyword weight %g", t.Keyword))
	}
	if t.BM25Half != 0 {
		parts = append(parts, fmt.Sprintf("bm25 half %g", t.BM25Half))
	}
	if t.CosFloor != 0 || t.CosCeil != 0 {
		parts = append(parts, fmt.Sprintf("cosine %g–%g", t.CosFloor, t.CosCeil))
	}
	if t.HeadCos != 0 {
		parts = append(parts, fmt.Sprintf("heading cosine × %g", t.HeadCos))
	}
	if t.Passage != 0 {
		parts = append(parts, fmt.Sprintf("passage words %d", t.Passage))
	}
	if w := t.Weights; w != nil {
		parts = append(parts, fmt.Sprintf("bm25 weights text %g, heading %g, title %g, tags %g", w.Text, w.Heading, w.Title, w.Tags))
	}
	switch {
	case t.Overlap < 0:
		parts = append(parts, "no overlap")
	case t.Overlap != 0:
		parts = append(parts, fmt.Sprintf("overlap %g", t.Overlap))
	}
	switch {
	case t.StubWords < 0:
		parts = append(parts, "no stub merging")
	case t.StubWords != 0:
		parts = append(parts, fmt.Sprintf("stub words %d", t.StubWords))
	}
	if t.MaxTokens != 0 {
		parts = append(parts, fmt.Sprintf("max tokens %d", t.MaxTokens))
	}
	return strings.Join(parts, ", ")
}

// apply sets the tuned values on engine options.
func (t Tuning) apply(o *engine.Options) {
	if t.Keyword > 0 {
		o.Fusion.Keyword = t.Keyword
	}
	if t.BM25Half > 0 {
		o.Fusion.BM25Half = t.BM25Half
	}
	if t.HeadCos > 0 {
		o.Fusion.HeadingCos = t.HeadCos
	}
	if t.CosCeil > 0 {
		o.Fusion.CosFloor, o.Fusion.CosCeil = t.CosFloor, t.CosCeil
	}
	if t.Weights != nil {
		o.Weights = *t.Weights
	}
	if o.Split != nil {
		return // baselines size their own chunks
	}
	if t.Overlap != 0 {
		o.Chunking.Overlap = t.Overlap
	}
	if t.StubWords != 0 {
		o.Chunking.StubWords = t.StubWords
	}
	if t.MaxTokens > 0 {
		o.Chunking.MaxTokens = t.MaxTokens
	}
	if t.Passage > 0 {
		o.Chunking.PassageWords = t.Passage
	}
}

// ParseWeights reads "text,heading,title,tags" bm25 weights, e.g. "1,2.5,2,1.5".
func ParseWeights(s string) (*store.Weights, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return nil, fmt.Errorf("bm25 weights %q: want four numbers: text,heading,title,tags", s)
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("bm25 weights %q: %q is not a number ≥ 0", s, p)
		}
		v[i] = f
	}
	if v == [4]float64{} {
		// The engine reads all-zero weights as unset, its defaults.
		return nil, fmt.Errorf("bm25 weights %q: all are 0, which the engine reads as its defaults (1,2.5,2.5,1.5): give one above 0", s)
	}
	return &store.Weights{Text: v[0], Heading: v[1], Title: v[2], Tags: v[3]}, nil
}
