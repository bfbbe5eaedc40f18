package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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
	if path := os.Getenv("ATOMICFILE_EUID_WRITE"); path != "" {
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
		fmt.Print(writeNew(path))
		os.Exit(0)
	}
	if os.Geteuid() != 0 {
		t.Skip("changing the effective user needs root")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := otherusertest.SharedDir(t, "atomicfile-euid")
	for _, noFaccessat2 := range []bool{false, true} {
		for _, c := range []struct {
			mode    fs.FileMode
			refused bool
		}{{0o644, true}, {0o666, false}} {
			t.Run(fmt.Sprintf("%#o, faccessat2 refused %v", c.mode, noFaccessat2), func(t *testing.T) {
				path := filepath.Join(dir, fmt.Sprintf("model-%o-%v.json", c.mode, noFaccessat2))
				makeFile(t, path, c.mode)
				cmd := exec.Command(exe, "-test.run=^TestWriteAsksForTheEffectiveUser$")
				cmd.Env = append(os.Environ(), "ATOMICFILE_EUID_WRITE="+path)
				if noFaccessat2 {
					cmd.Env = append(cmd.Env, "ATOMICFILE_NO_FACCESSAT2=1")
				}
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("the writer: %v: %s", err, out)
				}
				if s := string(out); strings.HasPrefix(s, "setreuid: ") || strings.HasPrefix(s, "refusing faccessat2: ") {
					t.Skip(s) // root without CAP_SETUID, or without seccomp
				}
				want, content := "<nil>", "new"
				if c.refused {
					want, content = path+": permission denied", "old"
				}
				if b, _ := os.ReadFile(path); string(out) != want || string(b) != content {
					t.Errorf("effective user 65534 writing root's %#o file: %s, the file holds %q; want %s, %q", c.mode, out, b, want, content)
				}
			})
		}
	}
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
