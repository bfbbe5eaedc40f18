// Package errtest holds the tests' check of the module's rule for error
// messages (docs/conventions.md, "Errors"): the package that makes an error
// names itself once, at the start of its message, and the layers that pass
// it on add context but never a second package prefix.
package errtest

import (
	"fmt"
	"strings"
	"testing"
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

// Refuses reports through t, naming the case name, unless f returns an
// error whose message contains want, without panicking: the check of a
// function or method that must refuse its arguments (a nil pointer, a
// zero value) with an error rather than a panic. The error must also
// follow OnePrefix.
func Refuses(t testing.TB, name, want string, f func() error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic %v", name, r)
		}
	}()
	err := f()
	switch {
	case err == nil || !strings.Contains(err.Error(), want):
		t.Errorf("%s: error %v, want one containing %q", name, err, want)
	case OnePrefix(err.Error()) != nil:
		t.Errorf("%s: %v", name, OnePrefix(err.Error()))
	}
}

// Panics reports through t, naming the case name, unless f panics with a
// string that starts with prefix (the package's name, or the function's)
// and contains want: the check of a function without an error result that
// must panic, on a caller's mistake, with a message saying what it is
// rather than with a runtime error (a nil dereference, an index out of
// range).
func Panics(t testing.TB, name, prefix, want string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if msg, ok := r.(string); !ok || !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, want) {
			t.Errorf("%s: panic %v (%T), want a message starting %q with %q", name, r, r, prefix, want)
		}
	}()
	f()
}
