//go:build linux

package cli

import (
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal side.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skip("cannot unlock a pseudo-terminal:", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skip("cannot name a pseudo-terminal:", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("cannot open a pseudo-terminal:", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Main's output wrapper still lets commands see a terminal, so a note's
// escape sequences are shown, not obeyed.
func TestTerminalThroughErrWriter(t *testing.T) {
	tty := openPTY(t)
	if ok, _ := isTerminal(tty); !ok {
		t.Skip("the pseudo-terminal is not seen as a terminal")
	}
	if ok, _ := isTerminal(&errWriter{w: tty}); !ok {
		t.Error("a terminal behind errWriter is not seen as one")
	}
	if _, safe := screen(&errWriter{w: tty}).(termSafe); !safe {
		t.Error("output to a terminal behind errWriter is not made safe")
	}
}
