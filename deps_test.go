package greedytl

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLayerDeps checks the module's layering where it is easy to break by
// one import: each package of the table must not depend, directly or
// through another package, on the packages listed for it (go list -deps).
// The model file (modelfile) records the identity of a sources directory
// (modelfile.SourcesID) but is read by the core package, which trains and
// scores no sources: neither may depend on source, nor on what source
// uses to train and store them. Packages that check their inputs for NaN
// and ±Inf but standardise nothing use inputcheck, not standardize.
func TestLayerDeps(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot list dependencies")
	}
	const mod = "github.com/greedytl/greedytl"
	below := []string{"source", "linear", "shard", "metric", "method", "experiment", "report", "internal/dirlock"}
	for _, tc := range []struct {
		pkg       string
		forbidden []string
	}{
		{".", below},
		{"./modelfile", below},
		// The readers and the trainers that check their inputs for NaN and
		// ±Inf (inputcheck) standardise nothing.
		{"./dataset", []string{"standardize"}},
		{"./linear", []string{"standardize"}},
		{"./lssvm", []string{"standardize"}},
		{"./clinc150", []string{"standardize"}},
	} {
		out, err := exec.Command(goCmd, "list", "-deps", tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tc.pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, f := range tc.forbidden {
			if slices.Contains(deps, mod+"/"+f) {
				t.Errorf("%s depends on %s", tc.pkg, f)
			}
		}
	}
}
