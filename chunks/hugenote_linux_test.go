//go:build linux

package chunks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/sections"
)

// hugeNoteSize is just under the default size limit (10 MB): the largest
// note an index run reads.
const hugeNoteSize = 9 << 20

// maxHugeNoteRSS bounds the resident memory of parsing and splitting one
// such note. Indexing adds the index and, with the local model, about
// 100 MB more; the goal is 300 MB for the whole run.
const maxHugeNoteRSS = 200 << 20

// hugeNotes are notes of hugeNoteSize built of one line repeated: shapes
// that once took gigabytes (goldmark keeps a node per block, container and
// line; sections a block and section per heading). A note with a head or a
// tail has them around the repeated line; one counted in tokens is cut
// with the local model's tokenizer, not in words: the windows' counter
// prepares its ranges, and a 9 MB word took 265 MB to prepare.
var hugeNotes = []struct {
	name, head, line, tail string
	tokens                 bool
}{
	{name: "one line of words", line: "word "},
	{name: "nested quotes", line: strings.Repeat("> ", 100) + "quoted words here\n"},
	{name: "nested lists", line: strings.Repeat("- ", 100) + "item words\n"},
	{name: "quotes and lists", line: strings.Repeat("> - ", 50) + "mixed words\n"},
	{name: "short lines", line: "a\n"},
	{name: "headings", line: "# h\n"},
	{name: "list items", line: "- a b\n"},
	{name: "paragraphs", line: "a b\n\n"},
	{name: "quotes", line: "> a\n\n"},
	{name: "emphasis", line: "*a_"},
	// One word: the windows read its first KeepRun bytes, and the counter
	// leaves the rest out of its walk, whatever follows the word.
	{name: "one word, tokens", head: "# E\n\n", line: "*a_", tail: "\n", tokens: true},
	{name: "one word then words, tokens", head: "# E\n\n", line: "*a_", tail: " then words\n", tokens: true},
	{name: "one word to the end, tokens", line: "*a_", tokens: true},
}

// hwm finds the VmHWM line of /proc/self/status: the child's own peak. The
// rusage of a child is no use: its maxrss starts at the parent's at fork.
var hwm = regexp.MustCompile(`VmHWM:\s+(\d+) kB`)

// TestHugeNoteMemory parses and splits each huge note in a child process
// and bounds the child's peak resident memory.
func TestHugeNoteMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("parses notes of 9 MB")
	}
	for _, c := range hugeNotes {
		t.Run(c.name, func(t *testing.T) {
			env := "MDSEARCH_HUGE_NOTE_TOKENS="
			if c.tokens {
				if _, err := sentenceencoder.LoadDefaultTokenizer(); err != nil {
					testenv.Absent(t, "model assets missing (run `mdsearch setup`): %v", err)
				}
				env += "1"
			}
			path := filepath.Join(t.TempDir(), "note.md")
			n := (hugeNoteSize - len(c.head) - len(c.tail)) / len(c.line)
			note := slices.Concat([]byte(c.head), bytes.Repeat([]byte(c.line), n), []byte(c.tail))
			if err := os.WriteFile(path, note, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestHugeNoteChild$")
			cmd.Env = append(os.Environ(), "MDSEARCH_HUGE_NOTE="+path, env)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			m := hwm.FindSubmatch(out)
			if m == nil {
				t.Fatalf("child printed no VmHWM:\n%s", out)
			}
			rss, _ := strconv.Atoi(string(m[1]))
			rss <<= 10 // kB
			t.Logf("peak RSS %d MB", rss>>20)
			if rss > maxHugeNoteRSS {
				t.Errorf("peak RSS %d MB, over %d MB", rss>>20, maxHugeNoteRSS>>20)
			}
		})
	}
}

// TestHugeNoteChild is TestHugeNoteMemory's child: it parses and splits
// the note named by MDSEARCH_HUGE_NOTE, as indexing does, counting tokens
// with the local model's tokenizer when MDSEARCH_HUGE_NOTE_TOKENS is set.
func TestHugeNoteChild(t *testing.T) {
	path := os.Getenv("MDSEARCH_HUGE_NOTE")
	if path == "" {
		t.Skip("run by TestHugeNoteMemory")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	if os.Getenv("MDSEARCH_HUGE_NOTE_TOKENS") != "" {
		tok, err := sentenceencoder.LoadDefaultTokenizer()
		if err != nil {
			t.Fatal(err)
		}
		opts.Counter = tok
	}
	doc := sections.Parse("note.md", src)
	if cs := Split(doc, opts); len(cs) == 0 {
		t.Fatal("no passages")
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s\n", hwm.Find(status))
}
