package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMemoryCostScriptShowsFailure: docs/cluster/memory-cost.sh runs the
// commands it measures under /usr/bin/time -v with their standard error
// in a file; when one fails, the script must say which and show its
// message, where it stopped (set -e) with the command's status and no word
// (the message only in WORKDIR/train.time), and a command killed by a
// signal must be said to be, SIGKILL as a likely out-of-memory kill. A
// stand-in greedytl, built by a stand-in go, fails its train-sources, or
// kills itself with the signal FAKE_KILL.
func TestMemoryCostScriptShowsFailure(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("memory-cost.sh needs /usr/bin/time (Debian package time)")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir()
	fake := `#!/bin/sh
case "$1" in
synth) shift; while [ "$1" != --out ]; do shift; done; mkdir -p "$2" && : >"$2/features.npy" ;;
train-sources) echo "greedytl: train-sources: simulated failure of the measured command" >&2; [ -z "${FAKE_KILL:-}" ] || kill -"$FAKE_KILL" $$; exit 2 ;;
*) echo "unexpected: $*" >&2; exit 3 ;;
esac
`
	if err := os.WriteFile(filepath.Join(bin, "fake-greedytl"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	// go build -o BIN ./cmd/greedytl: copy the stand-in to BIN.
	goScript := "#!/bin/sh\n[ \"$1\" = build ] && [ \"$2\" = -o ] || exit 9\ncp \"" + filepath.Join(bin, "fake-greedytl") + "\" \"$3\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(goScript), 0o755); err != nil {
		t.Fatal(err)
	}
	// A command killed by SIGKILL (the out-of-memory killer's signal) is
	// said to be, where the script said "status 137" and hid time's
	// "Command terminated by signal 9"; by another signal, by its number.
	for kill, how := range map[string]string{
		"":  "memory-cost.sh: failed (status 2): nice ",
		"9": "memory-cost.sh: failed (killed by signal 9 (SIGKILL: out of memory?)): nice ",
		"6": "memory-cost.sh: failed (killed by signal 6): nice ",
	} {
		work := t.TempDir()
		cmd := exec.Command(sh, filepath.Join("docs", "cluster", "memory-cost.sh"), work, "4", "2", "3")
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_KILL="+kill)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("memory-cost.sh succeeded with a failing train-sources:\n%s", out)
		}
		for _, want := range []string{"simulated failure of the measured command", "train-sources", how} {
			if !strings.Contains(string(out), want) {
				t.Errorf("FAKE_KILL=%s: memory-cost.sh failed (%v) without saying %q:\n%s", kill, err, want, out)
			}
		}
		if strings.Contains(string(out), "Command being timed") {
			t.Errorf("memory-cost.sh shows /usr/bin/time's measurements of a failed command:\n%s", out)
		}
	}
}
