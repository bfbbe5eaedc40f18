package buildinfo

import (
	"runtime"
	"testing"
)

func TestRead(t *testing.T) {
	i := Read()
	if i.Go != runtime.Version() {
		t.Errorf("Go = %q, want the running toolchain's %q", i.Go, runtime.Version())
	}
	if i.Module == "" {
		t.Error("Module is empty: want a version, (devel) or (unknown)")
	}
}

// TestStringAndID: the full description of a build (String, always
// starting with the program's name) and its short identity (ID).
func TestStringAndID(t *testing.T) {
	for _, c := range []struct {
		in      Info
		str, id string
	}{
		{Info{Module: "v1.2.0", Go: "go1.24.1"}, "greedytl v1.2.0 go1.24.1", "v1.2.0"},
		{Info{Module: "v1.2.0", Revision: "abc", Go: "go1.24.1"}, "greedytl v1.2.0 (commit abc) go1.24.1", "v1.2.0"},
		{Info{Module: "(devel)", Revision: "abc", Go: "go1.24.1"}, "greedytl (devel) (commit abc) go1.24.1", "devel abc"},
		{Info{Module: "(devel)", Revision: "abc", Modified: true, Go: "go1.24.1"}, "greedytl (devel) (commit abc, modified) go1.24.1", "devel abc+dirty"},
		{Info{Module: "(unknown)", Go: "go1.24.1"}, "greedytl (unknown) go1.24.1", "devel"},
	} {
		if got := c.in.String(); got != c.str {
			t.Errorf("%+v.String() = %q, want %q", c.in, got, c.str)
		}
		if got := c.in.ID(); got != c.id {
			t.Errorf("%+v.ID() = %q, want %q", c.in, got, c.id)
		}
	}
}
