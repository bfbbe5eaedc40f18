// Package atomicfile writes files so that readers never see a half-written
// result: the content goes to a temporary file in the same directory, which
// is synced and renamed over the destination only when writing succeeded.
// Only regular files are replaced that way: a device, a FIFO or a socket
// (/dev/null, a named pipe) and an open descriptor (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N, whatever its file) are written to directly, and
// symbolic links (to a regular file, or to none yet) are kept and their
// final target written. One walk along the links (resolve) decides which.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Write calls fill with a buffered writer and stores what it wrote at path.
// When path is a regular file or does not exist, fill writes onto a
// temporary file beside path (beside the final target of a symbolic
// link) which, if fill and every flush, sync and close succeed, is renamed
// to path; on any error the temporary file is removed, path is left
// untouched and the error is returned. When path is, or links to, a device,
// a FIFO, a socket or an open descriptor, fill writes to it directly. A
// directory is refused.
func Write(path string, fill func(w io.Writer) error) (err error) {
	target, std, direct, err := resolve(path)
	switch {
	case err != nil:
		return err
	case std != nil:
		return writeTo(path, std, fill)
	case direct:
		return writeDirect(path, fill)
	}
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		// Name path, not the temporary file the user never asked for.
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriter(f)
	if err = fill(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = os.Rename(tmp, target); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// resolve follows path's symbolic links, one at a time, to the file Write
// stores at. It returns that file (which may not exist yet: a dangling
// link's target) to be replaced by a rename, or direct = true when it must
// be written in place instead: an open descriptor met on the way
// (/dev/stdout, /dev/stderr, /dev/fd/N or /proc/PID/fd/N, whose file may be
// regular — a shell's "> file" or ">> file" — but is the descriptor's,
// never replaced), a device, a FIFO or a socket. std is os.Stdout or
// os.Stderr when the descriptor is this process's standard output or
// error, which must be written through (a new open of the file would not
// share the shell's offset). A directory is an error.
func resolve(path string) (target string, std *os.File, direct bool, err error) {
	p := path      // the link's target, after the first
	for range 40 { // as many links as Linux follows
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", nil, false, fmt.Errorf("%s: %w", path, err)
		}
		dir, name := filepath.Split(abs)
		switch {
		case abs == "/dev/stdout":
			return "", os.Stdout, true, nil
		case abs == "/dev/stderr":
			return "", os.Stderr, true, nil
		case dir == "/dev/fd/" || dir == "/proc/self/fd/" || dir == "/proc/"+strconv.Itoa(os.Getpid())+"/fd/":
			switch name {
			case "1":
				return "", os.Stdout, true, nil
			case "2":
				return "", os.Stderr, true, nil
			}
			return "", nil, true, nil
		case strings.HasPrefix(abs, "/proc/") && strings.HasSuffix(dir, "/fd/"):
			return "", nil, true, nil
		}
		fi, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return abs, nil, false, nil
		case err != nil:
			return "", nil, false, fmt.Errorf("%s: %w", path, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			t, err := os.Readlink(abs)
			if err != nil {
				return "", nil, false, fmt.Errorf("%s: %w", path, err)
			}
			if !filepath.IsAbs(t) {
				t = filepath.Join(dir, t)
			}
			p = t
		case fi.IsDir():
			return "", nil, false, fmt.Errorf("%s is a directory: give a file name", path)
		case !fi.Mode().IsRegular():
			return "", nil, true, nil
		default:
			return abs, nil, false, nil
		}
	}
	return "", nil, false, fmt.Errorf("%s: too many levels of symbolic links", path)
}

// writeTo writes fill's output to the open file f (named path), which it
// leaves open.
func writeTo(path string, f *os.File, fill func(w io.Writer) error) error {
	bw := bufio.NewWriter(f)
	if err := fill(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// writeDirect writes fill's output to the existing non-regular file path,
// or to an open descriptor's file, appending: a descriptor's file is
// written after what the descriptor wrote before, as a shell's ">> f"
// expects (a device or a FIFO ignores the flag).
func writeDirect(path string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := writeTo(path, f, fill); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// NotAnInput returns an error when the output path out is the same file as
// one of the inputs (same device and inode, symbolic links resolved), or
// lies inside an input that is a directory (whether out exists yet or
// not: a command that reads a directory reads what is written into it),
// so that a command refuses to destroy or change what it reads. Empty
// names, "-" (standard input or output) and inputs that do not exist are
// skipped.
func NotAnInput(out string, inputs ...string) error {
	if out == "" || out == "-" {
		return nil
	}
	fo, err := os.Stat(out)
	regular := err == nil && fo.Mode().IsRegular()
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		fi, err := os.Stat(in)
		switch {
		case err != nil:
		case fi.IsDir():
			if inside(out, fi) {
				return fmt.Errorf("the output %s is inside the input %s: refusing to write there", out, in)
			}
		case regular && os.SameFile(fo, fi):
			if in == out {
				return fmt.Errorf("the output %s is also an input: refusing to overwrite it", out)
			}
			return fmt.Errorf("the output %s is the input %s: refusing to overwrite it", out, in)
		}
	}
	return nil
}

// inside reports whether path, or a directory above it, is the directory
// dir (symbolic links resolved).
func inside(path string, dir os.FileInfo) bool {
	p, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, dir) {
			return true
		}
		up := filepath.Dir(p)
		if up == p {
			return false
		}
		p = up
	}
}
