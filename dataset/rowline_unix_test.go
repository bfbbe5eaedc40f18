//go:build unix

package dataset

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRowLineNamedPipe: RowLine and SkippedBlankLines give 0 for a named
// pipe at once, without opening it again (an open of a pipe that has no
// writer waits for one: predict's overflow error read its FIFO input a
// second time and hung).
func TestRowLineNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	for name, f := range map[string]func() int{
		"RowLine":           func() int { return RowLine(path, 0, 3) },
		"SkippedBlankLines": func() int { first, _ := SkippedBlankLines(path); return first },
	} {
		got := make(chan int, 1)
		go func() { got <- f() }()
		select {
		case line := <-got:
			if line != 0 {
				t.Errorf("%s of a named pipe: line %d, want 0", name, line)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s of a named pipe without a writer still waits after 30 s: it opened the pipe again", name)
		}
	}
}
