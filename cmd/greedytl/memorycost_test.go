package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	const fake = `#!/bin/sh
case "$1" in
synth) shift; while [ "$1" != --out ]; do shift; done; mkdir -p "$2" && : >"$2/features.npy" ;;
train-sources) echo "greedytl: train-sources: simulated failure of the measured command" >&2; [ -z "${FAKE_KILL:-}" ] || kill -"$FAKE_KILL" $$; exit 2 ;;
*) echo "unexpected: $*" >&2; exit 3 ;;
esac
`
	// A command killed by SIGKILL (the out-of-memory killer's signal) is
	// said to be, where the script said "status 137" and hid time's
	// "Command terminated by signal 9"; by another signal, by its number.
	for kill, how := range map[string]string{
		"":  "memory-cost.sh: failed (status 2): nice ",
		"9": "memory-cost.sh: failed (killed by signal 9 (SIGKILL: out of memory?)): nice ",
		"6": "memory-cost.sh: failed (killed by signal 6): nice ",
	} {
		out, err := runMemoryCost(t, fake, "FAKE_KILL="+kill)
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

// TestMemoryCostScriptToySize: at a toy size the measured commands take no
// CPU time that /usr/bin/time can see (0.00 s), and memory-cost.sh printed
// "inf sources per core-hour" (a division by zero; gawk stops there
// instead). It now says the time is too little to measure, gives no rate,
// and still checks the memory. A stand-in greedytl, built by a stand-in
// go, answers at once.
func TestMemoryCostScriptToySize(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("memory-cost.sh needs /usr/bin/python3")
	}
	out, err := runMemoryCost(t, `#!/bin/sh
cmd=$1
out=
while [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done
case "$cmd" in
synth) mkdir -p "$out" && : >"$out/features.npy" ;;
train-sources) mkdir -p "$out" && echo '{"negatives": {"source": ["n1"]}, "sources": [{"positives": 2}, {"positives": 2}]}' >"$out/sources.json" ;;
experiment) mkdir -p "$out" && echo '{}' >"$out/results-shard-0-of-100.jsonl" && echo "read 12 rows (0.0 MB of features) for 1 group of cells" >&2 ;;
*) echo "unexpected: $cmd" >&2; exit 3 ;;
esac
`)
	if err != nil {
		t.Fatalf("memory-cost.sh: %v\n%s", err, out)
	}
	// A loaded machine may count 0.01 s: then a rate, and a finite one.
	for _, want := range []string{
		`(?m)^train-sources --shard 0/400 \(2 sources\): peak RSS \d+ MB; .*: ok\n  CPU (under 0\.01 s, too little to measure: no rate of sources per core-hour \(measure a larger shape\)|0\.\d\d s: \d+\.\d sources per core-hour)$`,
		`(?m)^experiment --shard 0/100 \(1 cells\): peak RSS \d+ MB; .*: ok\n  CPU (under 0\.01 s, too little to measure: no rate of cells per core-hour \(measure a larger shape\)|0\.\d\d s: \d+\.\d cells per core-hour)$`,
	} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("memory-cost.sh at a toy size does not match %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "inf") || strings.Contains(string(out), "division") {
		t.Errorf("memory-cost.sh divided by a CPU time of 0:\n%s", out)
	}
}

// runMemoryCost runs docs/cluster/memory-cost.sh at 4 classes × 2 examples
// × 3 dimensions, in a new work directory, with fake, a shell script, as
// greedytl (which a stand-in go builds by copying it), and returns its
// output and error; env adds to its environment. It skips the test where
// the script cannot run.
func runMemoryCost(t *testing.T, fake string, env ...string) ([]byte, error) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("memory-cost.sh needs /usr/bin/time (Debian package time)")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "fake-greedytl"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	// go build -o BIN ./cmd/greedytl: copy the stand-in to BIN.
	goScript := "#!/bin/sh\n[ \"$1\" = build ] && [ \"$2\" = -o ] || exit 9\ncp \"" + filepath.Join(bin, "fake-greedytl") + "\" \"$3\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(goScript), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, filepath.Join("docs", "cluster", "memory-cost.sh"), t.TempDir(), "25", "105", "3") // the smallest shape it accepts
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH")), env...)
	return cmd.CombinedOutput()
}

// TestMemoryCostScriptRefusesSmallShapes: a shape too small for the
// measurements (the experiment needs more than 10 target negatives, a tenth
// of round(CLASSES × 0.02) classes' examples) is refused before the build
// and the data, exit 2, with the minimum; it failed only after them, in the
// experiment ("the negative pool leaves 2 target negatives"), without it.
// 25 × 105, the smallest, was run for real by hand (both steps met their
// targets); TestMemoryCostScriptToySize runs the script at that shape.
func TestMemoryCostScriptRefusesSmallShapes(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	// PATH holds mkdir, which the script runs first once the shape is
	// accepted (with none, a WORK made too early could not be), and a
	// stand-in go that leaves a marker: the build must not start either.
	bin := t.TempDir()
	mkdir, err := exec.LookPath("mkdir")
	if err != nil {
		t.Skip("no mkdir")
	}
	if err := os.Symlink(mkdir, filepath.Join(bin, "mkdir")); err != nil {
		t.Fatal(err)
	}
	built := filepath.Join(t.TempDir(), "built")
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte("#!"+sh+"\n: > '"+built+"'\nexit 9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, shape := range [][]string{{"25", "104", "3"}, {"24", "500", "3"}, {"75", "52", "3"}, {"1000", "10", "3"}, {"40", "x", "3"}, {"1000", "130", "0"}} {
		work := filepath.Join(t.TempDir(), "work")
		cmd := exec.Command(sh, append([]string{filepath.Join("docs", "cluster", "memory-cost.sh"), work}, shape...)...)
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "PATH="+bin) // mkdir and a go that marks its run: it must stop before them
		out, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		want := "≥ 105"
		if shape[1] == "x" {
			want = "whole numbers"
		}
		if !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), want) {
			t.Errorf("memory-cost.sh WORK %v: %v, %q; want exit 2 saying %q", shape, err, out, want)
		}
		if _, err := os.Stat(work); err == nil {
			t.Errorf("memory-cost.sh WORK %v made WORK before refusing the shape", shape)
		}
		if _, err := os.Stat(built); err == nil {
			t.Fatalf("memory-cost.sh WORK %v ran go build before refusing the shape", shape)
		}
	}
}
