package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
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
		{Info{Module: "(devel)", Go: "go1.24.1", Executable: "0123456789abcdef0123"}, "greedytl (devel) go1.24.1 (executable sha256:0123456789abcdef)", "devel sha256:0123456789abcdef"},
		{Info{Module: "(devel)", Revision: "abc", Modified: true, Go: "go1.24.1", Executable: "0123456789abcdef0123"}, "greedytl (devel) (commit abc, modified) go1.24.1 (executable sha256:0123456789abcdef)", "devel abc+dirty sha256:0123456789abcdef"},
		{Info{Module: "v0.0.0-20260101000000-abc+dirty", Go: "go1.24.1", Executable: "0123456789abcdef0123"}, "greedytl v0.0.0-20260101000000-abc+dirty go1.24.1 (executable sha256:0123456789abcdef)", "v0.0.0-20260101000000-abc+dirty sha256:0123456789abcdef"},
	} {
		if got := c.in.String(); got != c.str {
			t.Errorf("%+v.String() = %q, want %q", c.in, got, c.str)
		}
		if got := c.in.ID(); got != c.id {
			t.Errorf("%+v.ID() = %q, want %q", c.in, got, c.id)
		}
	}
}

// TestIdentified: a build is identified by a module version or a VCS
// revision, of an unmodified tree.
func TestIdentified(t *testing.T) {
	for _, c := range []struct {
		in   Info
		want bool
	}{
		{Info{Module: "v1.2.0"}, true},
		{Info{Module: "v0.0.0-20260101000000-abc"}, true},
		{Info{Module: "v0.0.0-20260101000000-abc+dirty"}, false},
		{Info{Module: "(devel)", Revision: "abc"}, true},
		{Info{Module: "(devel)", Revision: "abc", Modified: true}, false},
		{Info{Module: "(devel)"}, false},
		{Info{Module: "(unknown)"}, false},
		{Info{}, false},
	} {
		if got := c.in.Identified(); got != c.want {
			t.Errorf("%+v.Identified() = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestIdentifiedID: an ID names the code exactly when its Info is
// Identified, for the Infos of TestIdentified with the digest set as
// ReadIdentified sets it; and the IDs of earlier greedytls, which recorded
// no digest, are identified only with a version or a revision of an
// unmodified tree.
func TestIdentifiedID(t *testing.T) {
	for _, i := range []Info{
		{Module: "v1.2.0"}, {Module: "v0.0.0-20260101000000-abc"}, {Module: "v0.0.0-20260101000000-abc+dirty"},
		{Module: "(devel)", Revision: "abc"}, {Module: "(devel)", Revision: "abc", Modified: true},
		{Module: "(devel)"}, {Module: "(unknown)"}, {},
	} {
		if !i.Identified() {
			i.Executable = "0123456789abcdef0123"
		}
		if got := IdentifiedID(i.ID()); got != i.Identified() {
			t.Errorf("IdentifiedID(%q) = %v, want %+v.Identified(), %v", i.ID(), got, i, i.Identified())
		}
	}
	for _, c := range []struct {
		id   string
		want bool
	}{
		{"devel", false},
		{"devel abc", true},
		{"devel abc+dirty", false},
		{"v0.0.0-20260101000000-abc+dirty", false},
		{"v1.2.0", true},
	} {
		if got := IdentifiedID(c.id); got != c.want {
			t.Errorf("IdentifiedID(%q) = %v, want %v (an earlier greedytl's ID)", c.id, got, c.want)
		}
	}
}

// TestReadIdentified: for a build that Read does not identify, as a test
// binary's, ReadIdentified adds the SHA-256 of the executable file,
// computed here from the file itself; its ID says so.
func TestReadIdentified(t *testing.T) {
	r := Read()
	i := ReadIdentified()
	if r.Identified() {
		if i != r {
			t.Errorf("an identified build: ReadIdentified() = %+v, want Read's %+v", i, r)
		}
		t.Skip("this test binary's build is identified by its version or revision")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	want := hex.EncodeToString(sum[:])
	if i.Executable != want {
		t.Errorf("Executable = %q, want the SHA-256 of %s, %s", i.Executable, exe, want)
	}
	if id := i.ID(); id != r.ID()+" sha256:"+want[:16] {
		t.Errorf("ID() = %q, want %q followed by the digest's first 16 digits", id, r.ID())
	}
	i.Executable = ""
	if i != r {
		t.Errorf("ReadIdentified() = %+v but for the digest, want Read's %+v", i, r)
	}
}
