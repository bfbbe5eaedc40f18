package buildinfo

import (
	"runtime"
	"strings"
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

func TestString(t *testing.T) {
	for _, c := range []struct {
		in   Info
		want string
	}{
		{Info{Module: "v1.2.0", Go: "go1.24.1"}, "greedytl v1.2.0 go1.24.1"},
		{Info{Module: "(devel)", Revision: "abc", Go: "go1.24.1"}, "greedytl (devel) (commit abc) go1.24.1"},
		{Info{Module: "(devel)", Revision: "abc", Modified: true, Go: "go1.24.1"}, "greedytl (devel) (commit abc, modified) go1.24.1"},
	} {
		if got := c.in.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.in, got, c.want)
		}
		if !strings.HasPrefix(c.in.String(), "greedytl ") {
			t.Error("missing program name")
		}
	}
}

func TestID(t *testing.T) {
	for _, c := range []struct {
		in   Info
		want string
	}{
		{Info{Module: "v1.2.0", Revision: "abc"}, "v1.2.0"},
		{Info{Module: "(devel)", Revision: "abc"}, "devel abc"},
		{Info{Module: "(devel)", Revision: "abc", Modified: true}, "devel abc+dirty"},
		{Info{Module: "(unknown)"}, "devel"},
	} {
		if got := c.in.ID(); got != c.want {
			t.Errorf("%+v.ID() = %q, want %q", c.in, got, c.want)
		}
	}
}
