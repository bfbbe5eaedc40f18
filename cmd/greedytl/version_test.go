package main

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/greedytl/greedytl/internal/buildinfo"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/modelfile"
)

// TestVersion: greedytl version and greedytl --version print the build
// (issue: both were unknown), and fit records it in the model file.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, stderr := cli(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "greedytl ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	code, out, _ := cli(t, "", "version", "--json")
	var info buildinfo.Info
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info.Go != runtime.Version() || info.Module == "" {
		t.Errorf("version --json: exit %d, %q", code, out)
	}
	// A build that no commit identifies (a test binary is one) shows the
	// digest by which run.json tells it apart, in both forms.
	if want := buildinfo.ReadIdentified(); !want.Identified() {
		if info.Executable == "" || info.Executable != want.Executable {
			t.Errorf("version --json: executable_sha256 %q, want run.json's %q", info.Executable, want.Executable)
		}
		if _, line, _ := cli(t, "", "version"); !strings.Contains(line, "sha256:"+want.Executable[:16]) {
			t.Errorf("version: %q lacks the executable's digest %s…", line, want.Executable[:16])
		}
	}
	// greedytl --version (and -v) print the same line as greedytl version,
	// as version's help says (they lacked the executable's digest).
	_, line, _ := cli(t, "", "version")
	for _, flag := range []string{"--version", "-v"} {
		if _, got, _ := cli(t, "", flag); got != line {
			t.Errorf("greedytl %s printed %q, greedytl version %q", flag, got, line)
		}
	}
	// What the Python package checks: the model file format fit writes, the
	// methods fit accepts and the version of fit --json's report.
	var caps struct {
		ModelFormat  string   `json:"model_format"`
		ModelVersion int      `json:"model_version"`
		Methods      []string `json:"methods"`
		MultiClass   []string `json:"multiclass_methods"`
		FitReport    int      `json:"fit_report"`
	}
	if json.Unmarshal([]byte(out), &caps) != nil || caps.ModelFormat != modelfile.Format ||
		caps.ModelVersion != modelfile.Version || !slices.Equal(caps.Methods, method.Names()) || caps.FitReport != fitReportVersion {
		t.Errorf("version --json: %+v, want format %q version %d methods %v fit_report %d", caps, modelfile.Format, modelfile.Version, method.Names(), fitReportVersion)
	}
	// The native multi-class methods: each fits several classes natively and
	// is not a binary method; greedytl-nway, the recommended one, is among them.
	if !slices.Contains(caps.MultiClass, method.RecommendedMulti) {
		t.Errorf("version --json: multiclass_methods %v lacks %s", caps.MultiClass, method.RecommendedMulti)
	}
	for _, n := range caps.MultiClass {
		if _, err := method.NewMulti(n); err != nil || slices.Contains(caps.Methods, n) {
			t.Errorf("version --json: multiclass_methods has %s (NewMulti: %v; binary: %v)", n, err, slices.Contains(caps.Methods, n))
		}
	}
	d := newToy(t)
	code, out, _ = cli(t, "", "fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat")
	var file struct {
		Build *buildinfo.Info `json:"build"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &file) != nil || file.Build == nil || file.Build.Go != runtime.Version() {
		t.Errorf("the model file does not record the build: %.300s", out)
	}
}

// TestVersionFitFlags: version --json lists the flags fit takes
// ("fit_flags", the long names, sorted), the fit command's own, so that a
// program driving greedytl (the Python package) tells a build whose fit
// lacks a flag it passes (--ignore-unused-extra, which older builds
// refused as an unknown flag) before it runs fit. It listed none.
func TestVersionFitFlags(t *testing.T) {
	code, out, _ := cli(t, "", "version", "--json")
	var caps struct {
		FitFlags []string `json:"fit_flags"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &caps) != nil {
		t.Fatalf("version --json: exit %d, %q", code, out)
	}
	var want []string
	newFitCmd(&streams{}).Flags().VisitAll(func(f *pflag.Flag) { want = append(want, f.Name) })
	if !slices.Contains(caps.FitFlags, "ignore-unused-extra") || !slices.Contains(caps.FitFlags, "sources") ||
		!slices.Equal(caps.FitFlags, want) || !slices.IsSorted(caps.FitFlags) {
		t.Errorf("version --json: fit_flags %v, want fit's flags %v", caps.FitFlags, want)
	}
	// Every one is a flag fit takes: "fit --FLAG --help" is no unknown flag.
	for _, f := range caps.FitFlags {
		if code, _, stderr := cli(t, "", "fit", "--"+f+"=1", "--help"); strings.Contains(stderr, "unknown flag") {
			t.Errorf("fit --%s: exit %d, %s", f, code, stderr)
		}
	}
}
