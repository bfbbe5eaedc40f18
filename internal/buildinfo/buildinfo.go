// Package buildinfo describes the running greedytl build from the Go
// toolchain's build information (runtime/debug.ReadBuildInfo): the module
// version, the VCS revision and whether the tree was modified, and the Go
// version. The CLI prints it (greedytl version) and model files and run.json
// record it, so that a result or a bug report names the build that made it;
// run.json records too, for a build that these do not identify (go run, go
// test, -buildvcs=false, a modified tree), the digest of its executable
// (ReadIdentified), so that runs of two such builds are not taken for one.
package buildinfo

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/greedytl/greedytl/internal/filedigest"
)

// Info is the description of a build.
type Info struct {
	// Module is the main module's version: a tag such as v1.2.0, a
	// pseudo-version, or "(devel)" for a build from a work tree.
	Module string `json:"module"`
	// Revision is the VCS commit the binary was built from, empty when the
	// build carries none (go test, go run outside a repository).
	Revision string `json:"revision,omitempty"`
	// Modified reports uncommitted changes in the built tree.
	Modified bool `json:"modified,omitempty"`
	// Go is the Go version that built the binary.
	Go string `json:"go"`
	// Executable is the SHA-256 digest, in hex, of the executable, which
	// ReadIdentified sets for a build that the fields above do not
	// identify (Identified): without one, the builds of two commits made
	// with go run, go test or -buildvcs=false would both be "devel".
	Executable string `json:"executable_sha256,omitempty"`
}

// Read returns the running binary's build information. Fields the binary
// does not carry are left at "(unknown)" (Module) or empty.
func Read() Info {
	info := Info{Module: "(unknown)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	if v := bi.Main.Version; v != "" {
		info.Module = v
	}
	if bi.GoVersion != "" {
		info.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info
}

// ReadIdentified returns Read's information and, for a build that it does
// not identify (Identified), the SHA-256 digest of the running executable
// (computed once per process; left empty when the executable cannot be
// read), so that ID tells two such builds apart: a build of other code, or
// of the same code with another toolchain or flags, is another executable.
func ReadIdentified() Info {
	i := Read()
	if !i.Identified() {
		i.Executable = executableDigest()
	}
	return i
}

// Identified reports whether i's module version or VCS revision identifies
// the code it was built from: a module version other than "(devel)" or
// "(unknown)", or a revision, of a tree not modified ("+dirty").
func (i Info) Identified() bool {
	if i.hasModuleVersion() {
		return !strings.HasSuffix(i.Module, dirty)
	}
	return i.Revision != "" && !i.Modified
}

// dirty ends the module version of a build from a modified tree (the Go
// toolchain's pseudo-version, v0.0.0-…+dirty) and ID's revision for one.
const dirty = "+dirty"

// digestMark starts, in ID, the executable's digest.
const digestMark = " sha256:"

// IdentifiedID reports whether id, an ID that run.json recorded (by this
// greedytl or an earlier one), names the code its build was made from, as
// Identified says of an Info: not when it is "devel" alone (an earlier
// greedytl's for a build without version or revision, before ID carried
// the executable's digest), holds the digest (a build not Identified,
// ReadIdentified), or is of a modified tree ("+dirty", which an earlier
// greedytl recorded without the digest: two modifications of one commit
// had one ID). For every Info i with its digest set as ReadIdentified sets
// it, IdentifiedID(i.ID()) is i.Identified().
func IdentifiedID(id string) bool {
	return id != "devel" && !strings.Contains(id, digestMark) && !strings.Contains(id, dirty)
}

// hasModuleVersion reports whether i's module version is one: not empty,
// "(devel)" (a build in the module's own tree) or "(unknown)".
func (i Info) hasModuleVersion() bool {
	return i.Module != "" && i.Module != "(devel)" && i.Module != "(unknown)"
}

// executableDigest returns the SHA-256 digest, in hex, of the running
// executable — on Linux /proc/self/exe, the file the process runs even if
// its path was replaced since, and where that cannot be read the file at
// its path (os.Executable) — or "" when it cannot be read; computed once.
var executableDigest = sync.OnceValue(func() string {
	d, err := filedigest.SHA256("/proc/self/exe")
	if err != nil {
		path, err := os.Executable()
		if err != nil {
			return ""
		}
		d, _ = filedigest.SHA256(path) // "" on an error
	}
	return d
})

// String formats i on one line, for example
//
//	greedytl v1.2.0 (commit 0123abcd…, modified) go1.24.1
//
// and, when Executable is set, the digest that ID and run.json give too:
//
//	greedytl (devel) go1.24.1 (executable sha256:0123456789abcdef)
func (i Info) String() string {
	var b strings.Builder
	b.WriteString("greedytl ")
	b.WriteString(i.Module)
	if i.Revision != "" {
		b.WriteString(" (commit ")
		b.WriteString(i.Revision)
		if i.Modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	b.WriteString(" ")
	b.WriteString(i.Go)
	if i.Executable != "" {
		b.WriteString(" (executable sha256:")
		b.WriteString(i.shortDigest())
		b.WriteString(")")
	}
	return b.String()
}

// shortDigest is the first 16 hex digits of Executable, as ID and String
// show it.
func (i Info) shortDigest() string { return i.Executable[:min(16, len(i.Executable))] }

// ID returns the short identity of the build that run.json records and
// compares: the module version when the build has a release or
// pseudo-version, else "devel" followed by the VCS revision and "+dirty"
// for a modified tree; then, when Executable is set (ReadIdentified, for a
// build not Identified), " sha256:" and its first 16 hex digits, as in
// "devel sha256:0123456789abcdef".
func (i Info) ID() string {
	v := "devel"
	if i.hasModuleVersion() {
		v = i.Module
	} else if i.Revision != "" {
		v += " " + i.Revision
		if i.Modified {
			v += dirty
		}
	}
	if i.Executable != "" {
		v += digestMark + i.shortDigest()
	}
	return v
}
