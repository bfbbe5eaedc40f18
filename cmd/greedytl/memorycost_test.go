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
// (the message only in WORKDIR/train.time). A stand-in greedytl, built by
// a stand-in go, fails its train-sources.
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
train-sources) echo "greedytl: train-sources: simulated failure of the measured command" >&2; exit 2 ;;
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
	work := t.TempDir()
	cmd := exec.Command(sh, filepath.Join("docs", "cluster", "memory-cost.sh"), work, "4", "2", "3")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("memory-cost.sh succeeded with a failing train-sources:\n%s", out)
	}
	for _, want := range []string{"simulated failure of the measured command", "train-sources"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("memory-cost.sh failed (%v) without saying %q:\n%s", err, want, out)
		}
	}
	if strings.Contains(string(out), "Command being timed") {
		t.Errorf("memory-cost.sh shows /usr/bin/time's measurements of a failed command:\n%s", out)
	}
}
