package provider

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/mdsearch/mdsearch/assets"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
)

// Lexicon is the local model's vocabulary as words known to be spelled
// right (embed.Lexicon), for a search that runs without the local model
// (keyword mode, or a remote embedder): its vocab.json is read when the
// first word is asked about, which only a misspelled query does. nil
// when the model's files are not found.
func Lexicon(cfg Config) embed.Lexicon {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	p, err := assets.Locate(assets.Paths{LibPath: cfg.LibPath, ModelDir: cfg.ModelDir}, getenv)
	if err != nil {
		return nil
	}
	return &vocabLexicon{path: filepath.Join(p.ModelDir, "vocab.json")}
}

// vocabLexicon reads the model's words once, when first asked.
type vocabLexicon struct {
	path  string
	once  sync.Once
	words sentenceencoder.Words // nil when they could not be read: no word is known
}

// Knows implements embed.Lexicon.
func (l *vocabLexicon) Knows(word string) bool {
	l.once.Do(func() { l.words, _ = sentenceencoder.LoadWords(l.path) })
	return l.words.Knows(word)
}
