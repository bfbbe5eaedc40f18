//go:build !unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"

	"github.com/greedytl/greedytl/internal/fileerr"
)

// replaceable returns the file at target that Write is to replace, nil
// when there is none yet, or fs.ErrPermission when it is read-only.
func replaceable(target string) (fs.FileInfo, error) {
	fi, err := os.Lstat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fileerr.Reason(err)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return nil, fs.ErrPermission
	}
	return fi, nil
}

// keepMode gives f, the temporary file that is to replace old, old's
// permission bits.
func keepMode(f *os.File, old fs.FileInfo) error {
	return f.Chmod(old.Mode().Perm())
}
