package experiment

import (
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/buildinfo"
)

// TestDiffersNamesBuilds: runs of two greedytl versions differ in the
// greedytl version, whose message names both (and the Go that built
// each, when run.json says); when one of them is a build that its version
// does not identify (an executable's digest, or "devel" alone from an
// earlier greedytl), it also says why and what to do.
func TestDiffersNamesBuilds(t *testing.T) {
	for _, c := range []struct {
		a, b string
		hint bool
	}{
		{"devel sha256:0123456789abcdef", "devel sha256:fedcba9876543210", true},
		{"devel", "devel sha256:0123456789abcdef", true},
		{"devel abc+dirty sha256:0123456789abcdef", "devel abc", true},
		{"v1.2.0", "devel abc", false},
		{"v1.2.0", "v1.3.0", false},
	} {
		a := &Manifest{GreedytlVersion: c.a, Build: &buildinfo.Info{Go: "go1.25.1"}}
		b := &Manifest{GreedytlVersion: c.b}
		d := a.differs(b, true)
		if !strings.HasPrefix(d, `greedytl version: "`+c.a+`" (built by go1.25.1) vs "`+c.b+`"`) {
			t.Errorf("%s vs %s: %q does not name both", c.a, c.b, d)
		}
		if got := strings.Contains(d, "one binary"); got != c.hint {
			t.Errorf("%s vs %s: %q: says what to do %v, want %v", c.a, c.b, d, got, c.hint)
		}
	}
}
