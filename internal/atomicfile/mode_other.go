//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// mayWrite returns fs.ErrPermission when the file target, whose
// information fi is, is read-only.
func mayWrite(_ string, fi fs.FileInfo) error {
	if fi.Mode().Perm()&0o200 == 0 {
		return fs.ErrPermission
	}
	return nil
}

// mayWriteInPlace returns nil: where faccessat(2) is missing, whether a
// device may be opened for writing is left for the open to find.
func mayWriteInPlace(string) error { return nil }

// mayCreateIn returns an error when the directory dir cannot be seen:
// where faccessat(2) is missing, its permissions are left for the write to
// find.
func mayCreateIn(dir string) error {
	_, err := os.Stat(dir)
	return err
}

// keepMode gives f, the temporary file that is to replace old, old's
// permission bits.
func keepMode(f *os.File, old fs.FileInfo) error {
	return f.Chmod(old.Mode().Perm())
}

// mayFollow returns nil: fs.protected_symlinks is Linux's.
func mayFollow(_, _ string, _ fs.FileInfo) error { return nil }
