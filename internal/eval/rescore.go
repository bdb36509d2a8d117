package eval

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/rescore"
)

// DevSet is a labelled query set over its vault.
type DevSet struct {
	Name, Vault, Queries string
	// Unrelated names the sets about other things altogether, whose
	// queries have no partial answers in this vault either: the
	// off-topic queries scripts/eval-dev.sh asks it.
	Unrelated []string
}

// DevSets are the dev query sets in the shared corpora folder: the only
// sets the second stage is fitted on (docs/evaluation.md).
func DevSets(corpora string) []DevSet {
	at := func(name, vault string, unrelated ...string) DevSet {
		return DevSet{Name: name, Vault: filepath.Join(corpora, name, vault), Queries: filepath.Join(corpora, name, "queries.jsonl"), Unrelated: unrelated}
	}
	const wiki = "chroma-wikitexts"
	return []DevSet{at(wiki, "vault", "vue-docs", "rust-book"), at("qmd-eval", "test", wiki), at("vue-docs", "vault", wiki), at("rust-book", "src", wiki)}
}

// UnrelatedFor are every query of the sets set.Unrelated names.
func UnrelatedFor(set DevSet, all []DevSet) ([]string, error) {
	return queriesOf(all, func(o DevSet) bool { return slices.Contains(set.Unrelated, o.Name) }, 0)
}

// OffTopicFor are the queries of the other sets, which set's vault
// cannot answer: at most per of each, spread evenly through it.
func OffTopicFor(set DevSet, all []DevSet, per int) ([]string, error) {
	return queriesOf(all, func(o DevSet) bool { return o.Name != set.Name }, per)
}

// queriesOf are the queries of the sets keep keeps, at most per of each
// spread evenly through it (per 0: all).
func queriesOf(all []DevSet, keep func(DevSet) bool, per int) ([]string, error) {
	var out []string
	for _, o := range all {
		if !keep(o) {
			continue
		}
		qs, err := LoadOffTopic(o.Queries)
		if err != nil {
			return nil, err
		}
		if per == 0 {
			out = append(out, qs...)
			continue
		}
		out = append(out, spreadEvenly(qs, per)...)
	}
	return out, nil
}

// Sample is one query's candidates as the second stage saw them, each
// labelled with whether it answers the query.
type Sample struct {
	Set      string
	Embedder string // the model ID of the embedder that made the cosines
	Mode     mdsearch.Mode
	OffTopic bool
	Everyday bool // an everyday question (EverydayFit, EverydayHeld): off-topic too
	Terms    bool // a one-word query (StyleTerms, TermsFor): the calibrators', never the ranker's
	Held     bool // measured alone (EverydayHeld, a dev set's one-word queries): FitModel leaves it out
	Query    string
	Own      bool          // its labels name sections' own text alone (Label.Own), not their subsections
	Rows     []rescore.Row // Weight unset
	Pages    []string      // each row's note, for the per-note cap (QuickLeaveOneOut)
	Sections []int64       // each row's section (engine.Observed.Section): passages of one section share it
}

// asksNothing reports whether the sample's query asks nothing: common
// words alone, or no word the keyword index reads (rescore.CommonOnly,
// engine.AsksNothing).
func (s Sample) asksNothing() bool {
	return len(s.Rows) > 0 && s.Rows[0].X[rescore.CommonOnly] == 1
}

// fitted are the samples a fit reads: all but those held out to measure.
func fitted(samples []Sample) []Sample {
	return slices.DeleteFunc(slices.Clone(samples), func(s Sample) bool { return s.Held })
}

// labelled reports whether the sample is of a set's own labelled query,
// as the rankers are fitted and the ranking measured: not off-topic, not
// one of the one-word queries the calibrators read (Terms).
func (s Sample) labelled() bool { return !s.OffTopic && !s.Terms }

// vectors are the sample's rows' features as vectors.
func (s Sample) vectors() []rescore.Vector {
	xs := make([]rescore.Vector, len(s.Rows))
	for i, r := range s.Rows {
		copy(xs[i][:], r.X)
	}
	return xs
}

// Collect indexes o.Vault with mdsearch's chunker and searches every query
// (and every off-topic one) with the first stage alone, in every mode
// (keyword alone without an embedder), returning each query's candidates
// with their features.
// A query's excluded page is left out of its search, as eval leaves it
// out (Options.request).
func Collect(ctx context.Context, o Options, set string) ([]Sample, error) {
	o.Configs = []Config{{Name: "sections-hybrid", Chunker: ChunkSections, Mode: mdsearch.ModeHybrid}}
	if err := o.fill(); err != nil {
		return nil, err
	}
	if err := o.Queries.Resolve(ctx, o.Vault); err != nil {
		return nil, err
	}
	var cache *Cache
	if o.Embedder != nil {
		cache = NewCache(o.Embedder)
		if o.EmbedCache != "" {
			if err := cache.Load(o.EmbedCache); err != nil {
				return nil, err
			}
			defer cache.Save(o.EmbedCache)
		}
	}
	var seen []engine.Observed
	o.FirstStageOnly = true
	o.observe = func(_ string, cands []engine.Observed) { seen = cands }
	dir, err := os.MkdirTemp(o.TempDir, "mdsearch-fit-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	e, _, err := o.build(ctx, cache, ChunkSections, filepath.Join(dir, "index.db"), cache != nil)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	var out []Sample
	ask := func(q *Query, text string, mode mdsearch.Mode) error {
		seen = nil
		_, err := e.Search(ctx, o.request(q, text, mode))
		if err != nil {
			return fmt.Errorf("%s: %q: %w", set, text, err)
		}
		s := Sample{Set: set, Mode: mode, OffTopic: q == nil, Query: text}
		if q != nil {
			s.Own = slices.ContainsFunc(q.Relevant, func(l Label) bool { return l.Own })
		}
		if cache != nil {
			s.Embedder = cache.ModelID()
		}
		for _, c := range seen { // the excluded page is not among them (request)
			s.Rows = append(s.Rows, rescore.Row{X: slices.Clone(c.Features[:]), Answer: q != nil && answers(q, c)})
			s.Pages = append(s.Pages, c.Path)
			s.Sections = append(s.Sections, c.Section)
		}
		out = append(out, s)
		return nil
	}
	modes := []mdsearch.Mode{mdsearch.ModeKeyword}
	if cache != nil {
		modes = append(modes, mdsearch.ModeHybrid, mdsearch.ModeSemantic)
	}
	for _, mode := range modes {
		for i := range o.Queries.Queries {
			q := &o.Queries.Queries[i]
			if err := ask(q, q.Text, mode); err != nil {
				return nil, err
			}
		}
		for _, text := range o.OffTopic {
			if err := ask(nil, text, mode); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// answers reports whether a candidate answers q: it lies in a labelled
// section, or on a relevant note where q labels notes only.
func answers(q *Query, c engine.Observed) bool {
	return answersWith(q, mdsearch.Result{Path: c.Path, SectionPath: c.SectionPath, Sections: c.Sections})
}

// answersWith reports whether result r answers q, as answers judges a
// candidate.
func answersWith(q *Query, r mdsearch.Result) bool {
	if !q.Labelled() {
		return q.relevantPage(r.Path)
	}
	return sectionHit(q, r)
}

// StageModes are the search modes a second stage is fitted for: each
// mode's samples fit its own.
var StageModes = []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword, mdsearch.ModeSemantic}

// masks are the features mode's ranker leaves out and the calibrator
// inputs its calibrators leave out (calMask and those the mode lacks):
// calib of the best's, below of the one for the candidates below it.
func masks(mode mdsearch.Mode, calMask []int) (ranker, calib, below []int) {
	calib = slices.Clone(calMask)
	switch mode {
	case mdsearch.ModeKeyword:
		calib = append(calib, rescore.CalUnusedRanked...)
		return append(rescore.Unranked(), rescore.Semantic...), calib, calib
	case mdsearch.ModeSemantic:
		calib = append(calib, rescore.CalUnusedSemantic...)
		return rescore.Unlisted(rescore.RankedSemantic), calib, append(slices.Clone(calib), rescore.CalUnusedBelowSemantic...)
	}
	calib = append(calib, rescore.CalUnusedRanked...)
	return rescore.Unranked(), calib, calib
}

// FitOptions set how FitModel weighs the samples.
type FitOptions struct {
	L2       float64                   // the ranker's penalty on its weights' distance from the first stage's
	CalL2    float64                   // the calibrator's penalty on its standardised weights
	CalMask  []int                     // calibrator inputs left out
	OffTopic float64                   // weight of a set's off-topic queries, against 1 for its own
	Nothing  float64                   // weight of its off-topic queries that ask nothing (AskingNothing)
	Everyday map[mdsearch.Mode]float64 // weight of a set's everyday questions (EverydayFit) in each mode's calibrators (none: 0)
	Terms    map[mdsearch.Mode]float64 // of the generated set's one-word queries (TermsFor)
	OneCalib bool                      // fit one calibrator for every candidate, none of its own below the best (Stage.Below)
	Command  string                    // recorded in the model
}

// FitCommand makes model.json; model.json records it.
const FitCommand = "go run ./internal/eval/fitrescore -o rescore/model.json"

// DefaultFit is how model.json was fitted. Everyday questions and the
// generated one-word queries are fitted on in hybrid and keyword mode:
// together, for either alone moves every score (everyday questions, all
// off-topic, lowered right answers' scores, and a query of one rare word
// with them, whose passage's cosine is as low as an everyday question's;
// docs/evaluation.md, "Everyday questions"). Semantic mode's calibrators,
// whose one-word queries scored far lower with them, are fitted without.
var DefaultFit = FitOptions{L2: 10, CalL2: 0.01, OffTopic: 1, Nothing: 0.25, Everyday: rankedModes(), Terms: rankedModes()}

// rankedModes weighs a group 1 in hybrid and keyword mode, 0 in semantic.
func rankedModes() map[mdsearch.Mode]float64 {
	return map[mdsearch.Mode]float64{mdsearch.ModeHybrid: 1, mdsearch.ModeKeyword: 1}
}

// FitModel fits the second stage of each mode on samples: a ranker on
// the queries the sets label, then a calibrator on its logits over those
// and the off-topic queries. Every set counts alike, and within a set
// every query; a set's off-topic queries together weigh fo.OffTopic,
// those that ask nothing fo.Nothing more, its everyday questions
// (EverydayFit) fo.Everyday[mode] more, and its one-word queries
// (TermsFor), which the calibrators alone read, fo.Terms[mode]. Samples
// held out to measure (Held) are left out. The share of the first
// results that answered a query asking nothing is the stage's Nothing.
func FitModel(samples []Sample, fo FitOptions) (*rescore.Model, error) {
	samples = fitted(samples)
	m := &rescore.Model{Command: fo.Command, Features: rescore.Names[:], Calibration: rescore.CalNames[:], Modes: map[string]*rescore.Stage{}}
	ws := newWeighing(samples, fo)
	sets := map[string]bool{}
	for _, s := range samples {
		if len(s.Rows) > 0 {
			sets[s.Set] = true
		}
		if s.Embedder != "" {
			if m.Embedder != "" && m.Embedder != s.Embedder {
				return nil, fmt.Errorf("rescore: samples of two embedders, %s and %s", m.Embedder, s.Embedder)
			}
			m.Embedder = s.Embedder
		}
	}
	for _, mode := range StageModes {
		var groups []rescore.Group
		for _, s := range samples {
			if s.Mode == mode && s.labelled() && len(s.Rows) > 0 {
				groups = append(groups, rescore.Group{Rows: s.Rows, Weight: ws.of(s)})
			}
		}
		if len(groups) == 0 {
			continue
		}
		mask, calMask, belowMask := masks(mode, fo.CalMask)
		ranker, err := rescore.FitRanker(groups, mask, []int{rescore.FirstScore}, fo.L2)
		if err != nil {
			return nil, err
		}
		var rows, below []rescore.Row
		var nothing, nothingRight int
		for _, s := range samples {
			if s.Mode != mode || len(s.Rows) == 0 {
				continue
			}
			xs := s.vectors()
			logits := make([]float64, len(s.Rows))
			for i, r := range s.Rows {
				logits[i] = ranker.Logit(r.X)
			}
			rank := rescore.Ranks(logits)
			if s.asksNothing() {
				nothing++
				if !s.OffTopic && s.Rows[slices.Index(rank, 1)].Answer {
					nothingRight++
				}
			}
			place := shownPlaces(rank, s.Pages, mdsearch.DefaultMaxPerPage)
			w := ws.of(s) / float64(min(rescore.CalTop, len(s.Rows)))
			wBelow := ws.of(s) / float64(max(1, min(rescore.CalTop, slices.Max(place))-1))
			for i, c := range rescore.CalInputs(ranker, xs, logits, s.sectionIDs()) {
				// A label of a section's own text alone (a title query's:
				// the note's opening) leaves out the rest of a note that
				// is all about what the query names: the best's calibrator
				// would learn that a top hit on the right note is wrong.
				// The results after the first are scored on them (a
				// note's other sections answer less).
				if rank[i] <= rescore.CalTop && !s.Own {
					rows = append(rows, rescore.Row{X: slices.Clone(c[:]), Answer: s.Rows[i].Answer, Weight: w})
				}
				if place[i] > 1 && place[i] <= rescore.CalTop {
					below = append(below, rescore.Row{X: slices.Clone(c[:]), Answer: s.Rows[i].Answer, Weight: wBelow})
				}
			}
		}
		calib, err := rescore.Fit(rows, calMask, fo.CalL2)
		if err != nil {
			return nil, err
		}
		// The results shown after the first, at most the default a note,
		// get a calibrator of their own (Stage.Below).
		var low *rescore.Linear
		if len(below) > 0 && !fo.OneCalib {
			if low, err = rescore.Fit(below, belowMask, fo.CalL2); err != nil {
				return nil, err
			}
		}
		// Smoothed (Laplace): the queries that ask nothing are made from
		// off-topic ones, so none answers, and a score of 0 would say no
		// such query ever can be: 1 / (n + 2), a prior.
		stage := &rescore.Stage{Ranker: ranker, Calib: calib, Below: low, Nothing: float64(nothingRight+1) / float64(nothing+2)}
		if !stage.Monotone() {
			return nil, fmt.Errorf("rescore: the %s calibrator would reorder the ranker's candidates (weights %.3f, scales %.3f)", mode, calib.Weights, calib.Scale)
		}
		m.Modes[string(mode)] = stage
	}
	for _, s := range slices.Sorted(maps.Keys(sets)) {
		count := func(g group) int { g.set, g.mode = s, mdsearch.ModeHybrid; return ws.queries[g] }
		on, off := count(group{}), count(group{off: true})
		nothing, everyday := count(group{off: true, nothing: true}), count(group{off: true, everyday: true})
		line := fmt.Sprintf("%s: %d queries, %d off-topic, %d asking nothing, %d everyday (%s)", s, on, off, nothing, everyday, fittedIn(fo.Everyday))
		if terms := count(group{terms: true}); terms > 0 {
			line += fmt.Sprintf(", %d one-word (%s)", terms, fittedIn(fo.Terms))
		}
		m.Fitted = append(m.Fitted, line)
	}
	return m, nil
}

// shownPlaces are the 1-based places among the results shown of
// candidates ranked rank, when each note shows at most perNote of them
// (pages names each one's note); 0 for one the cap leaves out.
func shownPlaces(rank []int, pages []string, perNote int) []int {
	return placesGivingWay(rank, nil, pages, perNote, 0)
}

// AskingNothing are queries that ask for nothing (engine.AsksNothing):
// the common words of each of qs ("how do I", "what is the"), at most
// per of them, each once, spread evenly through qs. The fit asks them of
// every set as off-topic queries, so that a query that names nothing
// scores low however well its common words match.
func AskingNothing(qs []string, per int) []string {
	var all []string
	seen := map[string]bool{}
	for _, q := range qs {
		if c := engine.CommonWordsOf(q); c != "" && !seen[c] {
			seen[c] = true
			all = append(all, c)
		}
	}
	return spreadEvenly(all, per)
}

// offTopicPerSet is how many queries of each other set serve as a set's
// off-topic queries when fitting.
const offTopicPerSet = 60

// generatedSet is the corpus whose generated queries join the dev sets'
// in every fit: another vault, so no dev set's own text teaches the
// model, and every style of query Generate makes but links (it has few)
// and terms (docs/evaluation.md, "Calibration left out").
const generatedSet = "rust-rfcs"

// generatedPerStyle bounds the generated queries of each style.
const generatedPerStyle = 150

// generatedEvery picks the generated set's notes: every fourth RFC in
// name order (160 notes, about 12k windows), which holds enough queries
// of each style and indexes in a fraction of the whole corpus's time.
const generatedEvery = 4

// CollectDev collects the samples of every dev set under corpora, and of
// queries generated from the rust-rfcs corpus, each with the dev sets'
// queries (its own excepted) as off-topic ones. cacheDir, when set, keeps
// each set's vectors between runs.
func CollectDev(ctx context.Context, emb embed.Embedder, corpora, cacheDir string, log func(string)) ([]Sample, error) {
	sets := DevSets(corpora)
	gen := DevSet{Name: generatedSet, Vault: filepath.Join(corpora, "rust-rfcs", "text")}
	dir, err := os.MkdirTemp("", "mdsearch-rfcs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := everyNth(gen.Vault, dir, generatedEvery); err != nil {
		return nil, err
	}
	gen.Vault = dir
	var all []Sample
	for _, set := range append(sets, gen) {
		var qs *QuerySet
		var err error
		if set.Queries != "" {
			qs, err = LoadQueries(set.Queries)
		} else {
			qs, err = generated(ctx, set.Vault)
		}
		if err != nil {
			return nil, err
		}
		off, err := OffTopicFor(set, sets, offTopicPerSet)
		if err != nil {
			return nil, err
		}
		off = append(off, AskingNothing(off, offTopicPerSet)...)
		off = append(append(off, EverydayFit...), EverydayHeld...)
		o := Options{Vault: set.Vault, Queries: qs, Embedder: emb, OffTopic: off, Log: log}
		if cacheDir != "" {
			o.EmbedCache = filepath.Join(cacheDir, set.Name+".gob")
		}
		ss, err := Collect(ctx, o, set.Name)
		if err != nil {
			return nil, err
		}
		markEveryday(ss)
		// Their one-word queries: the generated set's to fit on, each
		// dev set's to measure.
		ts, err := TermsFor(ctx, o, set.Name, set.Queries != "")
		if err != nil {
			return nil, err
		}
		all = append(all, ss...)
		all = append(all, ts...)
	}
	return all, nil
}

// markEveryday marks the off-topic samples of everyday questions.
func markEveryday(ss []Sample) {
	fit, held := map[string]bool{}, map[string]bool{}
	for _, q := range EverydayFit {
		fit[q] = true
	}
	for _, q := range EverydayHeld {
		held[q] = true
	}
	for i := range ss {
		if ss[i].OffTopic {
			ss[i].Held = held[ss[i].Query]
			ss[i].Everyday = ss[i].Held || fit[ss[i].Query]
		}
	}
}

// generated makes the generated set's queries: at most
// generatedPerStyle of each style, spread evenly through the vault.
func generated(ctx context.Context, vault string) (*QuerySet, error) {
	qs, _, err := Generate(ctx, vault, []string{StyleHeadings, StyleSentences, StyleVague, StyleQuestions, StyleTitles})
	if err != nil {
		return nil, err
	}
	by := map[string][]Query{}
	for _, q := range qs.Queries {
		by[q.Difficulty] = append(by[q.Difficulty], q)
	}
	var out []Query
	for _, style := range AllStyles {
		out = append(out, spreadEvenly(by[style], generatedPerStyle)...)
	}
	qs.Queries = out
	qs.mergeRepeats() // "what is rationale and alternatives?", asked of three RFCs, is one query
	return qs, nil
}

// CandidateRecall is the share of a set's queries in mode with a
// candidate that answers them.
func CandidateRecall(samples []Sample, set string, mode mdsearch.Mode) float64 {
	var n, found int
	for _, s := range samples {
		if s.Set != set || s.Mode != mode || !s.labelled() {
			continue
		}
		n++
		if slices.ContainsFunc(s.Rows, func(r rescore.Row) bool { return r.Answer }) {
			found++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(found) / float64(n)
}

// everyNth copies every nth markdown file of the folder src, in name
// order, into dst.
func everyNth(src, dst string, n int) error {
	names, err := filepath.Glob(filepath.Join(src, "*.md"))
	if err != nil {
		return err
	}
	slices.Sort(names)
	for i := 0; i < len(names); i += n {
		b, err := os.ReadFile(names[i])
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(names[i])), b, 0o644); err != nil {
			return err
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%s: no notes to generate queries from", src)
	}
	return nil
}

// sectionIDs are each row's section, rows of one section alike (nil for
// samples kept without them: each row is then its own).
func (s Sample) sectionIDs() []int64 {
	if len(s.Sections) != len(s.Rows) {
		return nil
	}
	return s.Sections
}

// scored is stage's logits and probabilities of the sample's rows, as a
// search scores its candidates (their sections told).
func (s Sample) scored(stage *rescore.Stage) (logits, probs []float64) {
	return stage.Score(s.vectors(), s.sectionIDs())
}
