package engine

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/render"
)

// A word no passage holds gets the nearest word the index holds as a
// suggestion, in every mode; the results are the respelled query's where
// its best is likelier to answer (here, always), unless the query is
// asked for as typed.
func TestSuggestion(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "reactivity.md", "---\ntags: [core]\n---\n# Reactivity\n\nThe reactivity system tracks reactive state.\n\n## Watchers\n\nA watcher runs a callback on change; its cleanup runs first.\n")
	write(t, vault, "components.md", "# Components\n\nA component receives props. Call defineProps() in a component.\n\n## Errors\n\nSet app.config.errorHandler to catch every error a component throws.\n\n## Lifecycle\n\nLifecycle hooks run at each stage.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	cases := []struct {
		query, suggestion, notice string
	}{
		{"reactivty system", "reactivity system", `no passage holds "reactivty": showing results for "reactivity system"; as_typed searches for the query as typed`},
		{"Reactivty", "Reactivity", `no passage holds "Reactivty": showing results for "Reactivity"`}, // the case typed, named as typed
		{"LIFECYLE hooks", "LIFECYCLE hooks", ""},                                     // all upper
		{"how do components recieve props?", "how do components receives props?", ""}, // the rest as typed; the spelling passages use
		{"definePrps", "defineProps", ""},                                             // a code name keeps its case
		{"compnent lifecyle", "component lifecycle", `no passage holds "compnent" or "lifecyle"`},
		{"app.config.errorHanfler", "app.config.errorHandler", `no passage holds "errorHanfler"`}, // joined by punctuation
		{`"reactivty"`, "", ""}, // a word in quotes is asked for as written
		{"reactivty sytem watchr", "reactivity system watcher", ""},         // three words the vault lacks
		{"reactivty sytem watchr callbak", "", ""},                          // four: not misspellings
		{"tag:core reactivty", "tag:core reactivity", ""},                   // operators lead, as written
		{"reactivty system -component", "-component reactivity system", ""}, // so do exclusions
		{"reactivity system", "", ""},                                       // every word found
		{"hooch", "", "no passage holds"},                                   // nothing near, and named
		{"sytem", "system", ""},                                             // five letters: one edit
		{"wach", "", ""},                                                    // nothing near: "watcher" is three edits away
		{"sytm", "", ""},                                                    // two edits from "system": a word of four letters gets one
		{"rfs", "", ""},                                                     // three letters: too short to guess
		{`"reactivty system"`, `"reactivity system"`, ""},                   // a phrase no passage holds: its words, within the quotes
		{`"reactivity systm" watcher`, `"reactivity system" watcher`, `no passage holds "systm"`}, // the rest as typed
		{"reactivt*", "", ""},  // so is a prefix
		{"reactivty2", "", ""}, // and a word with digits
		{"the of", "", ""},     // a query of common words asks for nothing
	}
	for _, tc := range cases {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword} {
			resp := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mode})
			if resp.Suggestion != tc.suggestion {
				t.Errorf("%q (%s): suggestion %q, want %q", tc.query, mode, resp.Suggestion, tc.suggestion)
			}
			if !strings.Contains(resp.Notice, tc.notice) || (tc.suggestion == "") != !strings.Contains(resp.Notice, "showing results") || resp.Respelled != (tc.suggestion != "") {
				t.Errorf("%q (%s): notice %q (respelled %v), want one holding %q", tc.query, mode, resp.Notice, resp.Respelled, tc.notice)
			}
			typed := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mode, AsTyped: true})
			if typed.Suggestion != tc.suggestion || typed.Respelled || (tc.suggestion == "") != !strings.Contains(typed.Notice, "did you mean") {
				t.Errorf("%q (%s), as typed: suggestion %q, notice %q, respelled %v", tc.query, mode, typed.Suggestion, typed.Notice, typed.Respelled)
			}
		}
	}
	// Semantic mode ranks by meaning, which a misspelling blurs too: the
	// same suggestion, and none for a word every passage lacks but the
	// model knows.
	if resp := search(t, e, mdsearch.SearchRequest{Query: "reactivty system", Mode: mdsearch.ModeSemantic}); resp.Suggestion != "reactivity system" ||
		!strings.Contains(resp.Notice, `showing results for "reactivity system"`) || !resp.Respelled {
		t.Errorf("semantic: suggestion %q, notice %q", resp.Suggestion, resp.Notice)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "reactivity system", Mode: mdsearch.ModeSemantic}); resp.Suggestion != "" {
		t.Errorf("semantic, spelled right: suggestion %q", resp.Suggestion)
	}
	// The results are the respelled query's, its query the one typed; as
	// typed, they are the typed query's: the suggestion is not searched.
	shown := search(t, e, mdsearch.SearchRequest{Query: "reactivty watcher", Mode: mdsearch.ModeKeyword})
	respelled := search(t, e, mdsearch.SearchRequest{Query: "reactivity watcher", Mode: mdsearch.ModeKeyword})
	if shown.Query != "reactivty watcher" || !sameResults(shown.Results, respelled.Results, true) {
		t.Errorf("%q: results %v, want those of %q: %v", shown.Query, shown.Results, respelled.Query, respelled.Results)
	}
	typed := search(t, e, mdsearch.SearchRequest{Query: "reactivty watcher", Mode: mdsearch.ModeKeyword, AsTyped: true})
	alone := search(t, e, mdsearch.SearchRequest{Query: "watcher", Mode: mdsearch.ModeKeyword})
	if !sameResults(typed.Results, alone.Results, false) || typed.Results[0].Score >= shown.Results[0].Score {
		t.Errorf("results of %q as typed differ from %q's: %v vs %v", typed.Query, alone.Query, typed.Results, alone.Results)
	}
}

// sameResults reports whether a and b are the same passages in the same
// order, and with the same scores where scores says so.
func sameResults(a, b []mdsearch.Result, scores bool) bool {
	return len(a) > 0 && slices.EqualFunc(a, b, func(x, y mdsearch.Result) bool {
		return x.Path == y.Path && x.StartLine == y.StartLine && (!scores || x.Score == y.Score)
	})
}

// A suggestion never respells inside an operator the query holds but
// could not read (a value holding a quote that closes nothing): it is
// left as typed, and only the words beside it are respelled.
func TestSuggestionLeavesOperators(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "files.md", "# Files\n\nA file has a path and a name. The file watcher tracks each file path.\n")
	write(t, vault, "reactivity.md", "# Reactivity\n\nThe reactivity system tracks reactive state.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tc := range []struct{ query, suggestion string }{
		{`file:a"watchr path`, ""},
		{`reactivity system tag:reactivty"`, ""},
		{`file path:"" watchr`, `file path:"" watcher`},
		{`reactivty system path:""`, `reactivity system path:""`},
		{`file watchr file:"fil`, `file:"fil" file watcher`}, // read, unclosed: it leads, closed
		{`reactivty file:"reactivity`, `file:"reactivity" reactivity`},
	} {
		if resp := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mdsearch.ModeKeyword}); resp.Suggestion != tc.suggestion {
			t.Errorf("%q: suggestion %q, want %q", tc.query, resp.Suggestion, tc.suggestion)
		}
	}
}

func TestRewrite(t *testing.T) {
	fixes := map[string]string{"reactivty": "reactivity", "definprops": "defineProps", "été": "étés"}
	cases := []struct{ query, want string }{
		{"reactivty", "reactivity"},
		{"  Reactivty, and reactivty!", "  Reactivity, and reactivity!"},
		{"REACTIVTY", "REACTIVITY"},
		{"DefinProps()", "defineProps()"},
		{"reactivtyx reactivt", "reactivtyx reactivt"}, // whole words only
		{"Été", "Étés"},
		{`"reactivty system" reactivty`, `"reactivty system" reactivity`}, // a phrase is kept whole
		{"“reactivty” reactivty", "“reactivty” reactivity"},
		{`reactivty "unclosed reactivty`, `reactivity "unclosed reactivity`}, // an unclosed quote is punctuation
		{"", ""},
	}
	for _, tc := range cases {
		if got, _ := rewrite(tc.query, fixes, nil); got != tc.want {
			t.Errorf("rewrite(%q) = %q, want %q", tc.query, got, tc.want)
		}
	}
	// The words replaced, as typed, each once.
	if _, typed := rewrite("Reactivty and reactivty, then Reactivty", fixes, nil); !slices.Equal(typed, []respelling{{"Reactivty", "Reactivity"}, {"reactivty", "reactivity"}}) {
		t.Errorf("typed words %q", typed)
	}
}

// lexBow is bow with a vocabulary of whole words (embed.Lexicon).
type lexBow struct {
	*bow
	words map[string]bool
}

func (l lexBow) Knows(w string) bool { return l.words[w] }

// A word the model knows is spelled right: the vault lacks it, and no
// respelling is offered ("status" is one edit from "stats"), nor for its
// forms ("statuses"); a model without a vocabulary knows none. A word of
// two known words is respelled only one edit away.
func TestSuggestionKnownWords(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "# Stats\n\nThe stats page shows weekly stats.\n")
	write(t, vault, "b.md", "# Logs\n\nLog tailing runs in the background.\n")
	for _, tc := range []struct {
		name  string
		emb   interface{ Knows(string) bool }
		query string
		want  string
	}{
		{"known", lexBow{newBow("bow"), map[string]bool{"status": true}}, "weekly status", ""},
		{"known with an ending", lexBow{newBow("bow"), map[string]bool{"status": true}}, "weekly statuses", ""},
		{"known base with e", lexBow{newBow("bow"), map[string]bool{"state": true}}, "stated weekly", ""},
		{"its form, no vocabulary", nil, "stated weekly", "stats weekly"},
		{"unknown", lexBow{newBow("bow"), map[string]bool{"status": true}}, "weekly sttas", "weekly stats"},
		{"no vocabulary", nil, "weekly status", "weekly stats"},
		{"two known words", lexBow{newBow("bow"), map[string]bool{"tail": true, "wind": true}}, "tailwind", ""},
		{"two words unknown", lexBow{newBow("bow"), map[string]bool{"tail": true}}, "tailwind", "tailing"},
		{"two known words, one edit off", lexBow{newBow("bow"), map[string]bool{"back": true, "round": true}}, "backround", "background"},
	} {
		var e *Engine
		if l, ok := tc.emb.(lexBow); ok {
			e = openEngine(t, filepath.Join(t.TempDir(), "index.db"), l)
		} else {
			e = openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
		}
		index(t, e, vault, "v")
		if got := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mdsearch.ModeKeyword}).Suggestion; got != tc.want {
			t.Errorf("%s: %q suggests %q, want %q", tc.name, tc.query, got, tc.want)
		}
	}
	// Options.Lexicon serves an engine whose embedder has none (keyword
	// mode from the command line, a remote model), and wins over one that has.
	for _, emb := range []embed.Embedder{nil, newBow("bow"), lexBow{newBow("bow"), nil}} {
		e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "index.db"), Embedder: emb,
			Lexicon: lexBow{words: map[string]bool{"status": true}}})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		index(t, e, vault, "v")
		if got := search(t, e, mdsearch.SearchRequest{Query: "weekly status", Mode: mdsearch.ModeKeyword}).Suggestion; got != "" {
			t.Errorf("embedder %T: a known word respelled: %q", emb, got)
		}
	}
}

// A long query's notice names the words respelled, not the whole query
// respelled, which the suggestion alone carries; and a token budget holds
// for the answer with its notice.
func TestSuggestionLongQuery(t *testing.T) {
	e := reactivityEngine(t)
	long := strings.Repeat("the reactivity system tracks reactive state; ", 8) + "a watchr runs"
	for _, tc := range []struct {
		query, notice string
		quoted        bool // the notice quotes the whole respelled query
	}{
		{"reactivty system", `no passage holds "reactivty": showing results for "reactivity system"`, true},
		{long, `no passage holds "watchr": showing results respelled "watchr" → "watcher"`, false},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mdsearch.ModeKeyword, MaxTokens: 150})
		if resp.Suggestion == "" || !strings.Contains(resp.Notice, tc.notice) {
			t.Errorf("%.30q: suggestion %q, notice %q, want one holding %q", tc.query, resp.Suggestion, resp.Notice, tc.notice)
		}
		if quoted := strings.Contains(resp.Notice, strconv.Quote(resp.Suggestion)); quoted != tc.quoted {
			t.Errorf("%.30q: notice %q quotes the suggestion: %v", tc.query, resp.Notice, quoted)
		}
		var b strings.Builder
		if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
			t.Fatal(err)
		}
		if got := EstimateTokens(b.String()); got > 157 {
			t.Errorf("%.30q: budget 150, the answer is about %d tokens\n%s", tc.query, got, b.String())
		}
	}
}

// The suggestion leads the notice: a misspelling is why the best result
// scores low, and the notice does not then say the notes lack the answer.
func TestSuggestionLeads(t *testing.T) {
	e := reactivityEngine(t)
	resp := search(t, e, mdsearch.SearchRequest{Query: "reactivty system", Mode: mdsearch.ModeKeyword, AsTyped: true})
	if !strings.HasPrefix(resp.Notice, `no passage holds "reactivty"; did you mean "reactivity system"?; no result is likely to answer the query as typed`) ||
		!strings.Contains(resp.Notice, "with the respelled query the results may differ") || strings.Contains(resp.Notice, "do not hold the answer") {
		t.Errorf("notice %q", resp.Notice)
	}
	// Searched respelled, the best is strong: the notice says what was shown.
	resp = search(t, e, mdsearch.SearchRequest{Query: "reactivty system", Mode: mdsearch.ModeKeyword})
	if resp.Notice != `no passage holds "reactivty": showing results for "reactivity system"; as_typed searches for the query as typed` {
		t.Errorf("respelled: notice %q", resp.Notice)
	}
	// Without a suggestion, a weak best still says the notes likely lack it.
	resp = search(t, e, mdsearch.SearchRequest{Query: "quantum chromodynamics system", Mode: mdsearch.ModeKeyword})
	if resp.Suggestion != "" || !strings.Contains(resp.Notice, "the notes most likely do not hold the answer") {
		t.Errorf("no suggestion: notice %q", resp.Notice)
	}
}

// Words no passage holds are named where no suggestion is offered: none
// is near, or the query respelled finds no strong answer either (its
// nearest words named, not offered); keyword mode's notice of a query
// none of whose words is held says so once.
func TestLackingWords(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "reactivity.md", "# Reactivity\n\nThe reactivity system tracks reactive state.\n\n## Watchers\n\nA watcher runs a callback on change; its cleanup runs first.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tc := range []struct {
		query string
		mode  mdsearch.Mode
		want  string
	}{
		{"quantum chromodynamics system", mdsearch.ModeKeyword, `no passage holds "quantum" or "chromodynamics"; no result is likely`},
		{"reactivty quantum chromodynamics", mdsearch.ModeHybrid,
			`no passage holds "reactivty" or "quantum" or "chromodynamics" (the nearest words the notes hold: "reactivty" → "reactivity"; the query respelled so finds no answer scoring 50% or more)`},
		{"quantum reactivity", mdsearch.ModeHybrid, `no passage holds "quantum"`},
		{"reactivity rul", mdsearch.ModeHybrid, `no passage holds "rul"`}, // too short to respell, but named
		{"watcher xy callback", mdsearch.ModeKeyword, `no passage holds "xy"`},
		{"watcher и xy", mdsearch.ModeKeyword, `no passage holds "xy"`}, // one letter of any script is no word to name
		{"zyxwv", mdsearch.ModeKeyword, `no passage holds any of the query's words`},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: tc.mode})
		if resp.Suggestion != "" || !strings.HasPrefix(resp.Notice, tc.want) || strings.Count(resp.Notice, "no passage holds") != 1 || strings.Contains(resp.Notice, `"и"`) {
			t.Errorf("%q (%s): suggestion %q, notice %q, want it to start %q", tc.query, tc.mode, resp.Suggestion, resp.Notice, tc.want)
		}
	}
	// A short word the notes hold with its letters apart ("I/O") is held;
	// one they lack is named beside a respelled word, shown or offered.
	short := t.TempDir()
	write(t, short, "disk.md", "# Disk\n\nDisk I/O is slow; the reactivity system waits on it.\n")
	se := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, se, short, "v")
	for _, tc := range []struct{ query, want string }{
		{"disk io reactivity", ""},
		{"disk xq reactivty", `no passage holds "reactivty" or "xq" (the nearest words the notes hold: "reactivty" → "reactivity";`},
	} {
		resp := search(t, se, mdsearch.SearchRequest{Query: tc.query, Mode: mdsearch.ModeKeyword})
		if tc.want == "" && strings.Contains(resp.Notice, "no passage holds") || !strings.HasPrefix(resp.Notice, tc.want) {
			t.Errorf("%q: notice %q, want it to start %q", tc.query, resp.Notice, tc.want)
		}
	}
	words, shortWords := []respelling{{"reactivty", "reactivity"}}, []string{"xq"}
	if got, want := shownNotice("xq reactivty", "xq reactivity", words, shortWords), `no passage holds "reactivty" or "xq": showing results for "xq reactivity"`; !strings.HasPrefix(got, want) {
		t.Errorf("shown: %q, want it to start %q", got, want)
	}
	if got, want := suggestionNotice("xq reactivty", "xq reactivity", words, shortWords), `no passage holds "reactivty" or "xq"; did you mean "xq reactivity"?`; got != want {
		t.Errorf("offered: %q, want %q", got, want)
	}
	// Keyword mode's notice that no word is held names no near word: the
	// lacking words' notice does, beside it.
	if resp := search(t, e, mdsearch.SearchRequest{Query: "zyxwv reactivty", Mode: mdsearch.ModeKeyword}); !strings.Contains(resp.Notice, `"reactivty" → "reactivity"`) ||
		!strings.Contains(resp.Notice, "no passage holds any of the query's words") {
		t.Errorf("none held, one near: notice %q", resp.Notice)
	}
	// Words the model knows are spelled right: only the misspelling is named.
	known := openEngine(t, filepath.Join(t.TempDir(), "index.db"), lexBow{newBow("bow"), map[string]bool{"quantum": true, "chromodynamics": true}})
	index(t, known, vault, "v")
	resp := search(t, known, mdsearch.SearchRequest{Query: "reactivty quantum chromodynamics system", Mode: mdsearch.ModeKeyword})
	if want := `no passage holds "reactivty" (the nearest word the notes hold is "reactivity"; the query respelled so finds no answer scoring 50% or more)`; resp.Suggestion != "" || !strings.HasPrefix(resp.Notice, want) {
		t.Errorf("one misspelling: suggestion %q, notice %q, want it to start %q", resp.Suggestion, resp.Notice, want)
	}
	// The misspelling is not why the best scores low where the respelled
	// query scores as low (TestRespelledNoLikelier has the other case).
	respelled := search(t, known, mdsearch.SearchRequest{Query: "reactivity quantum chromodynamics system", Mode: mdsearch.ModeKeyword})
	if resp.Results[0].Score >= Unlikely || bestScore(respelled.Results) >= Unlikely {
		t.Fatalf("typed best %.3f, respelled %.3f: the case is no longer weak", resp.Results[0].Score, bestScore(respelled.Results))
	}
	if !strings.Contains(resp.Notice, "do not hold the answer") || strings.Contains(resp.Notice, "a misspelled word may be why") {
		t.Errorf("one misspelling, weak: notice %q", resp.Notice)
	}
}

// TestSuggestionSwapsShortAndScope: two letters swapped near a word's end
// move its stem away from the right word's ("hotkyes" stems to "hotky",
// "hotkeys" to "hotkei") and are still respelled; a word too short to be
// respelled is no respelling either ("graf" is not "gra", a piece of a
// link); and a respelling no passage of the collection searched holds is
// none: respelled so, the word would match nothing there.
func TestSuggestionSwapsShortAndScope(t *testing.T) {
	e := twoCollections(t, map[string]string{"keys.md": "# Keys\n\nCustomize the hotkeys of every command. See [the graph](https://example.com/Gra/x).\n"},
		map[string]string{"light.md": "# Light\n\nA lantern lights the path.\n"})
	wantSuggestions(t, e, []suggestionCase{
		{"hotkyes", "", "hotkeys"},
		{"customize hotkyes", "a", "customize hotkeys"},
		{"graf", "", ""},
		{"lantren", "", "lantern"},
		{"lantren", "b", "lantern"},
		{"lantren", "a", ""},                   // only b holds "lantern"
		{"customize hotkeys lantren", "a", ""}, // its other words strong there
	})
}

// suggestionCase is a query, the collection searched ("" for all), and
// the suggestion it should get.
type suggestionCase struct{ query, collection, suggestion string }

// twoCollections indexes the notes of a and b as collections "a" and "b"
// of one index, with the test embedder.
func twoCollections(t *testing.T, a, b map[string]string) *Engine {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	for name, notes := range map[string]map[string]string{"a": a, "b": b} {
		dir := t.TempDir()
		for rel, text := range notes {
			write(t, dir, rel, text)
		}
		index(t, e, dir, name)
	}
	return e
}

// wantSuggestions searches each case in keyword mode and checks its
// suggestion.
func wantSuggestions(t *testing.T, e *Engine, cases []suggestionCase) {
	t.Helper()
	for _, tc := range cases {
		resp := search(t, e, mdsearch.SearchRequest{Query: tc.query, Collection: tc.collection, Mode: mdsearch.ModeKeyword})
		if resp.Suggestion != tc.suggestion {
			t.Errorf("%q in %q: suggestion %q, want %q (%s)", tc.query, tc.collection, resp.Suggestion, tc.suggestion, resp.Notice)
		}
	}
}

// TestSuggestionJoins: two words the notes write as one, and never side
// by side, are offered joined ("spell check" as "spellcheck"), in the case
// typed; not where a note writes them apart too, in quotes, joined by a
// hyphen, or where the joined word is only in notes the search leaves out.
func TestSuggestionJoins(t *testing.T) {
	e := twoCollections(t, map[string]string{
		"settings.md": "# Settings\n\n## Spellcheck\n\nTurn spellcheck off for every language.\n\n## Keyboard\n\nShortcuts for the keyboard.\n",
		"notes.md":    "# Notes\n\nA key board of wood, and more notes on shortcuts. Check the spell book.\n",
		"data.md":     "# Data\n\nData and a base of migration scripts.\n",
	}, map[string]string{"db.md": "# Store\n\nThe database keeps every migration.\n"})
	wantSuggestions(t, e, []suggestionCase{
		{"turn off spell check", "", "turn off spellcheck"},
		{"Spell Check", "", "Spellcheck"},
		{"spell book check", "", ""},    // not neighbours
		{"key board shortcuts", "", ""}, // notes.md writes "key board"
		{`"spell check" off`, "", ""},   // a phrase is asked for as written
		{"spell-check", "", ""},         // so are words joined by a hyphen
		{"data base migration", "", "database migration"},
		{"data base migration scripts", "a", ""}, // only b holds "database"
	})
	resp := search(t, e, mdsearch.SearchRequest{Query: "turn off spell check", Mode: mdsearch.ModeKeyword})
	if !resp.Respelled || !strings.Contains(resp.Notice, `no passage holds "spell check": showing results for "turn off spellcheck"`) || !covers(resp.Results[0], "settings.md", "Spellcheck") {
		t.Errorf("shown: %v, notice %q, first %s", resp.Respelled, resp.Notice, describe(resp))
	}
}
