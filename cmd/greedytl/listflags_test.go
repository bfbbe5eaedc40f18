package main

import (
	"regexp"
	"slices"
	"testing"
)

// TestListFlagDefaultReplacedOnce: a list flag with a default (report's
// --format) drops the default at its first use only; later uses append,
// so "--format md --format html" writes both documents, not html alone.
// A flag without a default appends from the start.
func TestListFlagDefaultReplacedOnce(t *testing.T) {
	var formats []string
	l := &listFlag{items: &formats, def: true}
	formats = []string{"md", "html"}
	for _, arg := range []string{"md", "html"} {
		if err := l.Set(arg); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(formats, []string{"md", "html"}) {
		t.Errorf("--format md --format html: %q; want [md html]", formats)
	}
	var names []string
	c := &listFlag{items: &names}
	for _, arg := range []string{"a,b", "c"} {
		if err := c.Set(arg); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(names, []string{"a", "b", "c"}) {
		t.Errorf("--targets a,b --targets c: %q; want [a b c]", names)
	}
}

// TestListFlagHelpDefault: the help shows a list flag's default as pflag
// shows its string lists, "(default [md,html])" for report's --format, and
// no default for a list flag without one (--targets, --negative-classes:
// their usage says what none means).
func TestListFlagHelpDefault(t *testing.T) {
	code, stdout, stderr := cli(t, "", "report", "--help")
	if code != 0 || !regexp.MustCompile(`(?m)^\s+--format strings .*\(default \[md,html\]\)$`).MatchString(stdout) {
		t.Errorf("report --help: exit %d, %s%s; want --format's (default [md,html])", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "", "experiment", "--help")
	for _, flag := range []string{"--targets", "--negative-classes"} {
		line := regexp.MustCompile(`(?m)^\s+` + flag + ` strings .*$`).FindString(stdout)
		if code != 0 || line == "" || regexp.MustCompile(`\(default [^:]`).MatchString(line) {
			t.Errorf("experiment --help: exit %d, %s's line %q (%s); want it with no pflag default", code, flag, line, stderr)
		}
	}
}
