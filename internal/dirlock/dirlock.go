// Package dirlock gives one process at a time a directory (a run directory
// of greedytl experiment, a sources directory of greedytl train-sources):
// an exclusive flock(2) on the file LockFile inside it — or, for one part of
// a directory that several processes fill at once (the shards of
// train-sources, one count of shards at a time), shared flocks on LockFile
// and on the lock file of the part's group and an exclusive one on the
// part's own lock file (AcquirePart) — or one output file that is not in
// such a directory (a merged results file: AcquireFile, through a lock
// file beside it). The kernel releases
// the lock when the holder exits, however it exits (kill -9 included), so
// a lock left by a dead process never blocks the next one. The file holds
// the holder's pid, host and start time, which the refusal reports. Lock
// files are made with mode 0o666 less the umask; another user's lock file
// that this one may not write is locked read-only (its holder then cannot
// record itself, and a refusal says so when the last holder that could has
// exited, or names it).
package dirlock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LockFile is the name of the lock file inside a locked directory.
const LockFile = ".lock"

// ErrLocked is matched (errors.Is) by the error of Acquire when another
// process holds the directory.
var ErrLocked = errors.New("in use by another process")

// Lock is a held directory lock.
type Lock struct {
	f      *os.File
	shared []*os.File // AcquirePart's shared locks: the whole directory's, the group's
}

// Acquire locks dir, which must exist, for this process without waiting.
// When another process holds it, or a part of it (AcquirePart), Acquire
// returns an error matching ErrLocked that names the holder (pid, host and
// since when) as recorded in the lock file, or, when it finds that the
// parts of a group hold it, a *GroupError naming that group.
func Acquire(dir string) (*Lock, error) {
	whole, err := lockFile(dir, LockFile, false, dir)
	if err != nil {
		return nil, partsRefusal(dir, err)
	}
	return &Lock{f: whole}, nil
}

// partsRefusal returns Acquire's refusal of dir for lockFile's error err:
// when the directory's lock file names no live holder (parts record
// nothing in it) and a group's parts hold dir (partsHolding), a
// *GroupError naming that group; otherwise err.
func partsRefusal(dir string, err error) error {
	h, ok := errors.AsType[*heldError](err)
	if !ok || (h.who != "" && !h.exited) {
		return err
	}
	group, groupPath := partsHolding(dir)
	if group == "" {
		return err
	}
	parts := fmt.Sprintf("the parts of group %s (lock file %s)", group, groupPath)
	if h.exited {
		return &GroupError{Group: group, LockFile: groupPath, err: fmt.Errorf("%s is in use by %s, which record themselves in their own lock files, not in %s (its last recorded holder, pid %d on this host, has exited): one process per directory; wait for them: %w", dir, parts, h.path, h.pid, ErrLocked)}
	}
	return &GroupError{Group: group, LockFile: groupPath, err: fmt.Errorf("%s is in use by %s: one process per directory; wait for them or stop them: %w", dir, parts, ErrLocked)}
}

// AcquirePart locks the part named part, of the group named group, of dir
// (shard I of N of a sources directory, the group being the shards of N)
// without waiting: a shared lock on the whole directory, which excludes
// Acquire's holder but not the other parts; a shared one on the group's
// lock file (LockFile + ".group-" + group), which the parts of that group
// share; and an exclusive one on the part's own lock file (LockFile + "."
// + part), which excludes a second process for the same part. Parts of one
// group work side by side; a part is refused while a part of another group
// is held (while that group's lock file is, which a probe with an
// exclusive lock finds), so that two groups never split the directory's
// work two ways at once (shards of 2 and of 3 would do some of it twice).
// A group's lock files stay after its parts finish, and block no one.
// Checking the other groups and taking the group's lock happen under the
// gate, an exclusive lock on LockFile + ".gate" that AcquirePart waits for
// (polling, at most gateWait) and holds only while it takes its locks, so
// that parts of two groups
// starting at once never both pass the check. Its errors are Acquire's; a
// held part of another group is refused with a *GroupError (matching
// ErrLocked) naming that group and its lock file. A part's name must not be "gate"
// or begin with "group-".
func AcquirePart(dir, group, part string) (*Lock, error) {
	gate, err := acquireGate(dir, gateWait)
	if err != nil {
		return nil, err
	}
	defer gate.Release()
	whole, err := lockFile(dir, LockFile, true, dir)
	if err != nil {
		return nil, err
	}
	l := &Lock{shared: []*os.File{whole}}
	// Under the gate no group's lock is being taken: a part of another
	// group holds dir now or not at all.
	other, path, err := heldGroup(dir, group)
	if err == nil && other != "" {
		err = &GroupError{Group: other, LockFile: path, err: fmt.Errorf("%s is in use by the parts of group %s (lock file %s), which this process's part %s, of group %s, may not join: one group of parts at a time; wait for them or stop them: %w", dir, other, path, part, group, ErrLocked)}
	}
	if err != nil {
		l.Release()
		return nil, err
	}
	grp, err := lockFile(dir, groupPrefix+group, true, dir)
	if err != nil {
		l.Release()
		return nil, err
	}
	l.shared = append(l.shared, grp)
	if l.f, err = lockFile(dir, LockFile+"."+part, false, dir); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// gateWait bounds AcquirePart's wait for the gate, which a holder keeps for
// a few calls: a holder stopped (SIGSTOP, a suspended job) or a lock a dead
// node left on NFS refuses the part, naming the gate's holder, instead of
// blocking it for ever without a word.
var gateWait = 30 * time.Second

// probeWait bounds the wait of Acquire's refusal for the gate, under which
// it looks for the group whose parts hold the directory (partsHolding):
// long enough for the few calls a starting part holds it for, short for a
// command that is being refused anyway.
var probeWait = time.Second

// acquireGate takes the gate of dir, retrying every few milliseconds while
// another process holds it, for at most wait. Its retries only open the
// gate's lock file and try its lock; the last, at the deadline, is
// lockFile's, whose refusal names the gate's holder.
func acquireGate(dir string, wait time.Duration) (*Lock, error) {
	path := filepath.Join(dir, gateFile)
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		f, held, err := tryLockFile(path, dir, false, dir)
		if err != nil {
			return nil, err
		}
		if !held {
			record(f)
			return &Lock{f: f}, nil
		}
	}
	f, err := lockFile(dir, gateFile, false, dir)
	if err != nil {
		return nil, err
	}
	return &Lock{f: f}, nil
}

// gateFile is the name of the lock file AcquirePart holds while it takes
// its locks, and groupPrefix the prefix of its groups' lock files.
const (
	gateFile    = LockFile + ".gate"
	groupPrefix = LockFile + ".group-"
)

// GroupError is the refusal, matching ErrLocked, of Acquire or
// AcquirePart because the parts of a group (of another group, for
// AcquirePart) hold the directory: it names that group and its lock file,
// so that a caller can say who holds the directory in its own terms.
type GroupError struct {
	Group    string // the group whose parts hold the directory
	LockFile string // the path of that group's lock file
	err      error
}

// Error returns the refusal's message, which names the group and its lock
// file.
func (e *GroupError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("in use by the parts of group %s (lock file %s)", e.Group, e.LockFile)
	}
	return e.err.Error()
}

// Unwrap returns the refusal, which matches ErrLocked; ErrLocked itself
// for a GroupError made without one.
func (e *GroupError) Unwrap() error {
	if e.err == nil {
		return ErrLocked
	}
	return e.err
}

// heldGroup returns a group of dir other than except whose parts hold it
// (whose lock file is locked, which a probe with an exclusive lock,
// released at once, finds) and that lock file; "" when there is none. Its
// errors name dir, as lockFile's.
func heldGroup(dir, except string) (group, path string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", fmt.Errorf("locking %s: %w", dir, err)
	}
	for _, e := range entries {
		other, ok := strings.CutPrefix(e.Name(), groupPrefix)
		if !ok || other == except {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, held, err := tryLockFile(path, dir, false, dir)
		if err != nil {
			return "", "", err
		}
		if held {
			return other, path, nil
		}
		f.Close() // releases the probe's lock
	}
	return "", "", nil
}

// partsHolding returns the group whose parts hold dir and its lock file
// (heldGroup), or "" when none does or it cannot tell (the probe fails, or
// the gate stays busy for probeWait). It looks only where a group has
// taken a part (the gate's lock file, which AcquirePart creates first,
// stays), and only while it holds the
// gate, which it waits for: parts take their group's lock under the gate,
// and a part taking it while the probe held it exclusively would be
// refused.
func partsHolding(dir string) (group, path string) {
	if _, err := os.Stat(filepath.Join(dir, gateFile)); err != nil {
		return "", "" // no part ever took dir: every AcquirePart takes the gate first
	}
	gate, err := acquireGate(dir, probeWait)
	if err != nil {
		return "", ""
	}
	defer gate.Release()
	g, path, err := heldGroup(dir, "")
	if err != nil {
		return "", ""
	}
	return g, path
}

// AcquireFile locks the file path (which need not exist: an output about
// to be written) for this process without waiting, through the lock file
// beside it, FileLockName(path), which stays. Its errors are Acquire's,
// naming path.
func AcquireFile(path string) (*Lock, error) {
	f, err := lockFile(filepath.Dir(path), FileLockName(path), false, path)
	if err != nil {
		return nil, err
	}
	return &Lock{f: f}, nil
}

// TryAcquireFile is AcquireFile for an output that was written without a
// lock before it took one: on a file system without flock (Lustre mounted
// without it, NFS without its lock service) it returns a nil Lock, whose
// Release does nothing, and no error, so that the output is written there
// as before. Its other errors are AcquireFile's: another holder (matching
// ErrLocked), and a lock file that cannot be opened (a directory in its
// place, a directory this process may not write), which would otherwise
// leave the output written unlocked where locks work.
func TryAcquireFile(path string) (*Lock, error) {
	l, err := AcquireFile(path)
	if _, ok := errors.AsType[*noFlockError](err); ok {
		return nil, nil
	}
	return l, err
}

// FileLockName is the name of AcquireFile's lock file for path, in path's
// directory: "." + its name + ".lock".
func FileLockName(path string) string { return "." + filepath.Base(path) + ".lock" }

// lockFile locks dir/name, exclusive or shared, without waiting, and
// records this process in it when exclusive; what is the
// directory or file the lock is for, which errors name. Another holder's
// lock is refused with a *heldError naming the holder its record names.
func lockFile(dir, name string, shared bool, what string) (*os.File, error) {
	path := filepath.Join(dir, name)
	f, held, err := tryLockFile(path, dir, shared, what)
	if err != nil {
		return nil, err
	}
	if held {
		b, _ := os.ReadFile(path)
		who := strings.TrimSpace(string(b))
		pid, exited := exitedHolder(who)
		per := "directory"
		if what != dir {
			per = "file"
		}
		return nil, &heldError{what: what, path: path, per: per, who: who, pid: pid, exited: exited}
	}
	if !shared {
		record(f)
	}
	return f, nil
}

// record writes this process's pid, host and the time into the lock file
// f, which it holds exclusively. A read-only descriptor (another user's
// lock file, openLockFile) cannot be truncated: its holder records
// nothing.
func record(f *os.File) {
	host, _ := os.Hostname()
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "pid %d on host %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	}
}

// heldError is lockFile's refusal, matching ErrLocked: what, the directory
// or file (per) the lock is for, is held through the lock file path,
// whose record is who ("" when empty); exited reports that the record
// names a process of this host, pid, that has exited.
type heldError struct {
	what, path, per, who string
	pid                  int
	exited               bool
}

// Error names the holder. An exited record is a crashed holder's (Release
// empties it), and the holder now records nothing: it opened the lock file
// read-only (openLockFile), holds a part (shared), or has just locked and
// not yet written. The file is not stale, so the message neither names the
// dead pid as the holder nor suggests deleting or stopping anything.
func (e *heldError) Error() string {
	who := e.who
	switch {
	case e.exited:
		how := "another user's greedytl, whose lock file this one cannot write"
		return fmt.Sprintf("%s is in use by a process that has not recorded itself in its lock file %s (%s; the last recorded holder, pid %d on this host, has exited): one process per %s; wait for it: %v", e.what, e.path, how, e.pid, e.per, ErrLocked)
	case who == "":
		who = "a process that has not recorded itself (another user's greedytl, whose lock file this one cannot write, or one that has just taken the lock)"
	}
	return fmt.Sprintf("%s is in use by %s (lock file %s): one process per %s; wait for it or stop it: %v", e.what, who, e.path, e.per, ErrLocked)
}

// Unwrap returns ErrLocked.
func (e *heldError) Unwrap() error { return ErrLocked }

// tryLockFile opens the lock file path, in dir (openLockFile), and tries
// its lock, exclusive or shared, without waiting (tryLock). f is the open
// file holding the lock, or nil when held reports another holder or err an
// error, which names what, the directory or file the lock is for: a file
// system without flock locks is a *noFlockError, and a lock refused to a
// read-only descriptor (an exclusive flock emulated by fcntl, NFS, wants a
// writable one) is notOwnLockFile's error.
func tryLockFile(path, dir string, shared bool, what string) (f *os.File, held bool, err error) {
	f, readOnly, err := openLockFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("locking %s: %w", what, err)
	}
	held, err = tryLock(f, shared)
	if held || err != nil {
		f.Close()
	}
	switch {
	case noLocks(err):
		return nil, false, &noFlockError{what, err}
	case err != nil && readOnly:
		return nil, false, fmt.Errorf("locking %s: %w", what, notOwnLockFile(path, dir, err))
	case err != nil:
		return nil, false, fmt.Errorf("locking %s: %w", what, err)
	case held:
		return nil, true, nil
	}
	return f, false, nil
}

// exitedHolder reports whether who, a lock file's record ("pid N on host
// H since T"), names a process of this host that has exited, and its pid.
// A lock that is held all the same has a holder that could not record
// itself (a read-only lock file, another user's).
func exitedHolder(who string) (pid int, ok bool) {
	var host string
	if _, err := fmt.Sscanf(who, "pid %d on host %s since", &pid, &host); err != nil || pid <= 0 {
		return 0, false
	}
	if h, err := os.Hostname(); err != nil || h != host {
		return 0, false
	}
	return pid, processExited(pid)
}

// openLockFile opens (creating it) the lock file path for writing, with mode
// 0o666 less the umask, so that in a directory a group shares (umask 002)
// every member can record itself in it. Another user's lock file that this
// one may not write (a umask of 022 made it 0o644) is opened read-only,
// readOnly true: flock(2) locks a read-only descriptor as well (on Linux's
// local file systems), though the holder cannot record itself in it. When
// even that is refused, the error names the lock file, says whose it is and
// that it may be deleted.
func openLockFile(path string) (f *os.File, readOnly bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return f, false, err
	}
	f, rerr := os.Open(path)
	if rerr == nil {
		return f, true, nil
	}
	if errors.Is(rerr, fs.ErrNotExist) { // a directory this user may not write: say so as it is
		return nil, false, err
	}
	return nil, false, notOwnLockFile(path, filepath.Dir(path), rerr)
}

// notOwnLockFile is the error for the lock file path, in dir, that this
// user cannot lock (err): another user's, or one whose permissions forbid it.
func notOwnLockFile(path, dir string, err error) error {
	return fmt.Errorf("cannot lock the lock file %s (%w): it belongs to another user or its permissions forbid this one; it is safe to delete when no greedytl is running on %s", path, err, dir)
}

// noFlockError is lockFile's error on a file system without flock(2)
// locks, err being tryLock's; TryAcquireFile tells it from the others.
type noFlockError struct {
	what string
	err  error
}

func (e *noFlockError) Error() string {
	return fmt.Sprintf("locking %s: its file system does not support flock(2) locks (%v), which greedytl takes so that two processes never write one output at once: mount it with flock support (Lustre: the mount option flock; NFS: with its lock service, lockd/NLM, running) or write to another file system (a local disk)", e.what, e.err)
}

func (e *noFlockError) Unwrap() error { return e.err }

// Release unlocks the directory. The lock file stays (removing it would
// race with a process opening it).
func (l *Lock) Release() error {
	if l == nil {
		return nil
	}
	var err error
	if l.f != nil {
		// Its record goes first (an error: a read-only descriptor, which
		// recorded nothing), so that a record beside a lock that is held
		// names that holder, or, after a crash, one that has exited.
		_ = l.f.Truncate(0)
		err = unlock(l.f)
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
	}
	l.f = nil
	for _, f := range l.shared {
		if uerr := unlock(f); err == nil {
			err = uerr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	l.shared = nil
	return err
}
