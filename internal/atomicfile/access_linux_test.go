package atomicfile

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/greedytl/greedytl/internal/otherusertest"
	"golang.org/x/sys/unix"
)

// TestWriteAsksForTheEffectiveUser: whether a file may be written is asked
// for the effective user, who opens and renames: a process of real user
// root and effective user 65534 replaced root's 0o644 file (access(2)
// answered for root), which uid 65534 may not write. It is asked through
// faccessat2 and, where a seccomp filter refuses faccessat2 (ENOSYS, as
// Linux before 5.8 answers, or EPERM), through faccessat for a process
// whose effective user and group are its real ones (all ids 65534); for
// one whose are not the answer is unknown, and the mode bits answer
// (writeAccess): the rename, which never asks, replaced the file. The
// writer is this test binary run as root, which changes its effective
// user, or all its ids.
func TestWriteAsksForTheEffectiveUser(t *testing.T) {
	dir := euidTest(t, "atomicfile-euid")
	for _, noFaccessat2 := range []string{"", "ENOSYS", "EPERM"} {
		for _, allIDs := range []bool{false, true} {
			for _, c := range []struct {
				mode    fs.FileMode
				refused bool
			}{{0o644, true}, {0o666, false}} {
				t.Run(fmt.Sprintf("%#o, faccessat2 refused %q, all ids %v", c.mode, noFaccessat2, allIDs), func(t *testing.T) {
					path := filepath.Join(dir, fmt.Sprintf("model-%o-%s-%v.json", c.mode, noFaccessat2, allIDs))
					makeFile(t, path, c.mode)
					out := writeAsEuid(t, "TestWriteAsksForTheEffectiveUser", path, writerEnv(noFaccessat2, allIDs)...)
					want, content := "<nil>", "new"
					if c.refused {
						want, content = path+": permission denied", "old"
					}
					if b, _ := os.ReadFile(path); out != want || string(b) != content {
						t.Errorf("user 65534 writing root's %#o file: %s, the file holds %q; want %s, %q", c.mode, out, b, want, content)
					}
				})
			}
		}
	}
}

// TestWriteHeedsACLsWithoutFaccessat2: a directory, or a file, whose ACL
// lets user 65534 write it, though its mode bits do not, is written by
// that user, with or without faccessat2. Without it (Linux before 5.8, or
// a seccomp filter: ENOSYS, EPERM) x/sys's Faccessat answered from the
// mode bits alone, and Write refused ("permission denied") what it would
// have written. One exception, refused on purpose: a file to replace,
// without faccessat2, by a process whose effective ids are not its real
// ones, where no call tells and the mode bits answer (writeAccess; the
// rename would not ask). The writer is euidWriter's.
func TestWriteHeedsACLsWithoutFaccessat2(t *testing.T) {
	shared := euidTest(t, "atomicfile-acl")
	skipWithoutCaps(t, chownCaps, "it may not give the directory to another group")
	// A directory of root's and of a group the writer is not in, which
	// the ACL alone opens to user 65534.
	aclDir := filepath.Join(shared, "acl")
	if err := os.Mkdir(aclDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(aclDir, 0, 12345); err != nil {
		t.Fatal(err)
	}
	setACL(t, aclDir, 7)
	for _, noFaccessat2 := range []string{"", "ENOSYS", "EPERM"} {
		for _, allIDs := range []bool{false, true} {
			name := fmt.Sprintf("%s-%v", noFaccessat2, allIDs)
			t.Run(fmt.Sprintf("faccessat2 refused %q, all ids %v", noFaccessat2, allIDs), func(t *testing.T) {
				// A new file in the directory; root's 0o644 file, of
				// that group too, that the ACL lets user 65534 write.
				file := filepath.Join(shared, "file-"+name)
				makeFile(t, file, 0o644)
				if err := os.Chown(file, 0, 12345); err != nil {
					t.Fatal(err)
				}
				setACL(t, file, 6)
				for _, path := range []string{filepath.Join(aclDir, "new-"+name), file} {
					out := writeAsEuid(t, "TestWriteHeedsACLsWithoutFaccessat2", path, writerEnv(noFaccessat2, allIDs)...)
					if path == file && noFaccessat2 != "" && !allIDs {
						if b, _ := os.ReadFile(path); out != path+": permission denied" || string(b) != "old" {
							t.Errorf("user 65534 (effective only, no faccessat2) replacing %s: %s, the file holds %q; want the mode bits' refusal", path, out, b)
						}
						continue
					}
					if b, _ := os.ReadFile(path); out != "<nil>" || string(b) != "new" {
						t.Errorf("user 65534 writing %s, which an ACL lets it write: %s, the file holds %q; want it written", path, out, b)
					}
				}
			})
		}
	}
}

// setACL gives path the access ACL of its mode with an entry for user
// 65534 of perm (7: rwx) and a mask that lets it be, in the binary form of
// the system.posix_acl_access attribute. It skips t where the file system
// has no ACLs.
func setACL(t *testing.T, path string, perm uint16) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	mode := uint16(fi.Mode().Perm())
	const undefined = 0xffffffff
	entries := []struct {
		tag, perm uint16
		id        uint32
	}{
		{0x01, mode >> 6 & 7, undefined}, // ACL_USER_OBJ
		{0x02, perm, 65534},              // ACL_USER
		{0x04, mode >> 3 & 7, undefined}, // ACL_GROUP_OBJ
		{0x10, 7, undefined},             // ACL_MASK
		{0x20, mode & 7, undefined},      // ACL_OTHER
	}
	b := binary.LittleEndian.AppendUint32(nil, 2) // POSIX_ACL_XATTR_VERSION
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, e.id)
	}
	if err := unix.Setxattr(path, "system.posix_acl_access", b, 0); err != nil {
		t.Skipf("setting an ACL on %s: %v", path, err)
	}
}

// writerEnv is the environment that makes euidWriter refuse faccessat2
// with the error noFaccessat2 names ("": not) and take all ids 65534, not
// just the effective user.
func writerEnv(noFaccessat2 string, allIDs bool) []string {
	var env []string
	if noFaccessat2 != "" {
		env = append(env, "ATOMICFILE_NO_FACCESSAT2="+noFaccessat2)
	}
	if allIDs {
		env = append(env, "ATOMICFILE_ALL_IDS=1")
	}
	return env
}

// TestStickyDirectoryAsksForCapFowner: in root's sticky directory, root's
// file (mode 0o666) may be replaced by a process of another effective user
// that holds CAP_FOWNER, as the kernel lets it rename there; Write refused
// it ("it belongs to another user in a sticky directory"), asking whether
// the process was root, not whether it had the capability. Without the
// capability it is refused as before. The writer is euidWriter's, with
// CAP_FOWNER raised again or not.
func TestStickyDirectoryAsksForCapFowner(t *testing.T) {
	dir := euidTest(t, "atomicfile-fowner")
	if err := os.Chmod(dir, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	for _, fowner := range []bool{true, false} {
		t.Run(fmt.Sprintf("CAP_FOWNER %v", fowner), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("model-%v.json", fowner))
			makeFile(t, path, 0o666)
			var env []string
			if fowner {
				env = append(env, "ATOMICFILE_FOWNER=1")
			}
			out := writeAsEuid(t, "TestStickyDirectoryAsksForCapFowner", path, env...)
			want, content := "<nil>", "new"
			if !fowner {
				want, content = path+": permission denied: it belongs to another user in a sticky directory", "old"
			}
			if b, _ := os.ReadFile(path); out != want || string(b) != content {
				t.Errorf("effective user 65534, CAP_FOWNER %v, writing root's file in root's sticky directory: %s, the file holds %q; want %s, %q", fowner, out, b, want, content)
			}
			if matches, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(matches) != 0 {
				t.Errorf("left %v", matches)
			}
		})
	}
}

// TestRootWithoutCapFownerKeepsTheOwner: root without CAP_FOWNER (a
// container that dropped it) replaces another user's file, which keeps
// its owner and mode. The temporary file was given the owner first, after
// which its mode could not be set ("operation not permitted", after the
// work). The writer is euidWriter's, root without CAP_FOWNER.
func TestRootWithoutCapFownerKeepsTheOwner(t *testing.T) {
	dir := euidTest(t, "atomicfile-nofowner")
	skipWithoutCaps(t, rootWriteCaps, "it may not give a file to another user or write that user's file")
	path := filepath.Join(dir, "model.json")
	makeFile(t, path, 0o640)
	if err := os.Chown(path, 65533, 65533); err != nil {
		t.Fatal(err)
	}
	out := writeAsEuid(t, "TestRootWithoutCapFownerKeepsTheOwner", path, "ATOMICFILE_ROOT_WITHOUT_FOWNER=1")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if st := fi.Sys().(*syscall.Stat_t); out != "<nil>" || string(b) != "new" || st.Uid != 65533 || st.Gid != 65533 || fi.Mode().Perm() != 0o640 {
		t.Errorf("root without CAP_FOWNER writing user 65533's 0640 file: %s, it holds %q, owner %d, group %d, mode %#o; want it written, 65533, 65533, 0640", out, b, st.Uid, st.Gid, fi.Mode().Perm())
	}
}

// TestCheckAsksOfAFIFO: a FIFO or a device written in place is checked as
// a file replaced is: root's 0o644 FIFO is refused by Check, for user
// 65534, before any work ("permission denied"), as by Write, whose error
// named it twice ("F: open F: permission denied"); one everyone may write,
// and /dev/null, pass. The writer is euidWriter's.
func TestCheckAsksOfAFIFO(t *testing.T) {
	dir := euidTest(t, "atomicfile-fifo")
	for _, c := range []struct {
		path    string
		mode    uint32
		refused bool
	}{{filepath.Join(dir, "fifo-644"), 0o644, true}, {filepath.Join(dir, "fifo-666"), 0o666, false}, {os.DevNull, 0, false}} {
		if c.mode != 0 {
			if err := unix.Mkfifo(c.path, c.mode); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			if err := os.Chmod(c.path, fs.FileMode(c.mode)); err != nil {
				t.Fatal(err)
			}
		}
		want := "<nil>"
		if c.refused {
			want = c.path + ": permission denied"
		}
		if got := writeAsEuid(t, "TestCheckAsksOfAFIFO", c.path, "ATOMICFILE_CHECK=1"); got != want {
			t.Errorf("user 65534 checking %s: %s; want %s", c.path, got, want)
		}
		if c.refused { // a FIFO it may open would wait for a reader
			if got := writeAsEuid(t, "TestCheckAsksOfAFIFO", c.path); got != want {
				t.Errorf("user 65534 writing %s: %s; want %s", c.path, got, want)
			}
		}
	}
}

// TestCheckAsksOfTheDirectory: whether a file may be created in a
// directory is asked for the effective user (user 65534, real user root),
// and for writing and searching it: root's 0o755 directory is refused, and
// so is one everyone may write but not search (0o776), by Check for a file
// in it and by CheckDir; one everyone may write and search (0o777) passes.
// The writer is euidWriter's.
func TestCheckAsksOfTheDirectory(t *testing.T) {
	shared := euidTest(t, "atomicfile-dir")
	skipWithoutCaps(t, chownCaps, "it may not give a directory to another group")
	for _, c := range []struct {
		mode    fs.FileMode
		refused bool
	}{{0o755, true}, {0o776, true}, {0o777, false}} {
		dir := filepath.Join(shared, fmt.Sprintf("%o", c.mode))
		if err := os.Mkdir(dir, c.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, c.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, 0, 12345); err != nil { // a group the writer is not in
			t.Fatal(err)
		}
		path := filepath.Join(dir, "model.json")
		for _, check := range []struct{ how, path string }{{"file", path}, {"dir", dir}} {
			want := "<nil>"
			if c.refused {
				want = check.path + ": permission denied"
			}
			if got := writeAsEuid(t, "TestCheckAsksOfTheDirectory", check.path, "ATOMICFILE_CHECK="+check.how); got != want {
				t.Errorf("user 65534 checking %s (%s): %s; want %s", check.path, check.how, got, want)
			}
		}
	}
}

// euidTest begins a test whose writer is euidWriter (writeAsEuid): in
// the writer's process it writes and exits; otherwise it skips t unless
// this process is root, and returns a new directory that everyone may
// write (otherusertest.SharedDir, named after pattern).
func euidTest(t *testing.T, pattern string) string {
	t.Helper()
	if path := os.Getenv("ATOMICFILE_EUID_WRITE"); path != "" {
		euidWriter(path)
	}
	if os.Geteuid() != 0 {
		t.Skip("changing the effective user needs root")
	}
	return otherusertest.SharedDir(t, pattern)
}

// writeAsEuid runs the test named test of this binary, as root, with
// env added, to write path as euidWriter, and returns what it printed:
// Write's error, "<nil>" when it wrote. It skips t when the writer could
// not set itself up (root without CAP_SETUID, seccomp or CAP_FOWNER).
func writeAsEuid(t *testing.T, test, path string, env ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^"+test+"$")
	cmd.Env = append(append(os.Environ(), "ATOMICFILE_EUID_WRITE="+path), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the writer: %v: %s", err, out)
	}
	s := string(out)
	if strings.HasPrefix(s, "setreuid: ") || strings.HasPrefix(s, "refusing faccessat2: ") || strings.HasPrefix(s, "capset: ") {
		t.Skip(s)
	}
	return s
}

// euidWriter is the writer of writeAsEuid, in this test binary run as
// root: it refuses faccessat2 with the error ATOMICFILE_NO_FACCESSAT2
// names (ENOSYS, EPERM) when it is set, takes effective user 65534 (which
// clears its effective capabilities) or, when ATOMICFILE_ALL_IDS is set,
// real, effective and saved user and group 65534, or, when
// ATOMICFILE_ROOT_WITHOUT_FOWNER is set, stays root without CAP_FOWNER on
// its thread, raises CAP_FOWNER again
// on its thread when ATOMICFILE_FOWNER is set, writes path (when
// ATOMICFILE_CHECK is set, checks it: with CheckDir when it is "dir",
// else with Check), prints Write's (the check's) error and exits.
func euidWriter(path string) {
	runtime.LockOSThread() // capabilities are a thread's
	if errno := os.Getenv("ATOMICFILE_NO_FACCESSAT2"); errno != "" {
		if err := refuseFaccessat2(map[string]unix.Errno{"ENOSYS": unix.ENOSYS, "EPERM": unix.EPERM}[errno]); err != nil {
			fmt.Print("refusing faccessat2: ", err)
			os.Exit(0)
		}
	}
	var err error
	switch {
	case os.Getenv("ATOMICFILE_ROOT_WITHOUT_FOWNER") != "":
		err = setFowner(false)
	case os.Getenv("ATOMICFILE_ALL_IDS") != "":
		if err = syscall.Setresgid(65534, 65534, 65534); err == nil {
			err = syscall.Setresuid(65534, 65534, 65534)
		}
	default:
		err = syscall.Setreuid(-1, 65534)
	}
	if err != nil {
		fmt.Print("setreuid: ", err)
		os.Exit(0)
	}
	if os.Getenv("ATOMICFILE_FOWNER") != "" {
		if err := setFowner(true); err != nil {
			fmt.Print("capset: ", err)
			os.Exit(0)
		}
	}
	switch os.Getenv("ATOMICFILE_CHECK") {
	case "dir":
		fmt.Print(CheckDir(path))
	case "":
		fmt.Print(writeNew(path))
	default:
		fmt.Print(Check(path))
	}
	os.Exit(0)
}

// setFowner adds CAP_FOWNER, which must be permitted, to the calling
// thread's effective capabilities (on), or removes it.
func setFowner(on bool) error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	data[unix.CAP_FOWNER/32].Effective &^= 1 << (unix.CAP_FOWNER % 32)
	if on {
		data[unix.CAP_FOWNER/32].Effective |= 1 << (unix.CAP_FOWNER % 32)
	}
	return unix.Capset(&hdr, &data[0])
}

// refuseFaccessat2 makes every thread's faccessat2 fail with errno (ENOSYS,
// as on a kernel without it), by a seccomp filter, and checks that it does.
func refuseFaccessat2(errno unix.Errno) error {
	const faccessat2 = 439 // the same number on every architecture
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: faccessat2},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(errno)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return e
	}
	if err := unix.Faccessat2(unix.AT_FDCWD, "/", unix.F_OK, unix.AT_EACCESS); err != errno {
		return fmt.Errorf("faccessat2 answered %v after the filter, not %v", err, errno)
	}
	return nil
}

// missingCaps returns the names of the capabilities of caps (by number,
// named by names) that this process's effective set lacks, when the set
// can be read; none otherwise.
func missingCaps(caps map[int]string) []string {
	var out []string
	for c, name := range caps {
		if has, known := effectiveCap(c); known && !has {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// rootWriteCaps are the capabilities root needs to give a file to another
// user (CAP_CHOWN) and to write that user's file (CAP_DAC_OVERRIDE).
var rootWriteCaps = map[int]string{unix.CAP_CHOWN: "CAP_CHOWN", unix.CAP_DAC_OVERRIDE: "CAP_DAC_OVERRIDE"}

// chownCaps is the capability root needs to give a file to another user
// or group (CAP_CHOWN).
var chownCaps = map[int]string{unix.CAP_CHOWN: "CAP_CHOWN"}
