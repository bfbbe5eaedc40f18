package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
// faccessat2 and through x/sys's answer without it (Linux before 5.8; here
// a seccomp filter makes faccessat2 fail with ENOSYS). The writer is this
// test binary run as root, which changes its effective user.
func TestWriteAsksForTheEffectiveUser(t *testing.T) {
	dir := euidTest(t, "atomicfile-euid")
	for _, noFaccessat2 := range []bool{false, true} {
		for _, c := range []struct {
			mode    fs.FileMode
			refused bool
		}{{0o644, true}, {0o666, false}} {
			t.Run(fmt.Sprintf("%#o, faccessat2 refused %v", c.mode, noFaccessat2), func(t *testing.T) {
				path := filepath.Join(dir, fmt.Sprintf("model-%o-%v.json", c.mode, noFaccessat2))
				makeFile(t, path, c.mode)
				var env []string
				if noFaccessat2 {
					env = append(env, "ATOMICFILE_NO_FACCESSAT2=1")
				}
				out := writeAsEuid(t, "TestWriteAsksForTheEffectiveUser", path, env...)
				want, content := "<nil>", "new"
				if c.refused {
					want, content = path+": permission denied", "old"
				}
				if b, _ := os.ReadFile(path); out != want || string(b) != content {
					t.Errorf("effective user 65534 writing root's %#o file: %s, the file holds %q; want %s, %q", c.mode, out, b, want, content)
				}
			})
		}
	}
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
// root: it refuses faccessat2 when ATOMICFILE_NO_FACCESSAT2 is set, takes
// effective user 65534 (which clears its effective capabilities), raises
// CAP_FOWNER again on its thread when ATOMICFILE_FOWNER is set, writes
// path, prints Write's error and exits.
func euidWriter(path string) {
	runtime.LockOSThread() // capabilities are a thread's
	if os.Getenv("ATOMICFILE_NO_FACCESSAT2") != "" {
		if err := refuseFaccessat2(); err != nil {
			fmt.Print("refusing faccessat2: ", err)
			os.Exit(0)
		}
	}
	if err := syscall.Setreuid(-1, 65534); err != nil {
		fmt.Print("setreuid: ", err)
		os.Exit(0)
	}
	if os.Getenv("ATOMICFILE_FOWNER") != "" {
		if err := raiseFowner(); err != nil {
			fmt.Print("capset: ", err)
			os.Exit(0)
		}
	}
	fmt.Print(writeNew(path))
	os.Exit(0)
}

// raiseFowner adds CAP_FOWNER, which must be permitted, to the calling
// thread's effective capabilities.
func raiseFowner() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	data[unix.CAP_FOWNER/32].Effective |= 1 << (unix.CAP_FOWNER % 32)
	return unix.Capset(&hdr, &data[0])
}

// refuseFaccessat2 makes every thread's faccessat2 fail with ENOSYS, as
// on a kernel without it, by a seccomp filter, and checks that it does.
func refuseFaccessat2() error {
	const faccessat2 = 439 // the same number on every architecture
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: faccessat2},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return e
	}
	if err := unix.Faccessat2(unix.AT_FDCWD, "/", unix.F_OK, unix.AT_EACCESS); err != unix.ENOSYS {
		return fmt.Errorf("faccessat2 answered %v after the filter, not ENOSYS", err)
	}
	return nil
}
