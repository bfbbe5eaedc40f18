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
// and ±Inf but standardise nothing use inputcheck, not standardize, which
// is a leaf (inputcheck/doc.go): the only module package it may depend on
// is internal/typednil. It checks the default build's imports (no build
// tags; this GOOS and GOARCH) as the go command on PATH lists them.
func TestLayerDeps(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot list dependencies")
	}
	const mod = "github.com/greedytl/greedytl"
	below := []string{"source", "linear", "shard", "metric", "method", "experiment", "report", "internal/dirlock",
		"internal/parallel", "internal/filename", "internal/textcut"}
	for _, tc := range []struct {
		pkg       string
		forbidden []string
		// only, when set, lists every module package pkg may depend on
		// besides itself.
		only []string
	}{
		{pkg: ".", forbidden: below},
		{pkg: "./modelfile", forbidden: below},
		// The readers and the trainers that check their inputs for NaN and
		// ±Inf (inputcheck) standardise nothing.
		{pkg: "./dataset", forbidden: []string{"standardize"}},
		{pkg: "./linear", forbidden: []string{"standardize"}},
		{pkg: "./lssvm", forbidden: []string{"standardize"}},
		{pkg: "./clinc150", forbidden: []string{"standardize"}},
		{pkg: "./inputcheck", only: []string{"internal/typednil"}},
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
		if tc.only == nil {
			continue
		}
		self := mod + strings.TrimPrefix(tc.pkg, ".")
		for _, d := range deps {
			if d == self || (d != mod && !strings.HasPrefix(d, mod+"/")) {
				continue
			}
			if !slices.Contains(tc.only, strings.TrimPrefix(d, mod+"/")) {
				t.Errorf("%s depends on %s, beyond %v", tc.pkg, d, tc.only)
			}
		}
	}
}
