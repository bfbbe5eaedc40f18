package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal whose window is
// cols columns wide: what is written to tty, a terminal as a user's
// stderr is, is read from the master end.
func openPTY(t *testing.T, cols uint16) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: cols}); err != nil {
		t.Fatal(err)
	}
	return master, tty
}

// TestProgressBarNarrowTerminal: on a terminal of 20 columns (COLUMNS=20)
// the progress bars of train-sources, experiment and synth (barProgress)
// and of bench drew their line of 30 to 40 characters, which wrapped, and
// every redraw went back to the start of its second line only, leaving
// the first behind: a screen of stale lines. No bar is drawn there now; a
// terminal of 80 columns still gets them.
func TestProgressBarNarrowTerminal(t *testing.T) {
	for _, tc := range []struct {
		cols    uint16
		wantBar bool
	}{{20, false}, {80, true}} {
		for _, b := range []struct {
			name, what string
			draw       func(tty *os.File)
		}{
			{"barProgress", "training sources", func(tty *os.File) {
				var bar *progressbar.ProgressBar
				progress := barProgress(&streams{err: tty}, &bar, "training sources")
				for done := range 49 {
					progress(done, 48)
				}
			}},
			{"bench", "timing", func(tty *os.File) {
				if code := run([]string{"bench", "--repeats", "1"}, strings.NewReader(""), io.Discard, tty); code != exitOK {
					t.Errorf("bench: exit status %d", code)
				}
			}},
		} {
			t.Run(fmt.Sprint(b.name, "/", tc.cols), func(t *testing.T) {
				master, tty := openPTY(t, tc.cols)
				read := make(chan string)
				go func() {
					var buf bytes.Buffer
					_, _ = io.Copy(&buf, master) // until EIO, when tty is closed
					read <- buf.String()
				}()
				b.draw(tty)
				tty.Close()
				drawn := <-read
				if got := strings.Contains(drawn, "\r"+b.what); got != tc.wantBar {
					t.Errorf("%d columns: bar drawn %v, want %v; the terminal received %q", tc.cols, got, tc.wantBar, drawn)
				}
			})
		}
	}
}
