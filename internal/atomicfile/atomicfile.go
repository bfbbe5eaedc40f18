// Package atomicfile writes files so that readers never see a half-written
// result: the content goes to a temporary file in the same directory, which
// is synced and renamed over the destination only when writing succeeded;
// the directory is then synced too, so that the new name survives a power
// loss (SyncDir).
// Only regular files are replaced that way: a device, a FIFO or a socket
// (/dev/null, a named pipe) and an open descriptor (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N, whatever its file) are written to directly, and
// symbolic links (to a regular file, or to none yet) are kept and their
// final target written. One walk along the links (resolve) decides which.
// Modes follow the shell's "> file" and cp: a new file gets 0o666 less the
// umask, a replaced file keeps its permission bits, its group where this
// process may give it, and as root its owner, and a file this process may
// not write is not replaced.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/greedytl/greedytl/internal/fileerr"
)

// Write calls fill with a buffered writer and stores what it wrote at path.
// When path is a regular file or does not exist, fill writes onto a
// temporary file beside path (beside the final target of a symbolic
// link) which, if fill and every flush, sync and close succeed, is renamed
// to path, and the directory is synced (SyncDir); on any error before the
// rename the temporary file is removed, path is left untouched and the
// error is returned. An error syncing the directory is returned too: path
// has the new content but might lose it in a crash. A new file's mode is
// 0o666 less the umask; a file replaced keeps its permission bits and,
// where this process may give them, its group and its owner (root may:
// a user's file root rewrites stays the user's; other users' writes make
// it theirs, as for any rename). An existing file this process may
// not write (mode 0o444, another user's 0o644; not as root) is refused, "permission
// denied" as cp says, and left as it was, although the directory would
// let a rename replace it; so is, saying why, another user's file in a
// sticky directory (/tmp) not this user's, which only a process with
// CAP_FOWNER (root elsewhere than Linux) may replace by a rename (unix;
// mayOverrideSticky). Check says all this before any writing. When path is, or links to, a device,
// a FIFO, a socket or an open descriptor, fill writes to it directly (a
// device or a FIFO this process may not open for writing is refused
// first). A directory is refused.
func Write(path string, fill func(w io.Writer) error) (err error) {
	target, old, std, direct, err := prepare(path)
	switch {
	case err != nil:
		return err
	case std != nil:
		return writeTo(path, std, fill)
	case direct:
		return writeDirect(path, fill)
	}
	dir := filepath.Dir(target)
	// A file replaced: the temporary file is made 0o600, then given the
	// old file's owner, group and mode (keepMode) before any content, so that no
	// one else may open it meanwhile (a handle opened while it had the
	// umask's wider mode would read a 0o600 file's new content).
	perm := fs.FileMode(0o666)
	if old != nil {
		perm = 0o600
	}
	f, err := createTemp(dir, "."+filepath.Base(target)+tempInfix, perm)
	if err != nil {
		// Name path, not the temporary file the user never asked for.
		return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
		forget(tmp)
	}()
	if old != nil {
		// Before any content is written (see perm above).
		if err = keepMode(f, old); err != nil {
			return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
		}
	}
	bw := bufio.NewWriter(f)
	if err = fill(bw); err != nil {
		return nameDestination(err, tmp, path)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
	}
	if err = fsync(f); err != nil {
		return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
	}
	// Errors name the destination, not the temporary file.
	if err = os.Rename(tmp, target); err != nil {
		return fmt.Errorf("%s: replacing it: %w", path, fileerr.Reason(err))
	}
	if derr := SyncDir(dir); derr != nil {
		// Renamed (the deferred removal finds no temporary file), but
		// not durable: the caller must know.
		return fmt.Errorf("%s: %w", path, derr)
	}
	return nil
}

// nameDestination returns fill's error err with the temporary file tmp's
// failure named as the destination path's: a write to the temporary file
// (a full disk) is the destination's failure, as Write's other errors
// say. When err is the temporary file's *fs.PathError ("write
// dir/.out.tmp-123: no space left on device") it returns "PATH: no space
// left on device"; when err wraps it (method: "writing … model: %w") the
// same words replace it in err's message, err's chain kept (an errors.Is
// of the reason holds) and the *fs.PathError made to name path. Any other
// error is returned as it is.
func nameDestination(err error, tmp, path string) error {
	pe := (*fs.PathError)(nil)
	if !errors.As(err, &pe) || pe.Path != tmp {
		return err
	}
	if err == error(pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	msg := strings.Replace(err.Error(), pe.Error(), path+": "+pe.Err.Error(), 1)
	pe.Path = path // the temporary file's error, Write's alone: errors.As finds path
	return &destinationError{msg: msg, err: err}
}

// destinationError is an error of Write's fill that wrapped the temporary
// file's *fs.PathError: its message names the destination instead
// (nameDestination), and it unwraps to the fill's error.
type destinationError struct {
	msg string
	err error
}

// Error returns the fill's message with the destination named.
func (e *destinationError) Error() string { return e.msg }

// Unwrap returns the fill's error.
func (e *destinationError) Unwrap() error { return e.err }

// Check returns the error Write(path, …) would return before writing
// anything: path is a directory, an existing file this process may not
// write (mayWrite), or a file in a directory where this process may not
// create the temporary file (mayCreateIn: "permission denied", "read-only
// file system"), or that does not exist ("PATH: no such directory DIR",
// an fs.ErrNotExist, also for a symbolic link's target). A command calls it before
// its work, so that an output that cannot be written is refused at once,
// not after the work; for what Write writes directly, an error when this
// process may not open a device or a FIFO for writing, nil for an open
// descriptor.
func Check(path string) error {
	_, _, _, _, err := prepare(path)
	return err
}

// CheckDir returns an error when this process could not create files in the
// directory dir (mayCreateIn) or, when dir does not exist yet, create it
// (MkdirAll) in the nearest existing directory above it, or when dir, or
// that nearest existing path, is a file ("not a directory"), as a command
// that writes its output into a directory checks before its work. The
// error names dir and the existing directory (file) it would be created
// in.
func CheckDir(dir string) error {
	d, fi := NearestExisting(dir)
	if fi == nil {
		return nil
	}
	err := error(syscall.ENOTDIR)
	if fi.IsDir() {
		err = mayCreateIn(d)
	}
	switch {
	case err == nil:
		return nil
	case d == filepath.Clean(dir):
		return fmt.Errorf("%s: %w", dir, err)
	}
	return fmt.Errorf("%s: cannot create it in %s: %w", dir, d, err)
}

// NearestExisting returns the nearest of path and the directories above it
// (by its text, filepath.Dir after filepath.Clean) that exists, symbolic
// links followed (os.Stat), with its information: where a file or a
// directory to be created at path would be created, or what stands in
// its way (a file, not a directory). It returns "" and nil when none
// exists. It is the one walk up an output path of CheckDir, Check's
// missing-directory error and the command line's checks of --out.
func NearestExisting(path string) (string, fs.FileInfo) {
	for d := filepath.Clean(path); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil {
			return d, fi
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
}

// prepare is what Write checks before writing to path: it resolves path
// (resolve) and returns an error naming path when this process may not
// open a device or a FIFO to write in place (mayWriteInPlace; an open
// descriptor is not asked about) or, for a file to be stored by a rename,
// may not replace the file there (mayWrite) or create the temporary
// file beside it (mayCreateIn; a directory that does not exist:
// noDirError).
func prepare(path string) (target string, old fs.FileInfo, std *os.File, direct bool, err error) {
	target, old, std, direct, err = resolve(path)
	if direct && target != "" && err == nil {
		if err := mayWriteInPlace(target); err != nil {
			return "", nil, nil, false, fmt.Errorf("%s: %w", path, fileerr.Reason(err))
		}
	}
	if err != nil || std != nil || direct {
		return target, old, std, direct, err
	}
	// A rename needs only the directory's permission; refusing a file
	// this process may not write (mayWrite) keeps a read-only file, or
	// another user's, as cp and the shell's "> file" would.
	if old != nil {
		if err := mayWrite(target, old); err != nil {
			return "", nil, nil, false, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := mayCreateIn(filepath.Dir(target)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil, nil, false, newNoDirError(path, target)
		}
		return "", nil, nil, false, fmt.Errorf("%s: %w", path, fileerr.Reason(err))
	}
	return target, old, nil, false, nil
}

// noDirError is the error of a file to write, path, whose directory does
// not exist: the directory of path's final target, target (resolve's),
// is missing (ENOENT) or one of the directories on the way to it is a
// regular file (ENOTDIR: file names it). It names the directory (the
// file) as path names it when path is no symbolic link, otherwise as the
// link's target does; it is an fs.ErrNotExist.
type noDirError struct{ path, target, file string }

// newNoDirError returns the noDirError of path, whose final target is
// target, with the nearest existing path above target when that is not a
// directory.
func newNoDirError(path, target string) noDirError {
	e := noDirError{path: path, target: target}
	// named is target, or path when that is target made absolute by
	// text: the walk up its text meets the same files.
	if d, fi := NearestExisting(filepath.Dir(e.named())); fi != nil && !fi.IsDir() {
		e.file = d
	}
	return e
}

// named is target as the error names it: path when path is no symbolic
// link.
func (e noDirError) named() string {
	if abs, err := filepath.Abs(e.path); err == nil && abs == e.target {
		return e.path
	}
	return e.target
}

// Error names path and the missing directory, or the file on the way.
func (e noDirError) Error() string {
	if e.file != "" {
		return fmt.Sprintf("%s: %s is a file, not a directory", e.path, e.file)
	}
	return fmt.Sprintf("%s: no such directory %s", e.path, filepath.Dir(e.named()))
}

// Unwrap returns fs.ErrNotExist: a missing directory is one.
func (noDirError) Unwrap() error { return fs.ErrNotExist }

// fsync syncs f to its storage: (*os.File).Sync, replaced by tests to fail
// or to record the order of the syncs.
var fsync = (*os.File).Sync

// SyncDir syncs the directory dir, so that an entry just created, renamed
// into or out of it survives a power loss: fsync(2) of a file does not
// make its name durable, the directory's does. Where directories cannot
// be synced (Windows; file systems that answer EINVAL or ENOTSUP; a
// directory this process cannot read) it does nothing. The error names
// dir.
func SyncDir(dir string) error {
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("syncing the directory %s: %w", dir, fileerr.Reason(err))
	}
	return nil
}

// MkdirAll creates the directory dir and any parents it lacks, as
// os.MkdirAll does, and syncs the parent of each directory it created
// (SyncDir), so that the directories survive a power loss with the files
// later written into them.
func MkdirAll(dir string) error {
	missing := Missing(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := SyncDir(filepath.Dir(missing[i])); err != nil {
			return err
		}
	}
	return nil
}

// Missing returns the directories MkdirAll(dir) would create: dir and those
// above it that do not exist (os.Lstat), deepest first; none when dir
// exists. A caller that must remove what it created, and only that, asks
// before MkdirAll.
func Missing(dir string) []string {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	return missing
}

// The temporary files being written, so that RemoveTemporary can delete
// them when the process must end before their writers finish.
var temps struct {
	sync.Mutex
	files   map[string]bool
	stopped bool // RemoveTemporary was called: no new temporary files
}

// errStopped is Write's error once RemoveTemporary has been called.
var errStopped = errors.New("the process is ending: no file is written")

// createTemp creates a new file in dir (O_EXCL: never one planted at its
// name, nor a link's target), named prefix and a random number, for
// writing, and records it, unless RemoveTemporary has been called. Its
// mode is perm less the umask, applied by the system: 0o666 for a new
// file, as for the shell's "> file" or cp's new file (os.CreateTemp's
// 0o600, which Write widened to 0o644, ignored the umask: a umask of 077
// still made files everyone could read), 0o600 for one that replaces a file.
func createTemp(dir, prefix string, perm fs.FileMode) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	if temps.stopped {
		return nil, errStopped
	}
	var f *os.File
	var err error
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err = openFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) || try == 10000 {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	if temps.files == nil {
		temps.files = map[string]bool{}
	}
	temps.files[f.Name()] = true
	return f, nil
}

// tempInfix separates a temporary file's destination from its random
// number: Write's temporary file for dir/NAME is dir/.NAME.tmp-DIGITS
// (createTemp; IsTemporary).
const tempInfix = ".tmp-"

// IsTemporary reports whether the base name name is that of one of Write's
// temporary files, "." + the destination's name + ".tmp-" + a decimal
// number, and returns the destination's name.
func IsTemporary(name string) (dest string, ok bool) {
	i := strings.LastIndex(name, tempInfix)
	if i < 2 || name[0] != '.' {
		return "", false
	}
	num := name[i+len(tempInfix):]
	if num == "" || strings.Trim(num, "0123456789") != "" {
		return "", false
	}
	return name[1:i], true
}

// RemoveStale removes from the directory dir (not from its
// subdirectories) the temporary files that Writes into it never renamed
// nor removed (IsTemporary; regular files only) whose destination's base
// name owned accepts, which a process killed during a Write (kill -9, a
// power loss) leaves behind, except this process's Writes in progress.
// Call it only while no other process may be writing those files: holding
// dir's exclusive lock (internal/dirlock), which a process writing them
// must hold. owned names the files that the lock's holders alone write:
// another command may write other files into dir (a report, a prediction
// given as its output) without that lock, and its temporary files, live
// or not, stay. It returns the paths it removed, and the first error
// reading dir or removing a file (the others are still removed).
func RemoveStale(dir string, owned func(dest string) bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	temps.Lock()
	defer temps.Unlock()
	var removed []string
	var first error
	for _, e := range entries {
		if dest, ok := IsTemporary(e.Name()); !ok || !e.Type().IsRegular() || !owned(dest) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if ownTemp(p) {
			continue // this process's Write in progress
		}
		if err := os.Remove(p); err != nil {
			if first == nil && !errors.Is(err, fs.ErrNotExist) {
				first = err
			}
			continue
		}
		removed = append(removed, p)
	}
	return removed, first
}

// ownTemp reports whether the file p is the temporary file of one of this
// process's Writes in progress (temps, which the caller holds), whose
// names are absolute with links resolved where p may not be.
func ownTemp(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	for t := range temps.files {
		if filepath.Base(t) != fi.Name() {
			continue
		}
		if ti, err := os.Lstat(t); err == nil && os.SameFile(fi, ti) {
			return true
		}
	}
	return false
}

// openFile opens a file: os.OpenFile, replaced by tests to see the
// temporary file's mode as created, or to plant a file at its name.
var openFile = os.OpenFile

// MkdirTemp creates a temporary directory in dir as os.MkdirTemp does, for
// outputs that must appear together (a dataset folder's files): write
// them into it, rename them out, then call RemoveTempDir. RemoveTemporary
// removes it with whatever it holds. After RemoveTemporary it returns an
// error.
func MkdirTemp(dir, pattern string) (string, error) {
	temps.Lock()
	defer temps.Unlock()
	if temps.stopped {
		return "", errStopped
	}
	d, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	if temps.files == nil {
		temps.files = map[string]bool{}
	}
	temps.files[d] = true
	return d, nil
}

// RemoveTempDir removes the directory MkdirTemp made, with anything left in
// it, and drops it from RemoveTemporary's record.
func RemoveTempDir(d string) error {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.files, d)
	return os.RemoveAll(d)
}

// forget drops tmp from the record: renamed or removed.
func forget(tmp string) {
	temps.Lock()
	delete(temps.files, tmp)
	temps.Unlock()
}

// RemoveTemporary deletes the temporary file of every Write in progress,
// and every directory of MkdirTemp not yet removed, and makes later Writes
// and MkdirTemps fail without creating anything. It is for a process about
// to exit before its writers finish (a second Ctrl-C or SIGTERM): call it,
// then exit. A Write in progress fails (its file is gone) or, if it renamed
// its file first, has written its whole destination; no temporary file is
// left either way. It returns the files it removed.
func RemoveTemporary() []string {
	temps.Lock()
	defer temps.Unlock()
	temps.stopped = true
	var removed []string
	for tmp := range temps.files {
		if _, err := os.Lstat(tmp); err == nil && os.RemoveAll(tmp) == nil {
			removed = append(removed, tmp)
		}
		delete(temps.files, tmp)
	}
	return removed
}

// resolve follows path's symbolic links, one at a time, to the file Write
// stores at. It returns that file (which may not exist yet: a dangling
// link's target) to be replaced by a rename, with its information old (nil
// when it does not exist), or direct = true when it must be written in
// place instead: an open descriptor met on the way
// (/dev/stdout, /dev/stderr, /dev/fd/N or /proc/PID/fd/N, whose file may be
// regular — a shell's "> file" or ">> file" — but is the descriptor's,
// never replaced; target is "" then), a device, a FIFO or a socket (target
// is it). std is os.Stdout or
// os.Stderr when the descriptor is this process's standard output or
// error, which must be written through (a new open of the file would not
// share the shell's offset). A directory is an error.
// So is a link the kernel would not follow (mayFollow).
func resolve(path string) (target string, old fs.FileInfo, std *os.File, direct bool, err error) {
	p := path      // the link's target, after the first
	for range 40 { // as many links as Linux follows (ELOOP after 40)
		abs, dir, name, err := resolveDir(path, p)
		if err != nil {
			return "", nil, nil, false, err
		}
		switch {
		case abs == "/dev/stdout":
			return "", nil, os.Stdout, true, nil
		case abs == "/dev/stderr":
			return "", nil, os.Stderr, true, nil
		case dir == "/dev/fd/" || dir == "/proc/self/fd/" || dir == "/proc/"+strconv.Itoa(os.Getpid())+"/fd/":
			switch name {
			case "1":
				return "", nil, os.Stdout, true, nil
			case "2":
				return "", nil, os.Stderr, true, nil
			}
			return "", nil, nil, true, nil
		case strings.HasPrefix(abs, "/proc/") && strings.HasSuffix(dir, "/fd/"):
			return "", nil, nil, true, nil
		}
		fi, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return abs, nil, nil, false, nil
		case errors.Is(err, syscall.ENOTDIR): // a file on the way to abs
			return "", nil, nil, false, newNoDirError(path, abs)
		case err != nil:
			return "", nil, nil, false, fmt.Errorf("%s: %w", path, fileerr.Reason(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			if err := mayFollow(path, abs, fi); err != nil {
				return "", nil, nil, false, err
			}
			t, err := os.Readlink(abs)
			if err != nil {
				return "", nil, nil, false, fmt.Errorf("%s: %w", path, fileerr.Reason(err))
			}
			if !filepath.IsAbs(t) {
				// Relative to the link's resolved directory, not
				// cleaned: a ".." in t is the kernel's, after links.
				t = dir + t
			}
			p = t
		case fi.IsDir():
			return "", nil, nil, false, fmt.Errorf("%s is a directory: give a file name", path)
		case !fi.Mode().IsRegular():
			return abs, nil, nil, true, nil
		default:
			return abs, fi, nil, false, nil
		}
	}
	return "", nil, nil, false, fmt.Errorf("%s: too many levels of symbolic links", path)
}

// resolveDir returns p (met following path's links) as an absolute path
// whose directory part has its symbolic links followed as the kernel
// follows them, component by component (filepath.EvalSymlinks), with a
// ".." the parent of what the links lead to, not cleaned away before:
// abs, its directory dir (ending in a separator) and its last element
// name, itself not followed. When the directory part cannot be resolved
// (a missing directory, a file on the way), abs is p made absolute by
// text, for Write's later errors to name.
func resolveDir(path, p string) (abs, dir, name string, err error) {
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", "", "", fmt.Errorf("%s: %w", path, fileerr.Reason(err))
		}
		p = wd + string(filepath.Separator) + p
	}
	for len(p) > 1 && os.IsPathSeparator(p[len(p)-1]) {
		p = p[:len(p)-1]
	}
	d, name := filepath.Split(p)
	rd, err := filepath.EvalSymlinks(d)
	switch {
	case err == nil:
		abs = filepath.Join(rd, name)
		dir, name = filepath.Split(abs)
		return abs, dir, name, nil
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		abs = filepath.Clean(p)
		dir, name = filepath.Split(abs)
		return abs, dir, name, nil
	case strings.Contains(err.Error(), "too many links") || errors.Is(err, syscall.ELOOP):
		return "", "", "", fmt.Errorf("%s: too many levels of symbolic links", path)
	}
	return "", "", "", fmt.Errorf("%s: %w", path, fileerr.Reason(err))
}

// writeTo writes fill's output to the open file f (named path), which it
// leaves open.
func writeTo(path string, f *os.File, fill func(w io.Writer) error) error {
	bw := bufio.NewWriter(f)
	if err := fill(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
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
		return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
	}
	if err := writeTo(path, f, fill); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, fileerr.Reason(err))
	}
	return nil
}

// NotAnInput returns an error when the output path out is the same file as
// one of the inputs (same device and inode, symbolic links resolved; a
// directory too), or lies inside an input that is a directory (whether out exists yet or
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
	dir := err == nil && fo.IsDir()
	place := placeOf(out)
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		fi, err := os.Stat(in)
		switch {
		case err != nil:
		case fi.IsDir() && dir && os.SameFile(fo, fi):
			return fmt.Errorf("the output %s is the input %s: refusing to write into it", out, in)
		case fi.IsDir():
			if slices.ContainsFunc(place, func(p os.FileInfo) bool { return os.SameFile(p, fi) }) {
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

// placeOf returns the file at which path lies as Write follows its
// symbolic links (where) and every directory above it, those os.Stat
// finds: path is inside a directory (or is it) when one of them is that
// directory.
func placeOf(path string) []os.FileInfo {
	p, ok := where(path)
	if !ok {
		return nil
	}
	var place []os.FileInfo
	for {
		if fi, err := os.Stat(p); err == nil {
			place = append(place, fi)
		}
		up := filepath.Dir(p)
		if up == p {
			return place
		}
		p = up
	}
}

// where returns the absolute path at which path lies as Write finds it,
// its symbolic links followed as the kernel follows them (a ".." after a
// link is the parent of the link's target, not of the link): the file
// Write stores at (resolve); for an existing directory (or a link to one,
// with or without a trailing separator), the directory it leads to, every
// link followed, as the kernel follows them when a command writes into it
// (experiment's --out a link to a folder inside its --data wrote there);
// and for anything else resolve does not store at by a rename (an open
// descriptor, a path it refuses), path with its directory part resolved
// (resolveDir). ok is false when none resolves path.
func where(path string) (string, bool) {
	// resolve starts as resolveDir(path, path) does, and fails where it
	// fails; it stores at nothing for an existing directory.
	abs, _, _, err := resolveDir(path, path)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		if full, err := filepath.EvalSymlinks(abs); err == nil {
			return full, true
		}
		return abs, true
	}
	if t, _, _, _, err := resolve(path); err == nil && t != "" {
		return t, true
	}
	return abs, true
}
