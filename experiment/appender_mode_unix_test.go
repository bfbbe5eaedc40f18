//go:build unix

package experiment

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestAppenderModeFollowsUmask checks that a results file is made with mode
// 0o666 less the umask, as the lock files and the output files are, so that
// under umask 002 the group that shares a run directory may resume it.
func TestAppenderModeFollowsUmask(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  uint32
	}{{0o002, 0o664}, {0o022, 0o644}, {0o077, 0o600}} {
		path := filepath.Join(t.TempDir(), "results.jsonl")
		old := syscall.Umask(tc.umask)
		a, err := openAppender(path, 0)
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.close(); err != nil {
			t.Fatal(err)
		}
		var st syscall.Stat_t
		if err := syscall.Stat(path, &st); err != nil {
			t.Fatal(err)
		}
		if got := uint32(st.Mode) & 0o777; got != tc.want { // uint16 on darwin
			t.Errorf("umask %03o: results file mode %03o, want %03o", tc.umask, got, tc.want)
		}
	}
}
