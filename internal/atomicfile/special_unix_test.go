//go:build unix

package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A device, a FIFO or a link to one is written in place, never replaced by
// a regular file (issue: --out on a /dev/null node or a link to
// /proc/self/fd/1 replaced it).
func TestWriteKeepsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := Write(fifo, func(w io.Writer) error { _, err := io.WriteString(w, "through"); return err }); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through" {
		t.Errorf("the reader of the FIFO got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
	// A link to /dev/null stays a link to the device.
	link := filepath.Join(dir, "null")
	if err := os.Symlink(os.DevNull, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "gone"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link to %s was replaced: %v", os.DevNull, err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device!", os.DevNull)
	}
	// A link to a regular file keeps the link and replaces the target.
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("old"), 0o644)
	link2 := filepath.Join(dir, "link")
	os.Symlink(target, link2)
	if err := Write(link2, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link2); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q", b)
	}
	if err := Write(dir, func(io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("writing to a directory: %v", err)
	}
}

// TestWriteErrorInPlaceNamesPathOnce checks that a failed write to a
// device written in place names the path once, as every other Write error
// does ("/dev/full: no space left on device", not "/dev/full: write
// /dev/full: ..."), written directly and through a link.
func TestWriteErrorInPlaceNamesPathOnce(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full:", err)
	}
	link := filepath.Join(t.TempDir(), "full")
	if err := os.Symlink("/dev/full", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/full", link} {
		err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
		if want := path + ": " + unix.ENOSPC.Error(); err == nil || err.Error() != want {
			t.Errorf("Write(%s): %v; want %q", path, err, want)
		}
	}
}
