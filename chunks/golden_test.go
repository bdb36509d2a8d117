package chunks

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/sections"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

// golden is what a golden file records of one note: the parse, then each
// passage, compactly, with its windows.
type golden struct {
	Options     string         `json:"options"`
	Title       string         `json:"title"`
	Tags        []string       `json:"tags"`
	Frontmatter map[string]any `json:"frontmatter"`
	Warnings    []string       `json:"warnings"`
	Headings    []goldHeading  `json:"headings"`
	Passages    []goldPassage  `json:"passages"`
}

type goldHeading struct {
	Level  int    `json:"level"`
	Text   string `json:"text"`
	Line   int    `json:"line"`
	Byte   int    `json:"byte"`
	Setext bool   `json:"setext,omitempty"`
}

// goldPassage is a passage without its text: its windows show it.
type goldPassage struct {
	ID           string       `json:"id"`
	SectionPath  []string     `json:"section_path"`
	HeadingLevel int          `json:"heading_level"`
	Lines        [2]int       `json:"lines"`
	Bytes        [2]int       `json:"bytes"`
	Part         string       `json:"part"`
	Words        int          `json:"word_count"`
	Sections     [][]string   `json:"sections,omitempty"`
	Windows      []goldWindow `json:"windows"`
}

type goldWindow struct {
	Bytes     [2]int `json:"bytes"`
	Tokens    int    `json:"token_count"`
	EmbedText string `json:"embed_text"`
}

// goldenOptions are small enough that short notes show windows being cut,
// with the default reading budget; notes named *h2h3* use that profile.
// Most notes fit the default reading budget whole, so the notes about
// grouping (*h2h3*, *stubs*) get a budget of 100 words, under which their
// sections become passages of their own.
func goldenOptions(name string) (Options, string) {
	o, desc := Options{MaxTokens: 64}, "max_tokens=64 counter=words profile=sections"
	if strings.Contains(name, "h2h3") {
		o.Profile, desc = ProfileH2H3, "max_tokens=64 counter=words profile=h2h3"
	}
	if strings.Contains(name, "h2h3") || strings.Contains(name, "stubs") {
		o.PassageWords = 100
		return o, desc + " passage_words=100"
	}
	return o, desc + " passage_words=300"
}

func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	if len(files) < 10 {
		t.Fatalf("only %d golden notes in testdata", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(f)
			opts, desc := goldenOptions(name)
			doc := sections.Parse(name, src)
			cs := safeSplit(t, doc, opts)
			if err := checkChunks(doc, opts, cs); err != nil {
				t.Fatal(err)
			}
			g := golden{Options: desc, Title: doc.Title, Tags: doc.Tags, Frontmatter: doc.Frontmatter, Warnings: doc.Warnings}
			for _, h := range doc.Headings {
				g.Headings = append(g.Headings, goldHeading{h.Level, h.Text, h.Line, h.StartByte, h.Setext})
			}
			for _, c := range cs {
				p := goldPassage{c.ID, c.SectionPath, c.HeadingLevel, [2]int{c.StartLine, c.EndLine},
					[2]int{c.StartByte, c.EndByte}, partString(c.Part, c.Parts), c.WordCount, c.Sections, nil}
				for _, w := range c.Windows {
					p.Windows = append(p.Windows, goldWindow{[2]int{w.StartByte, w.EndByte}, w.TokenCount, w.EmbedText})
				}
				g.Passages = append(g.Passages, p)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(g); err != nil {
				t.Fatal(err)
			}
			gf := strings.TrimSuffix(f, ".md") + ".golden.json"
			if *update {
				if err := os.WriteFile(gf, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gf)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the output; run go test -run TestGolden -update and review the diff\n%s", gf, firstDiff(buf.String(), string(want)))
			}
		})
	}
}

func partString(part, parts int) string {
	return strings.Join([]string{itoa(part), itoa(parts)}, "/")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// firstDiff shows the first differing line of got and want.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n got: " + a + "\nwant: " + b
		}
	}
	return ""
}
