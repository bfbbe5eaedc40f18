// Package errtest holds the tests' check of the module's rule for error
// messages (docs/conventions.md, "Errors"): the package that makes an error
// names itself once, at the start of its message, and the layers that pass
// it on add context but never a second package prefix.
package errtest

import (
	"fmt"
	"strings"
)

// packages are the module's package names, the prefixes its errors carry.
// The root package's prefixes name its entry points ("greedytl.Fit",
// "greedytl.Model.Predict") or the package itself ("greedytl").
var packages = map[string]bool{
	"greedytl": true, "method": true, "linear": true, "source": true, "dataset": true,
	"standardize": true, "experiment": true, "lssvm": true, "hinge": true, "sparsecode": true,
	"synth": true, "report": true, "timing": true, "text": true, "clinc150": true,
	"shard": true, "metric": true, "sparse": true, "grid": true, "ball": true,
}

// packageOf returns the package a segment of a message names ("greedytl"
// for "greedytl.Fit"), or "" when the segment is not a package prefix.
func packageOf(seg string) string {
	name, _, _ := strings.Cut(seg, ".")
	if packages[name] && (name == seg || name == "greedytl") {
		return name
	}
	return ""
}

// OnePrefix returns an error describing the first breach of the rule in
// msg, a library error's message, or nil: split at ": ", no segment repeats
// the one before it ("X: X:"), no package is named by two segments, and no
// package prefix directly follows another ("method: greedytl.Fit:").
func OnePrefix(msg string) error {
	segs := strings.Split(msg, ": ")
	seen := map[string]int{}
	for k, seg := range segs {
		if k > 0 && seg == segs[k-1] {
			return fmt.Errorf("%q repeats the segment %q", msg, seg)
		}
		p := packageOf(seg)
		if p == "" {
			continue
		}
		if j, dup := seen[p]; dup {
			return fmt.Errorf("%q names package %s twice (segments %d and %d)", msg, p, j, k)
		}
		seen[p] = k
		if k > 0 && packageOf(segs[k-1]) != "" {
			return fmt.Errorf("%q nests package prefixes: %q after %q", msg, seg, segs[k-1])
		}
	}
	return nil
}

// CommandMessage returns an error describing the first breach of the rule in
// line, a line the greedytl command wrote to standard error for a failure,
// or nil: it starts with "greedytl: " once, and the message after it
// follows OnePrefix and names no package greedytl again but through the
// root package's entry points ("greedytl.Fit: ").
func CommandMessage(line string) error {
	rest, ok := strings.CutPrefix(line, "greedytl: ")
	if !ok {
		return fmt.Errorf("%q does not start with \"greedytl: \"", line)
	}
	for _, seg := range strings.Split(rest, ": ") {
		if seg == "greedytl" {
			return fmt.Errorf("%q repeats the prefix \"greedytl: \"", line)
		}
	}
	return OnePrefix(rest)
}
