package peertest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissingPeer: a missing tool or file (Tool, File) skips the test, and
// fails it under RequireEnv=1, where the liblinear comparisons skipped
// whatever the environment said (each package checked PATH with its own
// t.Skip). The helpers run in a child process of this test binary, whose
// exit status and output show which.
func TestMissingPeer(t *testing.T) {
	if os.Getenv("PEERTEST_CHILD") == "1" {
		if os.Getenv("PEERTEST_FILE") == "1" {
			File(t, "/nonexistent/peertest/heart_scale")
		} else {
			Tool(t, "greedytl-peertest-no-such-tool")
		}
		t.Fatal("not stopped by the missing peer")
	}
	for _, file := range []string{"0", "1"} {
		for _, require := range []string{"", "1"} {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMissingPeer$", "-test.v")
			cmd.Env = append(os.Environ(), "PEERTEST_CHILD=1", "PEERTEST_FILE="+file, RequireEnv+"="+require)
			out, err := cmd.CombinedOutput()
			failed := err != nil
			switch {
			case require == "1" && (!failed || !strings.Contains(string(out), "peer missing but "+RequireEnv+"=1")):
				t.Errorf("file %s, %s=1: exit error %v, want a failure naming it:\n%s", file, RequireEnv, err, out)
			case require == "" && (failed || !strings.Contains(string(out), "--- SKIP")):
				t.Errorf("file %s, %s unset: exit error %v, want a skip:\n%s", file, RequireEnv, err, out)
			}
		}
	}
}
