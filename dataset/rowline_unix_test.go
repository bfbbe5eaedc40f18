//go:build unix

package dataset

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRowLineNamedPipe: RowLine gives 0 for a named pipe at once, without
// opening it again (an open of a pipe that has no writer waits for one:
// predict's overflow error read its FIFO input a second time and hung).
func TestRowLineNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	got := make(chan int, 1)
	go func() { got <- RowLine(path, 0, 3) }()
	select {
	case line := <-got:
		if line != 0 {
			t.Errorf("a named pipe: line %d, want 0", line)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("RowLine of a named pipe without a writer still waits after 30 s: it opened the pipe again")
	}
}
