package main

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/method"
)

// complete runs cobra's hidden __complete command on args (the last one
// being the word to complete) and returns the values completed (without
// their descriptions) and the directive.
func complete(t *testing.T, args ...string) ([]string, cobra.ShellCompDirective) {
	t.Helper()
	code, out, stderr := cli(t, "", append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %q: exit %d: %s", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	last := lines[len(lines)-1]
	d, err := strconv.Atoi(strings.TrimPrefix(last, ":"))
	if !strings.HasPrefix(last, ":") || err != nil {
		t.Fatalf("__complete %q: no directive line: %q", args, out)
	}
	var values []string
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, cobra.ShellCompDirective(d)
}

// TestCompleteValues: a flag of a closed set of values completes them,
// each from its owner (the method registry, the protocols, the label
// header rules, report's documents, the solvers), with no file, where
// every flag completed the directory's files; a list flag completes its
// last item, keeping the earlier ones and leaving out those given.
func TestCompleteValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
		list bool // a comma-separated list: no space after the value
	}{
		{[]string{"fit", "--method", ""}, method.MultiNames(), false},
		{[]string{"fit", "--method", "greedytl-"}, []string{"greedytl-nway", "greedytl-59", "greedytl-sp", "greedytl-auto"}, false},
		{[]string{"fit", "--labels-header", ""}, []string{"auto", "yes", "no"}, false},
		{[]string{"predict", "--labels-header", "y"}, []string{"yes"}, false},
		{[]string{"fit", "--features-header", ""}, []string{"auto", "yes", "no"}, false},
		{[]string{"predict", "--features-header", "n"}, []string{"no"}, false},
		{[]string{"experiment", "--protocol", ""}, experiment.Protocols(), false},
		{[]string{"experiment", "--methods", ""}, method.Names(), true},
		{[]string{"experiment", "--methods", "greedytl,no-"}, []string{"greedytl,no-transfer"}, true},
		{[]string{"experiment", "--protocol", "nway", "--methods", "greedytl-n"}, []string{"greedytl-nway"}, true},
		{[]string{"experiment", "--methods", "greedytl-n"}, nil, true}, // multi-class only with nway
		{[]string{"experiment", "--methods", "greedytl:delta=0.01,lambda="}, nil, false},
		{[]string{"demo", "--methods", "no-"}, []string{"no-transfer"}, true},
		{[]string{"report", "--format", ""}, []string{"md", "html"}, true},
		{[]string{"report", "--format", "md,"}, []string{"md,html"}, true},
		// Items trimmed as the flags read them: "md, h" completed nothing,
		// and "md ," left md among the values.
		{[]string{"report", "--format", "md, h"}, []string{"md, html"}, true},
		{[]string{"report", "--format", "md , "}, []string{"md , html"}, true},
		{[]string{"experiment", "--methods", "greedytl, no-"}, []string{"greedytl, no-transfer"}, true},
		{[]string{"train", "-s", ""}, []string{"0", "1", "2", "3", "5", "6", "7", "100", "elastic-net", "elasticnet"}, false},
		{[]string{"train-sources", "--solver", "1"}, []string{"1", "100"}, false},
		// liblinear's weights before the flag (rewritten for a completion
		// request too), and --weight, which cobra parses twice.
		{[]string{"train", "-w1", "2", "-w-1", "3", "-s", "1"}, []string{"1", "100"}, false},
		{[]string{"train", "--weight", "1:2", "-s", "1"}, []string{"1", "100"}, false},
		// The weight after liblinear's -wLABEL: none, and no file (cobra
		// refused the --weight=1 it was rewritten as and offered files).
		{[]string{"train", "-w1", ""}, nil, false},
		{[]string{"train", "-w-1", "2", "-w1", "0."}, nil, false},
	} {
		got, d := complete(t, tc.args...)
		want := cobra.ShellCompDirectiveNoFileComp
		if tc.list {
			want |= cobra.ShellCompDirectiveNoSpace
		}
		if !slices.Equal(got, tc.want) || d != want {
			t.Errorf("%q: %q, directive %d; want %q, %d", tc.args, got, d, tc.want, want)
		}
	}
}

// TestCompleteListNoDescriptions: a list flag's values after a comma carry
// no description ("\t" and the text), where the first item's do. Bash's
// script of cobra, given descriptions, quotes each value with printf %q,
// which bash 5.2 writes "greedytl\,no-transfer", no longer starting with
// the "greedytl,no-" typed: bash offered nothing after a comma.
func TestCompleteListNoDescriptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		desc bool // the values carry descriptions
	}{
		{[]string{"experiment", "--methods", ""}, true},
		{[]string{"experiment", "--methods", "greedytl-"}, true},
		{[]string{"experiment", "--methods", "greedytl,"}, false},
		{[]string{"experiment", "--methods", "greedytl,no-"}, false},
		{[]string{"experiment", "--protocol", "nway", "--methods", "greedytl-nway,"}, false},
	} {
		code, out, stderr := cli(t, "", append([]string{cobra.ShellCompRequestCmd}, tc.args...)...)
		if code != 0 {
			t.Fatalf("__complete %q: exit %d: %s", tc.args, code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		lines = lines[:len(lines)-1] // the directive
		if len(lines) == 0 {
			t.Errorf("%q: no values", tc.args)
		}
		for _, l := range lines {
			if strings.Contains(l, "\t") != tc.desc {
				t.Errorf("%q: %q: a description %v, want %v", tc.args, l, !tc.desc, tc.desc)
			}
		}
	}
}

// TestCompletePaths: a flag that names a file completes paths (cobra's
// default directive), one that names a directory directories only, and
// every other flag that takes a value completes nothing — no file of the
// directory for --seed or --positive; so do the arguments of a command
// that takes none, where the arguments that are files complete paths.
func TestCompletePaths(t *testing.T) {
	files := map[string][]string{
		"fit":     {"features", "source-scores", "labels", "unlabelled-features", "unlabelled-source-scores", "oracle-features", "oracle-source-scores", "oracle-labels", "out"},
		"predict": {"features", "source-scores", "labels", "model", "out"},
		"train":   {"data", "out"},
		"merge":   {"out"},
	}
	dirs := map[string][]string{
		"fit":           {"sources"},
		"predict":       {"sources"},
		"experiment":    {"data", "out", "sources"},
		"train-sources": {"data", "out"},
		"report":        {"out"},
		"synth":         {"out"},
		"demo":          {"out"},
	}
	values := []string{"method", "methods", "protocol", "labels-header", "features-header", "format", "solver"} // TestCompleteValues
	root := newRootCmd(&streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard})
	n := 0
	for _, c := range root.Commands() {
		if c.Name() == "completion" || c.Name() == "help" {
			continue
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.NoOptDefVal != "" || slices.Contains(values, f.Name) {
				return
			}
			n++
			got, d := complete(t, c.Name(), "--"+f.Name, "")
			want := cobra.ShellCompDirectiveNoFileComp
			switch {
			case slices.Contains(files[c.Name()], f.Name):
				want = cobra.ShellCompDirectiveDefault
			case slices.Contains(dirs[c.Name()], f.Name):
				want = cobra.ShellCompDirectiveFilterDirs
			}
			if len(got) != 0 || d != want {
				t.Errorf("%s --%s: %q, directive %d; want none, %d", c.Name(), f.Name, got, d, want)
			}
		})
	}
	if n < 50 {
		t.Errorf("%d flags checked: the command tree was not walked", n)
	}
	for _, tc := range []struct {
		args []string
		want cobra.ShellCompDirective
	}{
		{[]string{"synth", ""}, cobra.ShellCompDirectiveNoFileComp},
		{[]string{"version", ""}, cobra.ShellCompDirectiveNoFileComp},
		{[]string{"predict", ""}, cobra.ShellCompDirectiveDefault},
		{[]string{"inspect", ""}, cobra.ShellCompDirectiveDefault},
		{[]string{"report", ""}, cobra.ShellCompDirectiveDefault},
	} {
		if _, d := complete(t, tc.args...); d != tc.want {
			t.Errorf("%q: directive %d, want %d", tc.args, d, tc.want)
		}
	}
}

// TestCompleteOnlyOnRequest: the completion functions are registered for
// a completion request only, so that a command line run in the process
// (the tests) leaves none in cobra's map behind: a command line run
// through execute, as run does, on a tree the test builds (newRootCmd),
// registers none, a completion request does.
func TestCompleteOnlyOnRequest(t *testing.T) {
	registered := func(args ...string) bool {
		t.Helper()
		var stdout, stderr bytes.Buffer
		root := newRootCmd(&streams{in: strings.NewReader(""), out: &stdout, err: &stderr})
		if code := execute(root, args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
		}
		fit, _, err := root.Find([]string{"fit"})
		if err != nil {
			t.Fatal(err)
		}
		_, ok := fit.GetFlagCompletionFunc("method")
		return ok
	}
	for _, args := range [][]string{{"version"}, {"fit", "--help"}, {"completion", "bash"}} {
		if registered(args...) {
			t.Errorf("%q registered completion functions", args)
		}
	}
	if !registered(cobra.ShellCompRequestCmd, "fit", "--method", "") {
		t.Error("a completion request registered no completion of fit --method")
	}
}
