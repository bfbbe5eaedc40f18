// Package buildinfo describes the running greedytl build from the Go
// toolchain's build information (runtime/debug.ReadBuildInfo): the module
// version, the VCS revision and whether the tree was modified, and the Go
// version. The CLI prints it (greedytl version) and model files and run.json
// record it, so that a result or a bug report names the build that made it.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
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

// String formats i on one line, for example
//
//	greedytl v1.2.0 (commit 0123abcd…, modified) go1.24.1
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
	return b.String()
}

// ID returns the short identity of the build that run.json records and
// compares: the module version when the build has a release or
// pseudo-version, else "devel" followed by the VCS revision and "+dirty"
// for a modified tree.
func (i Info) ID() string {
	if i.Module != "" && i.Module != "(devel)" && i.Module != "(unknown)" {
		return i.Module
	}
	v := "devel"
	if i.Revision != "" {
		v += " " + i.Revision
		if i.Modified {
			v += "+dirty"
		}
	}
	return v
}
