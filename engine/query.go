package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/swar"
	"github.com/mdsearch/mdsearch/store"
)

// maxUnread is the share of a text's characters the model does not read
// (embed.Vocabulary) from which it cannot read the text.
const maxUnread = 0.5

// Unreadable reports whether emb cannot read text (maxUnread): a query it
// cannot read is ranked by keywords alone, and a window gets the zero
// vector. ASCII text it always reads, so that costs no tokenizing.
func Unreadable(emb embed.Embedder, text string) bool {
	return !swar.ASCII(text) && embed.UnreadShare(emb, text) >= maxUnread
}

// maxCandidates bounds how far each list is read when dedup needs more.
const maxCandidates = 100000

// Search answers a query (see the package doc for the ranking rules).
func (e *Engine) Search(ctx context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error) {
	start := time.Now()
	ctx = context.WithValue(ctx, askedKey{}, &askedVectors{m: map[string]queryVector{}})
	// A fit observing the second stage hears the queries it asked alone.
	f, err := e.search(ctx, req, e.opts.Observe == nil)
	if err != nil {
		return nil, err
	}
	// A failed check costs the suggestion only: the answer stands. A
	// misspelling is what the rest of the notice is likeliest to follow
	// from (a weak best result): it leads.
	// A word respelled, though the respelling found no strong answer, may
	// still be why the best scores low ("obsidain sync pricing": 2.4 %,
	// respelled 49 %): the notes are not said to lack the answer.
	if f.sug.query != "" {
		f.spell = respellNamed
		if f, err = e.offer(ctx, req, f); err != nil {
			return nil, err
		}
	}
	if !f.spell.offered() && f.sug.lacking != "" && (!f.noneHeld || f.spell.named()) { // keyword mode's notice names every word, but not the near ones
		f.resp.Notice = joinNotices(f.sug.lacking, f.resp.Notice)
	}
	f.resp.Notice = joinNotices(strings.TrimSpace(req.Notice), f.resp.Notice) // about the request: it leads
	f.finish()
	f.resp.TookMS = msSince(start)
	return f.resp, nil
}

// search is Search but for the suggestion, which it returns unconfirmed
// when asked to look for one, and the notices and token budget that wait
// for it (found.finish).
func (e *Engine) search(ctx context.Context, req mdsearch.SearchRequest, suggestOK bool) (_ *found, err error) {
	defer e.explain(&err)
	var sug suggestion
	leave, err := e.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	start := time.Now()
	req, ops, err := normalize(req, e.knownProperty(ctx))
	if err != nil {
		return nil, err
	}
	var excludeNotice string
	req.Exclude, excludeNotice = e.resolveExcludes(ctx, req.Exclude)
	q := &query{req: req}
	defer q.scans.release()
	if q.filter, err = e.filter(ctx, req); err != nil {
		return nil, err
	}
	ops.apply(&q.filter)
	if req.Lists() {
		return e.list(ctx, q, ops, excludeNotice)
	}
	q.without, q.tasks, q.notTasks = ops.without, ops.tasks, ops.notTasks
	if req.Offset > 0 {
		return nil, mdsearch.OffsetWithWords(req.Offset)
	}
	if req.Sort != "" {
		return nil, mdsearch.SortWithWords(req.Sort)
	}
	resp := &mdsearch.SearchResponse{Query: req.Query, Mode: req.Mode, Results: []mdsearch.Result{}}
	if err := acquire(ctx); err != nil {
		return nil, err
	}
	defer release()
	empty := false // nothing to rank: no mode fell back
	if req.Mode != mdsearch.ModeKeyword {
		if q.snap, q.stale, resp.Notice, err = e.semanticReady(ctx, q.filter.CollectionID); err != nil {
			return nil, err
		}
		if q.snap == nil {
			resp.Mode = mdsearch.ModeKeyword
			if some, err := e.st.HasWindows(ctx); err == nil && !some {
				empty, resp.Notice = true, "nothing is indexed: the index's collections hold no notes (`mdsearch status` lists their folders)"
			}
		}
	}
	frame := frameNotice(ops.frame, req.Query)
	addNotice(&resp.Notice, frame)
	addNotice(&resp.Notice, ops.asTextNotice())
	addNotice(&resp.Notice, ops.groupedNotice())
	addNotice(&resp.Notice, ops.wordsNotice())
	addNotice(&resp.Notice, hashtagNotice(ctx, e.st.Reader, req.Query, q.filter))
	unreadable := q.snap != nil && Unreadable(e.emb, req.Query)
	if unreadable {
		// Its vector would be the same for any text of as many words.
		q.snap, resp.Mode = nil, mdsearch.ModeKeyword
		addNotice(&resp.Notice, "the model cannot read this query (its vocabulary has no words of this script); showing keyword results")
	}
	// One reading of the query's words serves the keyword list and the
	// asks-nothing check (AsksNothing).
	terms, nothing, generic := splitTerms(req.Query)
	q.generic = generic
	q.noWords = len(terms) == 0 && !nothing
	addNotice(&resp.Notice, oneLetterNotice(req.Query, terms))
	if q.nothing = nothing; q.nothing {
		addNotice(&resp.Notice, fmt.Sprintf("the query holds only common words (%s), which name nothing to look for: no result can be known to answer it; add the words you look for, or quote a phrase (\"to be or not to be\")", CommonWordsOf(req.Query)))
	}
	// The query is embedded while SQLite answers what needs no vector.
	var embedded chan queryVector
	if q.snap != nil {
		embedded = make(chan queryVector, 1)
		go func() {
			v, err := e.askedVector(ctx, req.Query)
			embedded <- queryVector{v, err}
		}()
	}
	q.mode = resp.Mode
	if empty {
		resp.Mode = req.Mode // keywords rank the nothing there is, but say the mode asked
	}
	// Semantic mode reads the words only where the second stage's
	// features read them: its list is by meaning alone.
	if q.mode != mdsearch.ModeSemantic || e.readsFeatures(q) {
		q.terms, q.typed = e.widenPrefixes(ctx, terms)
	}
	if testHookSnapshot != nil {
		testHookSnapshot()
	}
	// One read transaction, so ranked chunks cannot vanish before they are
	// loaded while a re-index commits.
	rt, err := e.st.BeginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	if q.snap != nil && !q.stale {
		// A commit between loading the vectors and this transaction (a
		// watcher dropping a note) leaves hits on chunks it cannot load.
		gen, err := rt.Generation(ctx)
		q.stale = err != nil || gen != q.snap.ver.Gen
	}
	q.cover, q.rowScale = 1, 1
	q.keywordRows(ctx, rt.Reader)
	if embedded != nil {
		if err := e.whileEmbedding(ctx, rt.Reader, q); err != nil {
			return nil, err
		}
		got := <-embedded
		if err := got.err; err != nil {
			if mdsearch.KindOf(err) != mdsearch.KindUnavailable {
				return nil, err
			}
			// A model server that is down costs the semantic list only.
			q.snap, resp.Mode, q.mode = nil, mdsearch.ModeKeyword, mdsearch.ModeKeyword
			resp.Notice = "semantic search unavailable: " + err.Error() + "; showing keyword results"
			if q.terms == nil {
				q.terms = terms
				q.keywordRows(ctx, rt.Reader)
			}
		}
		q.vec = got.vec
	}
	// The quoted phrases are read in the transaction that ranks: the
	// passages holding them are those it finds.
	phrases, err := q.mustHold(ctx, rt.Reader)
	if err != nil {
		return nil, err
	}
	addNotice(&resp.Notice, phrases)
	tasked, err := q.mustTask(ctx, rt.Reader)
	if err != nil {
		return nil, err
	}
	addNotice(&resp.Notice, tasked)
	if err := q.mustLack(ctx, rt.Reader); err != nil {
		return nil, err
	}
	if err := q.mustNotTask(ctx, rt.Reader); err != nil {
		return nil, err
	}
	if req.Explain && len(q.terms) > 0 {
		q.stemsShown(ctx)
	}
	if q.mode == mdsearch.ModeKeyword && len(q.terms) > 0 {
		if q.cover, err = coverage(ctx, rt.Reader, q); err != nil {
			return nil, err
		}
	}
	if suggestOK && len(q.tasks) == 0 { // a task operator's words would be respelled in the query, not in the task
		// A suggestion that cannot be made costs only itself.
		q.suggestion = sync.OnceValue(func() suggestion {
			s, _ := suggest(ctx, rt.Reader, q, len(terms) > 0, ops.written, e.knownWord)
			return s
		})
	}
	res, joins, stale, copies, err := e.reranked(ctx, rt.Reader, q, &resp.Notice)
	if err != nil {
		return nil, err
	}
	if n := copies.notice(); n != "" {
		addNotice(&resp.Notice, n)
	}
	best := bestScore(res)
	res, under := keepScored(res, req.MinScore)
	if m := under.notice(req.MinScore); m != "" {
		addNotice(&resp.Notice, m)
	}
	if q.mode != mdsearch.ModeSemantic { // meaning alone reads no phrase; a fallback to keywords does
		addNotice(&resp.Notice, openQuoteNotice(req.Query))
	}
	addNotice(&resp.Notice, excludeNotice)
	wordless := q.wordless && !q.reranked && len(res) > 0
	if wordless {
		addNotice(&resp.Notice, wordlessNotice)
	}
	if q.suggestion != nil {
		sug = q.suggestion()
	}
	shortenRuns(res, joins)
	ends := capResults(res, joins)
	markStale(res, stale)
	if err := sectionEnds(ctx, rt.Reader, res); err != nil {
		return nil, err
	}
	resp.Results, resp.Total = res, len(res)
	scored := e.stage(q.mode) != nil
	f := &found{resp: resp, sug: sug, joins: joins, ends: ends, budget: req.MaxTokens, best: best,
		weak: isUnlikely(q, scored, res), wordless: wordless, unreadable: unreadable, deferred: q.deferred,
		required: q.holding != nil, nothing: q.nothing || q.noWords, frame: frame}
	f.thin = lowCut(q, scored, f.weak)
	colls, err := e.nameResults(ctx, rt.Reader, resp)
	if err != nil {
		return nil, err
	}
	// A collection whose first run has not read every note may hold a
	// better answer in a note not indexed yet: a weak best says so in its
	// own notice (unreadNotice), any other here.
	if f.unfinished = e.unfinishedNotice(colls, q.filter.CollectionID); !f.weak {
		addNotice(&resp.Notice, f.unfinished)
	}
	if names := outdatedNames(colls, q.filter.CollectionID); names != "" {
		addNotice(&resp.Notice, names+" by another version of mdsearch: run `mdsearch index` to cut it with this one, "+
			"unless a serve, mcp or watch of it is running, which does so as it starts (until then its passages are as that version cut them)")
	}
	addNotice(&resp.Notice, e.templateNotice(ctx, rt.Reader, q, resp.Results))
	switch {
	case resp.Total == 0 && resp.CollectionCount == 0:
		resp.Notice = emptyIndexNotice
	case under.n > 0: // the notice says why none came
	case len(q.tasks) > 0 && len(q.holding) == 0: // mustTask's notice says why none came
	case q.noWords:
		// Emoji, symbols and punctuation are not words to the keyword
		// index: nothing was looked for by words, and meaning alone, where
		// it ranked, cannot tell an answer ("?" is near anything).
		msg := "the query holds no word the keyword index reads (emoji, symbols and punctuation are not indexed): add a word"
		if resp.Total > 0 {
			msg = "the query holds no word the keyword index reads (emoji, symbols and punctuation are not indexed), so meaning alone ranked these results and none can be known to answer it: add a word"
		}
		addNotice(&resp.Notice, msg)
	case resp.Total == 0:
		if filters := filtersOf(req, ops); filters != "" {
			msg := "no passage matched with these filters: " + filters
			if q.mode == mdsearch.ModeKeyword && !e.matchesAnywhere(ctx, rt.Reader, q) {
				msg = "no passage holds these words, with or without the filters (" + filters + ")"
			}
			addNotice(&resp.Notice, msg)
			if m := unknownTags(ctx, rt.Reader, q.filter); m != "" {
				addNotice(&resp.Notice, m)
			}
			addNotice(&resp.Notice, nearPaths(ctx, rt.Reader, q.filter))
			addNotice(&resp.Notice, e.unknownProperties(ctx, rt.Reader, q.filter.Fields))
			addNotice(&resp.Notice, e.propertyValuesNotice(ctx, rt.Reader, q.filter))
		} else if q.mode == mdsearch.ModeKeyword && len(q.terms) > 0 {
			msg := "no passage holds any of the query's words (" + termList(q.terms) + "): ask in other words"
			f.noneHeld = true
			if req.Mode == mdsearch.ModeKeyword { // asked so: meaning may find what words do not
				msg += ", or search in hybrid mode, which finds passages by meaning too"
			}
			addNotice(&resp.Notice, msg)
		}
	}
	resp.TookMS = msSince(start)
	return f, nil
}

// distinct ranks and loads q's results, leaving out copies of a passage
// from other collections (a folder indexed twice) and ranking further for
// as many results as were left out, so that n results still come back.
// Of two copies it keeps a live one (dropCopies); what it found stale is
// returned for markStale.
func (e *Engine) distinct(ctx context.Context, rd *store.Reader, q *query) ([]mdsearch.Result, seams, func(mdsearch.Result) bool, copiesLeft, error) {
	want := q.req.N
	defer func() { q.req.N = want }()
	for once := true; ; {
		kept, err := e.rank(ctx, rd, q)
		if err != nil {
			return nil, nil, nil, copiesLeft{}, err
		}
		res, joins, stamps, err := results(ctx, rd, kept, e.opts.Split == nil, q.req.PerNote())
		stale := staleIn(stamps) // asked again when results are marked: one stat a note
		if err != nil || len(res) == 0 {
			return res, joins, stale, copiesLeft{}, err
		}
		tail := keyOf(res[len(res)-1])
		res, copies := dropCopies(res, want, stale)
		more := len(kept) == q.req.N && q.req.N < deepest*want
		switch last := res[len(res)-1]; {
		case copies.n() > 0 && len(res) < want && more:
			// Ask for as many more as the share of copies so far says it
			// takes, in one round where it can: each round ranks again.
			q.req.N = min(deepest*want, max(q.req.N+want-len(res), q.req.N*want/max(len(res), 1)))
		case once && more && keyOf(last) == tail && stale(last) && e.spansCollections(ctx, q):
			// A copy ranks right after its like: the last result's, if
			// any, is one more away.
			once = false
			q.req.N++
		default:
			return res, joins, stale, copies, nil
		}
	}
}

// query is a validated request on its way through ranking.
type query struct {
	req        mdsearch.SearchRequest
	mode       mdsearch.Mode // req.Mode, or keyword when vectors are unavailable
	filter     store.Filter
	snap       *snapshot       // nil: no semantic list
	stale      bool            // snap may hold chunks a running re-index removed
	vec        []float32       // the embedded query
	terms      []string        // quoted FTS5 terms; none: no keyword list
	must       []string        // the quoted phrases every result holds one of, each a term of terms (mustHold)
	unheld     map[string]bool // the quoted phrases no passage in scope holds, searched as words (mustHold): a suggestion may respell them
	holding    map[int64]bool  // the passages in scope holding one of must; nil: any
	without    []exclusion     // what no result holds (takeExclusions)
	tasks      []task          // the task operators: every result holds a task of each (mustTask)
	notTasks   []task          // the negated ones: no result holds such a task (mustNotTask)
	untasked   map[int64]bool  // the passages in scope holding one (mustNotTask)
	barred     map[int64]bool  // the passages in scope holding a word of the stem of one of without (mustLack)
	asWritten  map[int64]bool  // of those read again, whether each holds one as written (unbarred)
	nothing    bool            // the query's words are common ones alone (AsksNothing)
	noWords    bool            // the query holds no word the keyword index reads ("?", "->"), common or not
	generic    map[string]bool // terms that are a generic type's phrase (splitTerms)
	cover      float64         // share of the terms' idf the index holds (keyword mode; see coverage)
	rowScale   float64         // rowScale of the index's keyword rows
	rows       int             // the index's keyword rows (bm25's N), read once with rowsErr
	rowsErr    error
	counts     []int              // each term's rows, up to maxTermRows (termRows)
	held       []bool             // whether a passage in the search's scope holds each term (found)
	seen       stageMemo          // the second stage's last candidates and features
	firstTop   []candidate        // the first round's best secondK candidates (keepFirstTop)
	heads      map[string]int     // headingNotes, once read for this search
	scans      scanMemo           // the first scan's cosines, for deeper rounds
	kw         []store.KeywordHit // the keyword list as deep as kwLimit, once read
	kwHeld     []store.KeywordHit // its rows of the passages holding must, as deep
	kwLimit    int
	fields     map[int64][]uint8 // each passage's fields holding each term, for Why (noteFields)
	shownStems map[string]string // a term's stem where Why shows it (stemsShown)
	typed      map[string]string // a widened prefix term's term as typed (widenPrefixes)
	reranked   bool              // a reranker's scores replaced the local ones
	wordless   bool              // the first result holds none of the query's words, which the scope does (wordlessTop)
	// suggestion makes the query's suggestion once (suggest), nil where
	// the search looks for none; deferred: the reranker asked for waits
	// for it (reranked).
	suggestion func() suggestion
	deferred   bool
}

// queryVector is the embedded query, or why it could not be.
type queryVector struct {
	vec []float32
	err error
}

// rank builds both lists, fuses and dedups them. It reads deeper while a
// few long notes crowd out the others and dedup leaves fewer than N from a
// list that was cut short.
func (e *Engine) rank(ctx context.Context, rd *store.Reader, q *query) ([]*group, error) {
	var allow map[int64]bool
	var err error
	if q.snap != nil && !q.filter.IsZero() {
		if allow, err = rd.FilterDocs(ctx, q.filter); err != nil {
			return nil, err
		}
	}
	likely := 0.0 // a cap asked for, or scores that are no probabilities (the first stage's): the cap holds
	if q.req.MaxPerPage == 0 && e.stage(q.mode) != nil {
		likely = likelyAnswer
	}
	for k := firstRound; ; k *= 4 {
		// The scan runs in memory while SQLite answers the keyword list.
		var sem []hit
		scanned := make(chan struct{})
		go func() {
			defer close(scanned)
			if q.snap != nil {
				sem = q.snap.topKWith(scanKernel, q.vec, k, allow, &q.scans)
			}
		}()
		var kw []store.KeywordHit
		if len(q.terms) > 0 && q.mode != mdsearch.ModeSemantic { // its list is by meaning alone
			kw, err = q.keywordList(ctx, rd, e.opts.Weights, k)
		}
		<-scanned
		if err != nil {
			return nil, mdsearch.Errorf(mdsearch.KindInternal, "search", e.st.Path(), "", "keyword search: %w", err)
		}
		if q.stale {
			if sem, err = dropGone(ctx, rd, q.snap, sem); err != nil {
				return nil, err
			}
		}
		cands, err := q.unbarred(ctx, rd, e.fuse(q.mode, kw, sem, q.snap, q.vec, keywordScale(q.cover, len(q.terms)), q.rowScale))
		if err != nil {
			return nil, err
		}
		cands = q.taskedOnly(cands)
		if e.stage(q.mode) != nil || e.opts.Observe != nil { // the fit reads the candidates search serves
			cands = q.keepFirstTop(cands)
		}
		fused, err := e.rescore(ctx, rd, q, cands)
		if err != nil {
			return nil, err
		}
		fused = q.holdersOnly(fused)
		kept := dedup(fused, q.req.N, q.req.PerNote(), continuedOf(ctx, rd), likely)
		if len(kept) == q.req.N || (len(kw) < k && len(sem) < k) || k >= maxCandidates || q.holdersRead() {
			q.wordless = e.stage(q.mode) != nil && wordlessTop(q, kept)
			return kept, nil
		}
	}
}

// keepFirstTop keeps the first round's best secondK candidates as the
// second stage's in every later round, the deeper round's others after
// them, scored no higher: deeper lists fuse some passages otherwise, and
// the second stage scores each candidate against the others, so its
// scores would change with the number of results asked for where the
// first round cannot fill them (a few notes under the per-note cap). A
// search that keeps only the passages holding its phrases or tasks reads
// deeper to find more of them, and the second stage reads them all, as
// before; one with no second stage ranks the deeper lists by the first
// stage's scores (rank calls this only where a stage scores, or where
// the fit observes the candidates it would score).
func (q *query) keepFirstTop(cands []candidate) []candidate {
	if q.holding != nil || len(q.taskTerms()) > 0 {
		return cands
	}
	if len(q.firstTop) == 0 {
		q.firstTop = slices.Clone(cands[:min(secondK, len(cands))])
		return cands
	}
	return store.AppendUnseen(slices.Clone(q.firstTop), cands, func(c candidate) int64 { return c.id }, len(q.firstTop)+len(cands))
}

// firstRound is how many candidates each list gives rank's first round,
// however many results are asked for: the second stage scores a
// candidate against the others, so its candidates, and its scores, are
// the same for one result or twelve. A later round reads four times as
// deep where the results asked for are not found.
const firstRound = 100

// deepest is how many times the results asked for distinct asks rank for
// at most, to replace copies it dropped.
const deepest = 4

// normalize fills defaults and checks ranges.
//
// The query's Obsidian operators (tag:, path:, file:, [property:value])
// are taken out: tags join req.Tags, properties req.Where (those known
// says no note has are left as words), the others are returned.
func normalize(req mdsearch.SearchRequest, known func(property string) bool) (mdsearch.SearchRequest, operators, error) {
	var ops operators
	query, asWords, tasks := dropWordOperators(mdsearch.TrimQuery(req.Query))
	req.Query, ops = takeOperators(query, known)
	ops.asWords = asWords
	for _, t := range tasks {
		if t.negated {
			ops.notTasks = append(ops.notTasks, t)
		} else {
			ops.tasks = append(ops.tasks, t)
		}
	}
	req.Query, ops.without = takeExclusions(req.Query)
	ops.frame, req.Query = requestFrame(strings.TrimSpace(req.Query))
	for _, x := range ops.without {
		if ops.first == "" {
			ops.first = x.written
		}
		ops.written = append(ops.written, x.written)
	}
	if ops.first != "" {
		req.Tags = append(slices.Clip(req.Tags), ops.tags...)
		var err error
		if req, err = withProperties(req, ops.props); err != nil {
			return req, ops, err
		}
	}
	// Checked before tagsProperty turns tags conditions into tags, so that
	// a comparison of tags is refused rather than read as a tag.
	for _, p := range ops.notProps {
		if err := mdsearch.CheckCondition(p[0], p[1]); err != nil {
			return req, ops, err
		}
	}
	for k, v := range req.Where {
		if err := mdsearch.CheckCondition(k, v); err != nil {
			return req, ops, err
		}
	}
	req, ops = tagsProperty(req, ops)
	if len(ops.tasks)+len(ops.notTasks) > 0 && strings.Trim(mdsearch.TrimQuery(req.Query), "() ") == "" {
		// Task operators alone, in parentheses or not: a list of the
		// passages holding such tasks, or of the notes holding none of
		// the negated ones.
		req.Query = ""
		switch {
		case ops.first != "":
		case len(ops.tasks) > 0:
			ops.first = ops.tasks[0].written
		default:
			ops.first = "-" + ops.notTasks[0].written
		}
	}
	req = req.WithDefaults()
	if req.Query == "" && ops.first != "" {
		// Operators alone narrow the notes as tags and a folder do: a
		// list of them, which Check passes by what it can see.
		c := req
		c.Query = ops.first
		return req, ops, c.Check()
	}
	return req, ops, req.Check()
}

// testHookSnapshot, when set by a test, runs between taking the vectors
// and beginning the read transaction: where a concurrent commit lands.
var testHookSnapshot func()

// dropGone removes hits whose chunks a running re-index has replaced since
// the snapshot was loaded.
func dropGone(ctx context.Context, rd *store.Reader, snap *snapshot, hits []hit) ([]hit, error) {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = snap.ids[h.row]
	}
	live, err := rd.Existing(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		if live[snap.ids[h.row]] {
			out = append(out, h)
		}
	}
	return out, nil
}

func sortHits(h []hit) {
	sort.Slice(h, func(i, j int) bool {
		if h[i].cos != h[j].cos {
			return h[i].cos > h[j].cos
		}
		return h[i].row < h[j].row
	})
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
