// Package filedigest names a file by its content: the SHA-256 digest, in
// hex, of the bytes it holds, as a report's file list records its files
// and run.json the executable of a build that nothing else identifies.
package filedigest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// SHA256 returns the SHA-256 digest, in lower-case hex, of the content of
// the file at path (a link is followed). Its error is os.Open's when the
// file cannot be opened, and one naming path when it cannot be read.
func SHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Bytes returns the SHA-256 digest, in lower-case hex, of b: the name
// SHA256 gives a file holding b, for content not yet written or read
// whole already.
func Bytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
