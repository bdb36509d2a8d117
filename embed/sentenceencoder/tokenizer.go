package sentenceencoder

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is the Universal Sentence Encoder lite tokenizer: a
// SentencePiece-style vocabulary searched with a best-score lattice. It
// reproduces the reference JavaScript tokenizer exactly, quirks included, so
// token ids match the ones the published model was used with.
type Tokenizer struct {
	nodes    []trieNode
	rootBMP  []int32 // root children by rune for the Basic Multilingual Plane; -1 = none
	idLen    []int32 // UTF-16 length of each piece, used when walking the lattice back
	maxDepth int     // longest piece, in code points

	// The count path (count.go).
	wordwise  bool       // the vocabulary allows counting word by word
	scoreOf   []float64  // score of each id as the trie holds it
	maxAbs    float64    // largest |score| of a piece
	sepScore  float64    // score of the piece "▁"
	flat      []flatNode // the trie breadth first
	flatEdges []trieEdge
	flatRoot  []int32   // root children of ASCII runes in flat
	flatSep   int32     // flat node of "▁"
	breaks    [256]bool // ASCII bytes, other than space, that no piece holds
	plain     [256]bool // bytes that neither end a run nor may start U+2581
	// plainUsual is set when the plain bytes are all but the controls,
	// space, DEL and U+2581's first byte, as with the default model:
	// skipPlain then reads eight bytes at a time.
	plainUsual bool
	// unsigned marks the bytes of pieces that score 0 or more: a word
	// without them scores below 0 from a text's start on, so it makes the
	// same choices there as after other words (ranges.go).
	unsigned [256]bool
	caches   [cacheShards]wordCache
	freeMu   sync.Mutex
	free     [][]int64 // running totals of released ranges (ranges.go)
}

type trieNode struct {
	edges []trieEdge // sorted by rune
	id    int32      // vocabulary id if a piece ends here, else -1
	score float64
}

type trieEdge struct {
	r     rune
	child int32
}

// separator replaces spaces and marks the start of the text, as in
// SentencePiece.
const separator = '\u2581'

// reservedIDs are the leading vocabulary entries (unknown, <s>, </s>, extra
// ids) that never match text. Id 0 is the unknown token.
const reservedIDs = 6

// LoadTokenizer reads a vocab.json: an array of [piece, score] pairs whose
// index is the token id.
func LoadTokenizer(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := parseVocab(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// LoadDefaultTokenizer reads vocab.json from the model folder New uses by
// default ($MDSEARCH_MODEL_DIR, else the asset cache). The tokenizer needs
// no other asset.
func LoadDefaultTokenizer() (*Tokenizer, error) {
	_, dir := resolvePaths("", "")
	return LoadTokenizer(filepath.Join(dir, "vocab.json"))
}

// parseVocab builds a Tokenizer from the contents of a vocab.json.
func parseVocab(data []byte) (*Tokenizer, error) {
	pieces, scores, err := readPieces(data)
	if err != nil {
		return nil, err
	}
	return newTokenizer(pieces, scores)
}

// readPieces reads the pieces of a vocab.json and their scores.
func readPieces(data []byte) (pieces []string, scores []float64, err error) {
	// One Unmarshal into any: one per entry took three times as long, a
	// cost every process that loads the model pays. null stands for ""
	// and 0, as it did when each value was unmarshalled alone.
	var raw [][]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, nil, fmt.Errorf("not a JSON array of [piece, score] pairs: %w", err)
	}
	pieces = make([]string, len(raw))
	scores = make([]float64, len(raw))
	for i, entry := range raw {
		var okPiece, okScore bool
		if len(entry) == 2 {
			pieces[i], okPiece = entry[0].(string)
			scores[i], okScore = entry[1].(float64)
			okPiece = okPiece || entry[0] == nil
			okScore = okScore || entry[1] == nil
		}
		if !okPiece || !okScore {
			return nil, nil, fmt.Errorf("entry %d is not a [piece, score] pair", i)
		}
	}
	return pieces, scores, nil
}

// Words are a vocabulary's whole words: its pieces that are a word start
// ("▁status") followed by the rest of one word, without the mark. Its
// Knows is the Tokenizer's, without building a tokenizer.
type Words map[string]bool

// Knows reports whether word is one of the words (embed.Lexicon).
func (w Words) Knows(word string) bool { return w[word] }

// LoadWords reads the whole words of a vocab.json.
func LoadWords(path string) (Words, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pieces, _, err := readPieces(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w := Words{}
	for _, p := range pieces[min(reservedIDs, len(pieces)):] {
		if word, ok := strings.CutPrefix(p, string(separator)); ok && word != "" {
			w[word] = true
		}
	}
	return w, nil
}

func newTokenizer(pieces []string, scores []float64) (*Tokenizer, error) {
	if len(pieces) <= reservedIDs || len(pieces) > 1<<16 {
		return nil, fmt.Errorf("vocabulary has %d entries, want %d to 65536", len(pieces), reservedIDs+1)
	}
	t := &Tokenizer{
		nodes:   []trieNode{{id: -1}},
		rootBMP: make([]int32, 1<<16),
		idLen:   make([]int32, len(pieces)),
	}
	for i := range t.rootBMP {
		t.rootBMP[i] = -1
	}
	for id, p := range pieces {
		t.idLen[id] = int32(len(utf16.Encode([]rune(p))))
		if id >= reservedIDs {
			t.insert(p, scores[id], int32(id))
		}
	}
	t.countSetup(pieces, scores)
	return t, nil
}

// insert adds a piece; a later duplicate replaces an earlier one, as in the
// reference trie.
func (t *Tokenizer) insert(piece string, score float64, id int32) {
	node, depth := int32(0), 0
	for _, r := range piece {
		next := t.child(node, r)
		if next < 0 {
			next = int32(len(t.nodes))
			t.nodes = append(t.nodes, trieNode{id: -1})
			t.addEdge(node, r, next)
		}
		node = next
		depth++
	}
	if depth == 0 {
		return
	}
	t.nodes[node].id = id
	t.nodes[node].score = score
	t.maxDepth = max(t.maxDepth, depth)
}

func (t *Tokenizer) addEdge(node int32, r rune, child int32) {
	if node == 0 && r < 1<<16 {
		t.rootBMP[r] = child
	}
	n := &t.nodes[node]
	i, _ := slices.BinarySearchFunc(n.edges, r, func(e trieEdge, r rune) int { return int(e.r - r) })
	n.edges = slices.Insert(n.edges, i, trieEdge{r, child})
}

func (t *Tokenizer) child(node int32, r rune) int32 {
	if node == 0 && r >= 0 && r < 1<<16 {
		return t.rootBMP[r]
	}
	edges := t.nodes[node].edges
	if len(edges) <= 8 {
		for _, e := range edges {
			if e.r == r {
				return e.child
			}
		}
		return -1
	}
	i, ok := slices.BinarySearchFunc(edges, r, func(e trieEdge, r rune) int { return int(e.r - r) })
	if !ok {
		return -1
	}
	return edges[i].child
}

// Encode returns every token id of text, without truncation.
func (t *Tokenizer) Encode(text string) []int32 {
	ids, _ := t.encode(text, -1)
	return ids
}

// Count returns the number of tokens in text, without truncation.
func (t *Tokenizer) Count(text string) int {
	if t.wordwise {
		return t.count(text)
	}
	_, n := t.encode(text, 0)
	return n
}

// CountTokens implements embed.TokenCounter with the same counts as
// Model.CountTokens, so text can be cut to the model's window without
// loading the model.
func (t *Tokenizer) CountTokens(text string) int { return t.Count(text) }

// EncodeLimit returns the first limit token ids of text and the total token
// count. The model only sees those first tokens.
func (t *Tokenizer) EncodeLimit(text string, limit int) ([]int32, int) {
	return t.encode(text, max(limit, 0))
}

// prepare normalises text the way the reference does: NFKC, spaces become
// the separator, and a separator starts any non-empty text.
func prepare(text string) string {
	text = norm.NFKC.String(strings.ToValidUTF8(text, "\uFFFD"))
	if text == "" {
		return ""
	}
	return string(separator) + strings.ReplaceAll(text, " ", string(separator))
}

// encode tokenizes text. It keeps the first limit ids (all when limit < 0)
// and returns the total count. Memory is two bytes per code point plus the
// normalised text, so huge inputs stay linear.
func (t *Tokenizer) encode(text string, limit int) ([]int32, int) {
	s := prepare(text)
	n := utf8.RuneCountInString(s)
	words := t.lattice(s, n)
	return t.backtrack(words, n, limit)
}

// lattice scores every segmentation: words[end] is the id of the best piece
// ending at code point end. Positions are visited start by start, which
// matches the reference's end-by-end order because a position's best score
// is final before any piece starting there is scored. The update rule,
// including treating a best score of exactly 0 as unset, is the reference's.
func (t *Tokenizer) lattice(s string, n int) []uint16 {
	words := make([]uint16, n+1)
	ring := make([]float64, t.maxDepth+1) // best scores of positions i..i+maxDepth
	m := len(ring)
	relax := func(end int, score float64, id int32) {
		b := &ring[end%m]
		if *b == 0 || score >= *b {
			*b = score
			words[end] = uint16(id)
		}
	}
	off := 0
	for i := 0; i < n; i++ {
		ring[(i+t.maxDepth)%m] = 0 // slot last used by position i-1
		base := ring[i%m]
		node, depth, matched := int32(0), 0, false
		for j := off; j < len(s); {
			r, size := utf8.DecodeRuneInString(s[j:])
			if node = t.child(node, r); node < 0 {
				break
			}
			j += size
			depth++
			if nd := &t.nodes[node]; nd.id >= 0 {
				relax(i+depth, nd.score+base, nd.id)
				matched = true
			}
		}
		if !matched {
			relax(i+1, base, 0) // unknown symbol, score 0
		}
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return words
}

// backtrack walks the best pieces back from the end, stepping by each
// piece's UTF-16 length as the reference does, and merges runs of unknown
// tokens. It keeps the first limit ids of the text (the last ones met).
func (t *Tokenizer) backtrack(words []uint16, n, limit int) ([]int32, int) {
	var rev []int32 // ids in reverse order; a ring of size limit when limit >= 0
	total, prevUnk := 0, false
	for iter := n; iter > 0; {
		id := int32(words[iter])
		iter -= int(t.idLen[id])
		unk := id == 0
		if unk && prevUnk {
			continue
		}
		prevUnk = unk
		if limit < 0 {
			rev = append(rev, id)
		} else if limit > 0 {
			if len(rev) < limit {
				rev = append(rev, id)
			} else {
				rev[total%limit] = id
			}
		}
		total++
	}
	if limit > 0 && total > limit {
		// Rotate the ring so rev holds ids in reverse text order.
		k := total % limit
		rev = append(rev[k:], rev[:k]...)
	}
	slices.Reverse(rev)
	return rev, total
}

// VocabSize is the number of token ids.
func (t *Tokenizer) VocabSize() int { return len(t.idLen) }

// Knows reports whether word is a whole word of the vocabulary: "▁"
// followed by word is one of its pieces (as Words has it).
func (t *Tokenizer) Knows(word string) bool {
	node := t.child(0, separator)
	for _, r := range word {
		if node < 0 {
			return false
		}
		node = t.child(node, r)
	}
	return word != "" && node >= 0 && t.nodes[node].id >= 0
}

// Unread is the share, 0 to 1, of text's characters (spaces aside) that
// the model does not read as parts of words: unknown to the vocabulary
// (Chinese, Japanese, Korean, Thai, Hebrew), or spelled out one non-ASCII
// letter a piece (Cyrillic, Greek, Arabic, Devanagari). The model reads a
// run of unknown characters as one unknown token, and letter-by-letter
// texts of one script all embed close together (cosine 0.87–0.93 between
// unrelated Russian notes), so a text made of either says nothing of what
// it means. Latin letters never count: a word with one the vocabulary
// lacks (Łódź, kůň) is still read by its others.
func (t *Tokenizer) Unread(text string) float64 {
	s := prepare(text)
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return 0
	}
	words := t.lattice(s, n)
	runes := []rune(s)
	unread, chars := 0, 0
	for _, r := range runes {
		if r != separator {
			chars++
		}
	}
	for iter := n; iter > 0; {
		id := words[iter]
		step := int(t.idLen[id])
		r := runes[iter-1] // an unknown piece, or a lone letter, is one code point
		if (id == 0 || step == 1 && r >= utf8.RuneSelf && r != separator) && !unicode.Is(unicode.Latin, r) {
			unread++ // a Latin letter the model lacks (ł, ů) leaves the word's others read
		}
		iter -= step
	}
	if chars == 0 {
		return 0
	}
	return min(1, float64(unread)/float64(chars))
}
