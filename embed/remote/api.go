package remote

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// Both APIs take the same request: {"model": ..., "input": [...]}.
type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

// ollamaResponse is the answer of Ollama's POST /api/embed.
type ollamaResponse struct {
	Embeddings [][]float32 `json:"embeddings"`
}

// openAIResponse is the answer of POST /v1/embeddings.
type openAIResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

func (e *Embedder) request(texts []string) []byte {
	body, _ := json.Marshal(embedRequest{Model: e.opts.Model, Input: texts}) // strings only: cannot fail
	return body
}

// decode reads the vectors of a 200 answer, in input order, and checks
// there is one per text.
func (e *Embedder) decode(body []byte, n int) ([][]float32, error) {
	var vecs [][]float32
	var err error
	if e.opts.API == Ollama {
		vecs, err = e.decodeOllama(body)
	} else {
		vecs, err = e.decodeOpenAI(body, n)
	}
	if err != nil {
		return nil, err
	}
	if len(vecs) != n {
		return nil, e.fail(NotEmbeddings, countHint(n, len(vecs)), "asked for %d embeddings, the server returned %d", n, len(vecs))
	}
	for i, v := range vecs {
		if len(v) == 0 {
			return nil, e.fail(NotEmbeddings, "", "the server returned an empty vector for text %d of the batch", i+1)
		}
	}
	return vecs, nil
}

func (e *Embedder) decodeOllama(body []byte) ([][]float32, error) {
	var r ollamaResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, e.garbage(body, err)
	}
	if r.Embeddings == nil {
		return nil, e.garbage(body, nil)
	}
	return r.Embeddings, nil
}

// decodeOpenAI orders the vectors by their index field, which must name
// each input exactly once.
func (e *Embedder) decodeOpenAI(body []byte, n int) ([][]float32, error) {
	var r openAIResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, e.garbage(body, err)
	}
	if r.Data == nil {
		return nil, e.garbage(body, nil)
	}
	if len(r.Data) != n {
		return nil, e.fail(NotEmbeddings, countHint(n, len(r.Data)), "asked for %d embeddings, the server returned %d", n, len(r.Data))
	}
	vecs := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index == nil || *d.Index < 0 || *d.Index >= n || vecs[*d.Index] != nil {
			return nil, e.fail(NotEmbeddings, "",
				"the server's answer has a missing, repeated or out-of-range index (%s) for %d inputs", indexText(d.Index), n)
		}
		vecs[*d.Index] = d.Embedding
	}
	return vecs, nil
}

// garbage explains a 200 answer that is not the expected JSON.
func (e *Embedder) garbage(body []byte, err error) error {
	what := "JSON without the expected field"
	key := "embeddings"
	if e.opts.API == OpenAI {
		key = "data"
	}
	what += " \"" + key + "\""
	hint := "is --embed-url an " + apiTitle(e.opts.API) + " server? mdsearch posts to " + e.shown
	if err != nil {
		what = "invalid JSON (" + err.Error() + ")"
		if nanVector.Match(body) {
			// Python servers write a NaN as a bare NaN, which JSON cannot hold.
			what, hint = "a vector holding NaN (not JSON)", "the server's model gave a broken vector for some text of the batch; check its logs, or try MDSEARCH_EMBED_BATCH=1 to find the text"
		}
	}
	return e.fail(NotEmbeddings, hint,
		"the server answered with %s; the body starts %s", what, strconv.Quote(clip(e.mask(strings.TrimSpace(string(body))), 120)))
}

// countHint is the hint of an answer with got vectors for asked texts:
// fewer, a server that drops inputs it cannot embed; more, one that
// splits them (or is no embeddings API of one vector a text).
func countHint(asked, got int) string {
	if got > asked {
		return "the server returned more vectors than texts: does it split long texts into several (as some chunking proxies do)? " +
			"point --embed-url at an embeddings API that returns one vector a text"
	}
	return "the server dropped some texts of the batch (too long for its model, or empty?); check its logs, or try MDSEARCH_EMBED_BATCH=1 to find them"
}

// nanVector finds a bare NaN or Infinity where a number of a vector goes.
var nanVector = regexp.MustCompile(`[\[,]\s*-?(NaN|Infinity)\s*[,\]]`)

func indexText(i *int) string {
	if i == nil {
		return "none"
	}
	return strconv.Itoa(*i)
}
