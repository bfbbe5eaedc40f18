// Package fileerr holds greedytl's one rule for the error of a file
// operation in a message that names the file itself: Go's *fs.PathError
// reads "stat runs/x: no such file or directory", with the system call in
// front; greedytl's input errors read "runs/x: no such file or directory".
package fileerr

import (
	"errors"
	"io/fs"
	"os"
)

// Reason returns the reason of err without the operation and the paths an
// *fs.PathError or an *os.LinkError (a rename's) adds ("no such file or
// directory" for "open x: no such file or directory"), for a caller that
// names the path in front of it; err itself when it holds neither.
// errors.Is(Reason(err), fs.ErrNotExist) is errors.Is(err, fs.ErrNotExist).
func Reason(err error) error {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return pe.Err
	}
	if le := (*os.LinkError)(nil); errors.As(err, &le) {
		return le.Err
	}
	return err
}
