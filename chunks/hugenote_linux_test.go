//go:build linux

package chunks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

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
// line; sections a block and section per heading).
var hugeNotes = []struct{ name, line string }{
	{"one line of words", "word "},
	{"nested quotes", strings.Repeat("> ", 100) + "quoted words here\n"},
	{"nested lists", strings.Repeat("- ", 100) + "item words\n"},
	{"quotes and lists", strings.Repeat("> - ", 50) + "mixed words\n"},
	{"short lines", "a\n"},
	{"headings", "# h\n"},
	{"list items", "- a b\n"},
	{"paragraphs", "a b\n\n"},
	{"quotes", "> a\n\n"},
	{"emphasis", "*a_"},
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
			path := filepath.Join(t.TempDir(), "note.md")
			note := bytes.Repeat([]byte(c.line), hugeNoteSize/len(c.line))
			if err := os.WriteFile(path, note, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestHugeNoteChild$")
			cmd.Env = append(os.Environ(), "MDSEARCH_HUGE_NOTE="+path)
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
// the note named by MDSEARCH_HUGE_NOTE, as indexing does.
func TestHugeNoteChild(t *testing.T) {
	path := os.Getenv("MDSEARCH_HUGE_NOTE")
	if path == "" {
		t.Skip("run by TestHugeNoteMemory")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := sections.Parse("note.md", src)
	if cs := Split(doc, DefaultOptions()); len(cs) == 0 {
		t.Fatal("no passages")
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s\n", hwm.Find(status))
}
