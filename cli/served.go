package cli

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/rest"
)

// A search from the command line loads the model for one query, most of
// its time. When `serve` runs on the same index with the same settings,
// search asks it instead: serve leaves a note (a "rendezvous") in the
// cache root naming its address, and search sends the request there,
// falling back to searching itself on any doubt or failure. The answer is
// the same engine's over the same index; only where it ran differs.

// rendezvous is what serve leaves for search, one file per index.
type rendezvous struct {
	PID      int    `json:"pid"`
	URL      string `json:"url"`      // the loopback base URL
	Index    string `json:"index"`    // the absolute index path
	Build    string `json:"build"`    // the server's code (sameCode): a search asks only the same
	Settings string `json:"settings"` // settingsKey of the server
	Instance string `json:"instance"` // random: the server answers only requests that name it
}

// servedDir is where rendezvous files live in the cache root.
const servedDir = "served"

// rendezvousPath is the rendezvous file of an index, or "" without a
// cache root.
func rendezvousPath(env *Env, index string) string {
	home, err := assets.Home(env.Getenv)
	if err != nil {
		return ""
	}
	h := sha256.Sum256([]byte(index))
	return filepath.Join(home, servedDir, hex.EncodeToString(h[:16])+".json")
}

// settingsKey digests what decides a search's answer besides the index,
// the request and the build: the embedder and the reranker, as the flags
// and environment give them (keys and the embedder's timeouts aside; the
// reranker's timeout decides whether an answer is reranked), and the
// time zone, in which today and a date's day are read ([due:<today],
// file.mtime). Two processes of one build with the same key give the
// same answers.
func settingsKey(env *Env, ef *engineFlags) string {
	c := ef.embedder.cfg
	parts := []any{c.Provider, c.URL, c.Model, c.Dim, c.Precision, c.MaxTokens, c.LibPath, c.ModelDir,
		env.Getenv(assets.EnvHome), zoneRules()}
	if r := ef.reranker; r != nil {
		parts = append(parts, r.key(env)...)
	}
	b, _ := json.Marshal(parts)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// zoneRules names the machine's time zone by what it does through the
// year: its name and offset on the first of each quarter, this year and
// next. Two zones that agree today may part in summer (London and
// Abidjan), and one zone stays one across its clock changes.
func zoneRules() string {
	y := time.Now().Year()
	var b strings.Builder
	for _, year := range []int{y, y + 1} {
		for m := time.January; m <= time.December; m += 3 {
			b.WriteString(time.Date(year, m, 1, 12, 0, 0, 0, time.Local).Format("MST-07:00 "))
		}
	}
	return b.String()
}

// announce writes the rendezvous of a server listening at addr, and
// returns what removes it (only while it is still this server's). A server
// of the index that was announced before and still runs is announced again
// in its place, so a second serve stopping leaves the first answering.
// Failing to write it costs only speed, so failures are silent.
func announce(env *Env, ef *engineFlags, index, instance string, addr net.Addr) func() {
	tcp, ok := addr.(*net.TCPAddr)
	file := rendezvousPath(env, index)
	if !ok || file == "" || !(tcp.IP.IsLoopback() || tcp.IP.IsUnspecified()) {
		return func() {}
	}
	host := tcp.IP.String() // a loopback address as it is
	if tcp.IP.IsUnspecified() {
		host = "127.0.0.1" // every interface, IPv6's too (Go listens dual-stack): reach it on loopback
	}
	rv := rendezvous{PID: os.Getpid(), URL: "http://" + net.JoinHostPort(host, strconv.Itoa(tcp.Port)),
		Index: index, Build: sameCode(), Settings: settingsKey(env, ef), Instance: instance}
	prev, perr := readRendezvous(file)
	if !writeRendezvous(file, rv) {
		return func() {}
	}
	return func() {
		cur, err := readRendezvous(file)
		if err != nil || cur.Instance != instance {
			return
		}
		if perr == nil && prev.Instance != instance && prev.Index == index && alive(prev.PID) && writeRendezvous(file, prev) {
			return
		}
		os.Remove(file)
	}
}

// writeRendezvous replaces file with rv in one rename, readable by the
// user alone, and reports whether it did.
func writeRendezvous(file string, rv rendezvous) bool {
	b, _ := json.Marshal(rv)
	if os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return false
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".rendezvous-*")
	if err != nil {
		return false
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
		return false
	}
	return true
}

// newInstance is a server's random name.
func newInstance() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func readRendezvous(file string) (rendezvous, error) {
	var rv rendezvous
	b, err := os.ReadFile(file)
	if err != nil {
		return rv, err
	}
	return rv, json.Unmarshal(b, &rv)
}

// errNotServed says search must run the query itself.
var errNotServed = errors.New("no server of this index to ask")

// servedSearch asks a running serve of the same index and settings for
// the answer to the query q (the REST API's parameters); errNotServed
// (or any error) means search it here.
func servedSearch(ctx context.Context, env *Env, ef *engineFlags, q url.Values) (*mdsearch.SearchResponse, error) {
	if env.Getenv("MDSEARCH_NO_SERVE") != "" {
		return nil, errNotServed
	}
	rv, ok := runningServe(env, ef)
	if !ok || rv.Settings != settingsKey(env, ef) {
		return nil, errNotServed
	}
	if rv.Build != sameCode() {
		// Rebuilt since serve started, or another version: say why this
		// search is slow, without guessing which of the two is newer.
		env.say("a serve of this index runs another build (%s) than this command (%s); searching here: "+
			"run serve and search from one build to have serve answer", rv.Build, sameCode())
		return nil, errNotServed
	}
	u, err := url.Parse(rv.URL)
	if err != nil || u.Scheme != "http" || !rest.IsLoopback(u.Hostname()) {
		return nil, errNotServed // only this machine's own servers are asked
	}
	ctx, cancel := context.WithTimeout(ctx, servedTimeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, rv.URL+"/api/v1/semantic-search?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	// The instance is the search's proof to a serve that wants a token
	// (rest.Guard): the token itself never goes to the port a file named.
	hr.Header.Set(rest.InstanceHeader, rv.Instance)
	res, err := servedClient.Do(hr)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", rv.URL, res.Status)
	}
	var out mdsearch.SearchResponse
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return nil, err
	}
	return &out, nil
}

// servedTimeout bounds the wait for a server; past it search runs the
// query itself (a server busy re-indexing answers late).
const servedTimeout = 5 * time.Second

// servedClient talks to loopback servers only, never through a proxy.
var servedClient = &http.Client{Transport: &http.Transport{Proxy: nil}}

// servedIndex is the index path as serve and search both name it in a
// rendezvous: absolute, links resolved.
func servedIndex(env *Env, ef *engineFlags) (string, bool) {
	p, err := ef.indexPath(env)
	if err != nil {
		return "", false // open says why
	}
	if _, err := filepath.Abs(p); err != nil {
		return "", false
	}
	return resolved(p), true
}

// searchValues are a request as the REST API's query parameters take it,
// the tags and conditions as they were typed.
func searchValues(req mdsearch.SearchRequest, tags, where []string) url.Values {
	q := url.Values{"q": {req.Query}, "n": {strconv.Itoa(req.N)}, "mode": {string(req.Mode)}, "max_tokens": {strconv.Itoa(req.MaxTokens)}}
	if req.MaxPerPage != 0 { // absent: the default cap
		q.Set("max_per_page", strconv.Itoa(req.MaxPerPage))
	}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("collection", req.Collection)
	set("path_prefix", req.PathPrefix)
	set("sort", req.Sort)
	if req.MinScore > 0 {
		q.Set("min_score", strconv.FormatFloat(req.MinScore, 'g', -1, 64))
	}
	if req.Offset > 0 {
		q.Set("offset", strconv.Itoa(req.Offset))
	}
	if req.NoRerank {
		q.Set("no_rerank", "true")
	}
	if req.AsTyped {
		q.Set("as_typed", "true")
	}
	if req.Explain {
		q.Set("explain", "true")
	}
	for k, vs := range map[string][]string{"tag": tags, "where": where, "exclude": req.Exclude} {
		if len(vs) > 0 {
			q[k] = vs
		}
	}
	return q
}

// runningServe is the rendezvous of a serve of the index that still runs.
func runningServe(env *Env, ef *engineFlags) (rendezvous, bool) {
	index, ok := servedIndex(env, ef)
	if !ok {
		return rendezvous{}, false
	}
	rv, err := readRendezvous(rendezvousPath(env, index))
	return rv, err == nil && rv.Index == index && alive(rv.PID)
}
