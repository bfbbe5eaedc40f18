package filedigest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSHA256: the digest of a file is sha256.Sum256 of its bytes in hex,
// through a link too; a missing file is os.Open's error, and a directory,
// which opens but cannot be read, an error naming it.
func TestSHA256(t *testing.T) {
	dir := t.TempDir()
	for _, content := range []string{"", "greedytl\n", strings.Repeat("x", 1<<20+3)} {
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(content))
		want := hex.EncodeToString(sum[:])
		if got, err := SHA256(path); err != nil || got != want {
			t.Errorf("%d bytes: %q, %v; want %q", len(content), got, err, want)
		}
		if got := Bytes([]byte(content)); got != want {
			t.Errorf("Bytes of %d bytes: %q; want %q", len(content), got, want)
		}
		link := filepath.Join(dir, "link")
		os.Remove(link)
		if err := os.Symlink(path, link); err != nil {
			t.Fatal(err)
		}
		if got, err := SHA256(link); err != nil || got != want {
			t.Errorf("%d bytes through a link: %q, %v; want %q", len(content), got, err, want)
		}
	}
	missing := filepath.Join(dir, "missing")
	if got, err := SHA256(missing); got != "" || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: %q, %v", got, err)
	}
	if got, err := SHA256(dir); got != "" || err == nil || !strings.HasPrefix(err.Error(), dir+": ") {
		t.Errorf("a directory: %q, %v; want an error naming it", got, err)
	}
}
