package source

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/greedytl/greedytl/internal/bom"
)

// notLiblinear returns err, the error of reading the file path as a
// liblinear model (ReadModelFiles), or, when the file reads but does not
// start as one does (IsLiblinearModel), an error that says it is no
// liblinear model file, and, when it starts as JSON does ('{'), that it
// looks like a greedytl model file, which greedytl predict reads: err
// said only what the liblinear reader met ("g.json:1: key \"{\" wants one
// value, has 0").
func notLiblinear(path string, err error) error {
	f, oerr := os.Open(path)
	if oerr != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, LiblinearHead)
	n, rerr := io.ReadFull(f, head)
	if n == 0 || rerr != nil && rerr != io.ErrUnexpectedEOF || IsLiblinearModel(head[:n]) {
		return err
	}
	if bytes.HasPrefix(bytes.TrimLeft(bom.Trim(head[:n]), " \t\r\n"), []byte("{")) {
		return fmt.Errorf("%s is not a liblinear model file (its first line would be solver_type): it looks like JSON, as a greedytl model file is, which greedytl predict reads", path)
	}
	return fmt.Errorf("%s is not a liblinear model file (its first line would be solver_type): %w", path, err)
}
