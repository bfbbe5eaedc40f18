package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/buildinfo"
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
	d := newToy(t)
	code, out, _ = cli(t, "", "fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat")
	var file struct {
		Build *buildinfo.Info `json:"build"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &file) != nil || file.Build == nil || file.Build.Go != runtime.Version() {
		t.Errorf("the model file does not record the build: %.300s", out)
	}
}
