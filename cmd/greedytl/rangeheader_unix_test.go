//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRangeHeaderReadOnce: the note that --features-header auto dropped a
// first line of pandas' column names comes from the reader that dropped
// it, which reads the input once. It came from reading the input again: a
// FIFO (as <(zcat X.csv.gz) names one), opened again, gave nothing and no
// note; standard input's note came from its first MiB, looked at before it
// was read, and was missing when the line came after it (below a MiB of
// comment lines) or the stream was gzip-compressed.
func TestRangeHeaderReadOnce(t *testing.T) {
	dir := t.TempDir()
	model, _ := rangeTestModel(t, dir)
	// Rows beyond a MiB below the range header.
	var rows strings.Builder
	for rows.Len() <= 1<<20 {
		rows.WriteString("1.5,0.25,2\n")
	}
	text := "0,1,2\n" + rows.String()
	m := strings.Count(text, "\n") - 1
	note := func(name string, line int) string {
		return "greedytl: note: " + name + ": line " + strconv.Itoa(line) + " (0,1,2) was read as pandas' column names, not as a row; --features-header no reads it as data\n"
	}

	fifo, stop := fifoOnce(t, dir, text)
	code, stdout, stderr := cli(t, "", "predict", model, "--features", fifo)
	stop()
	if want := note(fifo, 1); code != exitOK || strings.Count(stdout, "\n") != m || stderr != want {
		t.Errorf("predict --features FIFO: exit %d, %d scores, stderr %q; want %d scores and the note %q", code, strings.Count(stdout, "\n"), stderr, m, want)
	}

	// Standard input: the line below a MiB of comments, and compressed.
	comments := strings.Repeat("# a comment line of some length, as a tool may write above its data\n", (1<<20)/60)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	for _, in := range []struct {
		name, stdin string
		line        int
	}{
		{"plain", text, 1},
		{"below a MiB of comments", comments + text, strings.Count(comments, "\n") + 1},
		{"gzip", gz.String(), 1},
	} {
		code, stdout, stderr := cli(t, in.stdin, "predict", model, "--features", "-")
		if want := note("<stdin>", in.line); code != exitOK || strings.Count(stdout, "\n") != m || stderr != want {
			t.Errorf("predict --features - (%s): exit %d, %d scores, stderr %q; want %d scores and the note %q", in.name, code, strings.Count(stdout, "\n"), stderr, m, want)
		}
	}
}

// fifoOnce makes a FIFO in dir whose writer writes text at its first open
// and nothing at the later ones, until stop, which waits for the writer.
func fifoOnce(t *testing.T, dir, text string) (fifo string, stop func()) {
	t.Helper()
	fifo = filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for i := 0; ; i++ {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // once a reader opens it
			if err != nil {
				return
			}
			if i == 0 {
				_, _ = w.WriteString(text)
			}
			w.Close()
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	return fifo, func() {
		close(done)
		for {
			select {
			case <-exited:
				os.Remove(fifo)
				return
			case <-time.After(10 * time.Millisecond): // free a writer waiting for a reader
				if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					r.Close()
				}
			}
		}
	}
}

// TestHeaderNoteFIFO: the note of a count error that the first line of a
// FIFO (<(…)) may be a header of numbers does not say to drop it with
// tail -n +2, which would read a FIFO already read (an empty new.csv), as
// it does not for standard input; it still does for a regular file.
func TestHeaderNoteFIFO(t *testing.T) {
	dir := t.TempDir()
	text := "1,2,3\n3,4,1\n5,7,2\n"
	X := writeText(t, dir, "X.csv", text)
	y := writeText(t, dir, "y.txt", "1\n-1\n")
	model := writeText(t, dir, "m.json", "")
	if code, _, stderr := cli(t, "", "fit", "--features", writeText(t, dir, "tr.csv", "1,2,3\n3,4,1\n5,7,2\n1,1,1\n"), "--labels", writeText(t, dir, "ytr.txt", "1\n-1\n1\n-1\n"), "--out", model, "-q"); code != exitOK {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	note := func(path, drop string) string {
		return y + " has 2 labels but the inputs have 3 rows (if the first line of " + path + `, "1,2,3", is a header of column names, not an example: greedytl reads a header of numbers as data: --features-header yes reads it as a header; or ` + drop + "write the file without it (pandas: to_csv(path, index=False, header=False)))"
	}
	wantInputError(t, note(X, "drop the line (tail -n +2 "+X+" > new.csv) or "), "predict", model, "--features", X, "--labels", y)
	fifo, stop := fifoOnce(t, dir, text)
	code, _, stderr := cli(t, "", "predict", model, "--features", fifo, "--labels", y)
	stop()
	if want := "greedytl: " + note(fifo, "") + "\n"; code != exitInput || stderr != want {
		t.Errorf("predict --features FIFO: exit %d, stderr %q; want %d, %q", code, stderr, exitInput, want)
	}
}
