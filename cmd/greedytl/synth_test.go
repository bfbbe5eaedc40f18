package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
)

func TestSynth(t *testing.T) {
	out := filepath.Join(t.TempDir(), "data")
	args := []string{"synth", "--out", out, "--classes", "6", "--per-class", "4", "--dims", "5", "--groups", "2", "--seed", "7"}
	code, stdout, stderr := cli(t, "", args...)
	if code != 0 || stdout != "" || !strings.HasPrefix(stderr, out+": 6 classes in 2 groups, 24 examples × 5 dimensions") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	f, err := dataset.LoadFolder(out)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := f.X.Dims(); r != 24 || c != 5 || len(f.Classes) != 6 || f.Groups[5] != "group1" {
		t.Errorf("folder %d × %d, classes %v, groups %v", r, c, f.Classes, f.Groups)
	}
	before, _ := os.ReadFile(filepath.Join(out, "features.npy"))

	tests := []struct {
		name string
		args []string
		want string
	}{
		{"existing folder", args, "features.npy: file already exists"},
		{"no out", []string{"synth"}, "give --out DIR"},
		{"more groups than classes", []string{"synth", "--out", filepath.Join(t.TempDir(), "x"), "--classes", "3", "--groups", "4"}, "4 groups, want 1 to 3"},
		{"bad number", []string{"synth", "--out", "x", "--dims", "many"}, "invalid argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, "", tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q: want 2 and %q", code, stderr, tt.want)
			}
		})
	}
	after, _ := os.ReadFile(filepath.Join(out, "features.npy"))
	if string(before) != string(after) {
		t.Error("features.npy was overwritten")
	}
}

// TestSynthDefaultGroups: without --groups, any number of classes works:
// min(10, --classes) groups.
func TestSynthDefaultGroups(t *testing.T) {
	for _, tc := range []struct{ classes, groups int }{{2, 2}, {5, 5}, {10, 10}, {23, 10}} {
		out := filepath.Join(t.TempDir(), "data")
		code, _, stderr := cli(t, "", "synth", "--out", out, "--classes", strconv.Itoa(tc.classes), "--per-class", "2", "--dims", "3")
		want := out + ": " + strconv.Itoa(tc.classes) + " classes in " + strconv.Itoa(tc.groups) + " groups"
		if code != 0 || !strings.HasPrefix(stderr, want) {
			t.Errorf("--classes %d: exit %d, stderr %q: want 0 and %q", tc.classes, code, stderr, want)
		}
	}
}

// TestSynthTooLarge is issue 18's case: 2 examples of 2⁴⁰ dimensions (8.8 TB)
// crashed with "out of memory" and left a half-written folder; now it is a
// bad-input error (exit 2) before anything is written, where the system
// tells the free disk space.
func TestSynthTooLarge(t *testing.T) {
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd":
	default:
		t.Skip("synth does not know the free disk space on " + runtime.GOOS)
	}
	out := filepath.Join(t.TempDir(), "s")
	code, _, stderr := cli(t, "", "synth", "--out", out, "--dims", "1099511627776", "--classes", "2", "--per-class", "1", "--groups", "1")
	if code != 2 || !strings.Contains(stderr, "not enough space: the data set needs 8.8 TB") {
		t.Errorf("exit %d, stderr %q: want exit 2 saying there is not enough space", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was created", out)
	}
}

// TestSynthNamesLeftoversWhenQuiet: the temporary folder a killed synth
// left in --out is named on standard error with or without --quiet, which
// drops the progress bar and the summary, not this note (it was dropped
// too, so that scripts, which pass --quiet, never heard of gigabytes left
// behind).
func TestSynthNamesLeftoversWhenQuiet(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "data")
		left := filepath.Join(out, ".synth-tmp-1")
		if err := os.MkdirAll(left, 0o755); err != nil {
			t.Fatal(err)
		}
		args := []string{"synth", "--out", out, "--classes", "2", "--per-class", "2", "--dims", "2"}
		if quiet {
			args = append(args, "-q")
		}
		code, _, stderr := cli(t, "", args...)
		if want := "greedytl: note: " + left + " (0 bytes) is the temporary folder of a synth"; code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("quiet %v: exit %d, stderr %q; want 0 and %q", quiet, code, stderr, want)
		}
	}
}

// TestSynthProgressLines: synth, its standard error not a terminal (a
// Slurm log), drew its progress only on a terminal, and showed nothing
// before its summary however long it ran; it now writes the plain lines of
// the other long commands (progressOf; the clock here a minute a reading:
// one line a class), and none with -q.
func TestSynthProgressLines(t *testing.T) {
	wantProgressLines(t, "writing features", func() []string {
		return []string{"synth", "--out", filepath.Join(t.TempDir(), "data"), "--classes", "6", "--per-class", "4", "--dims", "5", "--groups", "2"}
	})
}
