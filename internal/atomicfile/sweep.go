package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/greedytl/greedytl/internal/dirlock"
)

// A Write killed outright (SIGKILL, a job's time limit, a preempted node)
// leaves its temporary file, which nothing of that process removes. A
// later Write of the same file in the same directory removes the ones that
// no process is writing (sweep), which it can be certain of only for the
// files of its own host: Write's temporary file is named
// "." + the destination's name + ".tmp-" + host + "-" + pid + "-" + random
// digits (tempPattern), and its writer holds an exclusive flock(2) lock on
// it from before it writes a byte until after it is renamed (claim), which
// the kernel releases when the writer exits, however it exits. A sweep
// removes a temporary file of its destination only when the name records
// this host and the sweep can take that lock (dirlock.LockOpen): then the
// writer has exited (or is between creating the file and locking it, and
// finds the file gone, claim, and makes another). Files of other hosts
// are kept: where flock locks are node-local (Lustre localflock, NFS
// nolock) a lock taken on another node is not seen here, and shards
// writing one sources directory from several nodes would lose their files.
// Where there are no flock locks (Windows, a file system without them)
// nothing is swept.

// tempPrefix begins the names of the temporary files of the destination
// named base.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// tempPattern is the os.CreateTemp pattern of Write's temporary file for
// the destination named base: tempPrefix, this host and pid (hostTag),
// random digits. Without a usable host name, or when the name would be too
// long for a file system (255 bytes), it has no host and pid, and no sweep
// removes it.
func tempPattern(base string) string {
	tag := hostTag()
	if tag == "" || len(tempPrefix(base))+len(tag)+len("-")+len("4294967295") > 255 {
		return tempPrefix(base) + "*"
	}
	return tempPrefix(base) + tag + "-*"
}

// hostTag is this host's name and this process's pid ("node7-1234"), or ""
// when the host name is unknown or has characters other than letters,
// digits, '.' and '-'.
var hostTag = sync.OnceValue(func() string {
	h := thisHost()
	if h == "" {
		return ""
	}
	return h + "-" + strconv.Itoa(os.Getpid())
})

// thisHost is os.Hostname, or "" when it fails or has characters other
// than letters, digits, '.' and '-' (which a file name could not carry
// safely).
var thisHost = sync.OnceValue(func() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return ""
	}
	for _, r := range h {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '-') {
			return ""
		}
	}
	return h
})

// renameOpen reports that an open file can be renamed: Write renames its
// temporary file before closing it, so that its lock is held until the
// rename. Windows refuses to rename an open file (and has no locks to
// hold: nothing is swept there).
const renameOpen = runtime.GOOS != "windows"

// claim locks the temporary file f that Write has just created, so that
// sweeps of other processes keep it, and reports whether f is still the
// file its name names: false when a sweep locked it first (it removes it)
// or already removed it, between its creation and the lock. Without locks
// (dirlock.LockOpen's error) f is written unlocked, as sweeps, which cannot
// lock it either, keep it.
func claim(f *os.File) bool {
	held, err := dirlock.LockOpen(f)
	switch {
	case err != nil:
		return true
	case held:
		return false
	}
	return sameFile(f, f.Name())
}

// sameFile reports whether the open file f is the file path names.
func sameFile(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Lstat(path)
	return err == nil && os.SameFile(fi, pi)
}

// unswept holds, for each directory this process has written into, the
// temporary files of this host that the first Write into it found there,
// by the name of their destination, not yet swept. Guarded by temps'
// mutex.
var unswept = map[string]map[string][]string{}

// sweep removes the temporary files that killed Writes of this host left
// for the destination named base in dir (removeStale), keeping this
// process's own. Each directory's names are read once, at this process's
// first Write into it (no lstat, no sort), so that writing n files there
// reads n names n times over, not n²: what a process killed afterwards
// leaves there is swept by a later process. The caller holds temps' mutex.
func sweep(dir, base string) {
	found, ok := unswept[dir]
	if !ok {
		found = list(dir)
		unswept[dir] = found
	}
	for _, name := range found[base] {
		if p := filepath.Join(dir, name); !temps.files[p] {
			removeStale(p)
		}
	}
	delete(found, base)
}

// list returns the names of the temporary files of this host in dir
// (tempPattern), by the name of their destination.
func list(dir string) map[string][]string {
	found := map[string][]string{}
	host := thisHost()
	if host == "" {
		return found
	}
	d, err := os.Open(dir)
	if err != nil {
		return found
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	mark := ".tmp-" + host + "-"
	for _, name := range names {
		i := strings.LastIndex(name, mark)
		if i > 1 && name[0] == '.' && pidAndRandom(name[i+len(mark):]) {
			found[name[1:i]] = append(found[name[1:i]], name)
		}
	}
	return found
}

// pidAndRandom reports whether s is the tail of a temporary file's name
// after its host (tempPattern): a pid, '-', random digits.
func pidAndRandom(s string) bool {
	pid, random, ok := strings.Cut(s, "-")
	return ok && digits(pid) && digits(random)
}

// removeStale removes the temporary file path if no process is writing it:
// if it can lock it (its writer has exited, the kernel releasing its lock,
// or has not locked it yet, and then finds it gone: claim) and path still
// names the file it locked. It reports whether it removed it.
func removeStale(path string) bool {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return false // a FIFO, a device: not a temporary file of Write
	}
	// Writable: an exclusive lock on NFS wants a writable descriptor.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if held, err := dirlock.LockOpen(f); err != nil || held || !sameFile(f, path) {
		return false
	}
	return os.Remove(path) == nil
}

// digits reports whether s is one or more decimal digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
