//go:build unix

package cli

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mdsearch/mdsearch/embed/sentenceencoder"
)

// While another process's first run is embedding, before its first
// vector, status says a run is embedding now, not keyword search only.
func TestStatusSaysEmbeddingRuns(t *testing.T) {
	needModel(t)
	index := stoppedAtEmbed(t)
	f, err := os.OpenFile(index+".lock", os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	f.WriteString("mdsearch pid " + strconv.Itoa(os.Getpid()) + "\n") // a live process's run, as far as status knows
	code, out, errs := run(t, index, "status")
	want := "model:  none yet (an index run is going on, and the notes are owed vectors of " + sentenceencoder.ModelID
	if code != 0 || !strings.Contains(out, want) || strings.Contains(out, "keyword search only") {
		t.Errorf("status: exit %d\n%s%s\nwant %q", code, out, errs, want)
	}
	if code, out, _ := run(t, index, "status", "--json"); code != 0 || !strings.Contains(out, `"embed_running": "`+sentenceencoder.ModelID) {
		t.Errorf("status --json:\n%s", out)
	}
}
