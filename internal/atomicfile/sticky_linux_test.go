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

	"github.com/greedytl/greedytl/internal/otherusertest"
	"golang.org/x/sys/unix"
)

// TestStickyDirectoryAsksForCapFowner: in root's sticky directory, root's
// file (mode 0o666) may be replaced by a process of another effective user
// that holds CAP_FOWNER, as the kernel lets it rename there; Write refused
// it ("it belongs to another user in a sticky directory"), asking whether
// the process was root, not whether it had the capability. Without the
// capability it is refused as before. The writer is this test binary run
// as root, which takes effective user 65534 (clearing its effective
// capabilities) and, on its locked thread, raises CAP_FOWNER again.
func TestStickyDirectoryAsksForCapFowner(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_STICKY_WRITE"); path != "" {
		runtime.LockOSThread() // capabilities are a thread's
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
	if os.Geteuid() != 0 {
		t.Skip("changing the effective user needs root")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := otherusertest.SharedDir(t, "atomicfile-fowner")
	if err := os.Chmod(dir, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	for _, fowner := range []bool{true, false} {
		t.Run(fmt.Sprintf("CAP_FOWNER %v", fowner), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("model-%v.json", fowner))
			makeFile(t, path, 0o666)
			cmd := exec.Command(exe, "-test.run=^TestStickyDirectoryAsksForCapFowner$")
			cmd.Env = append(os.Environ(), "ATOMICFILE_STICKY_WRITE="+path)
			if fowner {
				cmd.Env = append(cmd.Env, "ATOMICFILE_FOWNER=1")
			}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("the writer: %v: %s", err, out)
			}
			if s := string(out); strings.HasPrefix(s, "setreuid: ") || strings.HasPrefix(s, "capset: ") {
				t.Skip(s) // root without CAP_SETUID or CAP_FOWNER
			}
			want, content := "<nil>", "new"
			if !fowner {
				want, content = path+": permission denied: it belongs to another user in a sticky directory", "old"
			}
			if b, _ := os.ReadFile(path); string(out) != want || string(b) != content {
				t.Errorf("effective user 65534, CAP_FOWNER %v, writing root's file in root's sticky directory: %s, the file holds %q; want %s, %q", fowner, out, b, want, content)
			}
			if matches, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(matches) != 0 {
				t.Errorf("left %v", matches)
			}
		})
	}
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
