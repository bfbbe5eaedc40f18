package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/datasettest"
)

// readmeCommand is one command line of a README code block.
type readmeCommand struct {
	line   int      // 1-based line in README.md
	text   string   // the line as written, comment removed
	args   []string // its words
	stdout string   // the file after "> ", or ""
	// demoClash marks a command TestREADMECommands cannot run beside the
	// demo (readmeDemoProblems): a second demo, or one naming its
	// directory.
	demoClash bool
}

// readmeDemoProblems returns the errors of the README commands cmds that
// TestREADMECommands cannot run, since it runs the demo as a process of
// its own beside the others, and marks them (demoClash): a second demo
// command, whose waiter would replace the first's (the first never
// checked), and any other command naming the demo's directory,
// greedytl-demo, which it would read or write while the demo writes it.
func readmeDemoProblems(cmds []readmeCommand) []error {
	var errs []error
	first := 0 // the line of the first demo command
	for i := range cmds {
		c := &cmds[i]
		args := c.args
		switch {
		case len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/greedytl":
			args = args[3:]
		case len(args) > 0 && args[0] == "greedytl":
			args = args[1:]
		}
		switch demo := len(args) > 0 && args[0] == "demo"; {
		case demo && first > 0:
			errs = append(errs, fmt.Errorf("README.md:%d: %q: a second demo command (the first at line %d): the test runs one demo, beside the other commands", c.line, c.text, first))
			c.demoClash = true
		case demo:
			first = c.line
		case strings.Contains(c.text, "greedytl-demo"):
			errs = append(errs, fmt.Errorf("README.md:%d: %q names the demo's directory, greedytl-demo, which the demo writes as the test runs the other commands beside it", c.line, c.text))
			c.demoClash = true
		}
	}
	return errs
}

// readmeCommands returns the command lines of README.md's sh code blocks:
// every non-blank line that is not a comment, with a trailing "# …"
// comment removed. The README is the single source: the test runs what it
// says.
func readmeCommands(t *testing.T) []readmeCommand {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []readmeCommand
	inSh := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			lang := strings.TrimPrefix(trimmed, "```")
			if inSh || lang != "" {
				inSh = !inSh && (lang == "sh" || lang == "bash" || lang == "console" || lang == "shell")
			}
			continue
		case !inSh:
			continue
		}
		if i := strings.Index(trimmed, " #"); i >= 0 {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.ContainsAny(trimmed, "|&;'\"`$<\\") {
			t.Fatalf("README.md:%d: %q uses shell syntax this test does not run; keep README commands to words and a final > FILE", n, trimmed)
		}
		c := readmeCommand{line: n, text: trimmed}
		if cmd, out, ok := strings.Cut(trimmed, ">"); ok {
			c.stdout = strings.TrimSpace(out)
			trimmed = cmd
		}
		c.args = strings.Fields(trimmed)
		cmds = append(cmds, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// readmeData writes, in dir, the files the README's examples name: target
// features X.npy and source scores H.npy with labels y.txt, a test sample
// Xtest.npy, Htest.npy, ytest.txt, three-class labels of the same samples
// species.txt and species-test.txt (the largest of the first three source
// scores), and a dataset folder DIR.
func readmeData(t *testing.T, dir string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(9, 9))
	sample := func(m int, suffix string) {
		// X has the dataset folder's 10 features, so that the sources
		// trained on DIR score it (fit and predict --sources).
		X, H := mat.NewDense(m, 10, nil), mat.NewDense(m, 12, nil)
		var y, species strings.Builder
		for i := 0; i < m; i++ {
			for j := 0; j < 10; j++ {
				X.Set(i, j, rng.NormFloat64())
			}
			for j := 0; j < 12; j++ {
				H.Set(i, j, rng.NormFloat64())
			}
			label := "-1"
			if H.At(i, 2)+0.5*X.At(i, 0)+0.3*rng.NormFloat64() > 0 {
				label = "1"
			}
			y.WriteString(label + "\n")
			k := 0
			for j := 1; j < 3; j++ {
				if H.At(i, j) > H.At(i, k) {
					k = j
				}
			}
			species.WriteString([]string{"cat", "dog", "owl"}[k] + "\n")
		}
		speciesName := "species.txt"
		if suffix != "" {
			speciesName = "species-" + suffix + ".txt"
		}
		writeText(t, dir, speciesName, species.String())
		writeNPY(t, dir, "X"+suffix+".npy", X)
		writeNPY(t, dir, "H"+suffix+".npy", H)
		writeText(t, dir, "y"+suffix+".txt", y.String())
	}
	sample(20, "")
	sample(100, "test")
	// Five classes: a negative pool of one (a fifth) and four targets,
	// the least that keeps the experiment's grid more than one target
	// wide; ten classes made the README's experiment (--splits 10) twice
	// as long, and its report.
	folder := datasettest.WriteFolder(t, datasettest.Blobs(3, 5, 130, 10, 3))
	if err := os.Symlink(folder.Dir, filepath.Join(dir, "DIR")); err != nil {
		t.Fatal(err)
	}
}

// shortSplits returns an experiment's arguments with one split a setting
// (--splits 1) instead of the README's ten: -short's run of the same
// commands, a tenth of the fits.
func shortSplits(args []string) []string {
	out := slices.Clone(args)
	for i := 0; i+1 < len(out); i++ {
		if out[i] == "--splits" {
			out[i+1] = "1"
		}
	}
	return out
}

// TestREADMECommands runs every command of README.md's sh code blocks, as
// written, in a directory holding small data of the names the README
// uses: a README change that breaks a command fails this test.
// "greedytl ARGS" and "go run ./cmd/greedytl ARGS" run the command in this
// process, in order; "go test ./..." is the command running this test, so
// it is counted as run. The demo, which needs no file of the others' and
// writes none they read (greedytl-demo/), runs as its own process, the
// command built once (buildGreedytl, as go run builds it), beside them,
// and must exit 0 having written its report: it is most of the test's time
// (50–95 s of CPU), which the others (about 10 s) no longer add to. With
// -short the demo is skipped, and the experiment runs one split instead
// of ten.
func TestREADMECommands(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) < 5 {
		t.Fatalf("found %d commands in README.md: the extraction is broken", len(cmds))
	}
	dir := t.TempDir()
	readmeData(t, dir)
	var bin string // the command the demo runs, built in the package's directory
	if !testing.Short() {
		bin = buildGreedytl(t)
	}
	t.Chdir(dir)
	for _, err := range readmeDemoProblems(cmds) {
		t.Error(err)
	}
	var demo func() // waits for the demo and checks it; nil: not started
	ran := 0
	for _, c := range cmds {
		if c.demoClash {
			continue // readmeDemoProblems said so
		}
		args := c.args
		switch {
		case len(args) >= 2 && args[0] == "go" && args[1] == "test":
			continue
		case len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/greedytl":
			args = args[3:]
		case args[0] == "greedytl":
			args = args[1:]
		default:
			t.Errorf("README.md:%d: %q: the test does not know how to run %q", c.line, c.text, args[0])
			continue
		}
		if len(args) > 0 && args[0] == "demo" {
			if testing.Short() {
				t.Logf("README.md:%d: %q skipped with -short (about a minute)", c.line, c.text)
				continue
			}
			demo = startREADMEDemo(t, bin, dir, c, args)
			ran++
			continue
		}
		if len(args) > 0 && args[0] == "experiment" && testing.Short() {
			args = shortSplits(args)
			t.Logf("README.md:%d: %q run with %v under -short", c.line, c.text, args)
		}
		code, stdout, stderr := cli(t, "", args...)
		if code != 0 {
			t.Errorf("README.md:%d: %q: exit %d:\n%s", c.line, c.text, code, stderr)
			continue
		}
		if c.stdout != "" {
			if err := os.WriteFile(c.stdout, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ran++
	}
	if demo != nil {
		demo()
	}
	t.Logf("ran %d README commands", ran)
}

// startREADMEDemo starts the README's demo command c (args without the
// program) in dir as a process of its own, bin (the command built once), and
// returns the function that waits for it and fails the test unless it
// exited 0 and wrote its report where the README says
// (greedytl-demo/report/report.html). The process is killed if the test
// ends before it is waited for.
func startREADMEDemo(t *testing.T, bin, dir string, c readmeCommand, args []string) func() {
	t.Helper()
	if c.stdout != "" {
		t.Fatalf("README.md:%d: %q: the demo's output is not kept", c.line, c.text)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waited := false
	t.Cleanup(func() {
		if !waited {
			cmd.Process.Kill()
			<-done
		}
	})
	return func() {
		t.Helper()
		err := <-done
		waited = true
		if err != nil {
			t.Errorf("README.md:%d: %q: %v:\n%s", c.line, c.text, err, out.String())
			return
		}
		if _, err := os.Stat(filepath.Join(dir, "greedytl-demo", "report", "report.html")); err != nil {
			t.Errorf("README.md:%d: %q: no report: %v\n%s", c.line, c.text, err, out.String())
		}
	}
}

// TestREADMEListsEveryCommand: the README's table of commands names every
// command "greedytl help" lists (it lacked synth and version).
func TestREADMEListsEveryCommand(t *testing.T) {
	listed := map[string]bool{}
	for _, name := range readmeTableNames(t, "| command | what |") {
		listed[name] = true
	}
	for _, c := range newRootCmd(&streams{}).Commands() {
		if c.Name() == "help" || c.Name() == "completion" || c.Hidden {
			continue
		}
		if !listed[c.Name()] {
			t.Errorf("README.md's table of commands does not list %s", c.Name())
		}
	}
}

// TestREADMELayoutListsEveryPackage: the README's layout table names every
// top-level directory that holds Go packages (it lacked sparse/ and
// modelfile/), and names none that does not exist.
func TestREADMELayoutListsEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	listed := map[string]bool{}
	for _, name := range readmeTableNames(t, "| package | what |") {
		if dir, ok := strings.CutSuffix(name, "/"); ok {
			listed[strings.SplitN(dir, "/", 2)[0]] = true
		}
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || name == "docs" || name == "testdata" {
			continue
		}
		goFiles, _ := filepath.Glob(filepath.Join(root, name, "*.go"))
		sub, _ := filepath.Glob(filepath.Join(root, name, "*", "*.go"))
		if len(goFiles)+len(sub) > 0 && !listed[name] {
			t.Errorf("README.md's layout table does not list %s/", name)
		}
		delete(listed, name)
	}
	delete(listed, "python")
	for name := range listed {
		t.Errorf("README.md's layout table lists %s/, which is not a directory of the repository", name)
	}
}

// readmeTableNames returns the names in the first column of README.md's
// table under the header row header: each cell split at commas, without
// blanks and backquotes.
func readmeTableNames(t *testing.T, header string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), header)
	if !ok {
		t.Fatalf("README.md has no table %s", header)
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var names []string
	for _, row := range strings.Split(table, "\n") {
		first, _, _ := strings.Cut(strings.TrimPrefix(row, "|"), "|")
		for _, name := range strings.Split(first, ",") {
			names = append(names, strings.Trim(strings.TrimSpace(name), "`"))
		}
	}
	return names
}

// TestREADMEDemoProblems: of README commands, a second demo (its waiter
// replaced the first's, which went unchecked) and any other command naming
// greedytl-demo (run beside the demo as it writes there) are refused, each
// at its line, and marked to be skipped; the first demo and the other
// commands are not.
func TestREADMEDemoProblems(t *testing.T) {
	cmd := func(line int, text string) readmeCommand {
		return readmeCommand{line: line, text: text, args: strings.Fields(text)}
	}
	cmds := []readmeCommand{
		cmd(1, "go run ./cmd/greedytl demo"),
		cmd(2, "greedytl fit --features X.npy --labels y.txt --out m.json"),
		cmd(3, "greedytl demo --seed 2"),
		cmd(4, "greedytl report greedytl-demo/results.jsonl"),
	}
	errs := readmeDemoProblems(cmds)
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "README.md:3:") || !strings.Contains(errs[0].Error(), "second demo") ||
		!strings.Contains(errs[1].Error(), "README.md:4:") || !strings.Contains(errs[1].Error(), "greedytl-demo") {
		t.Errorf("errors %v; want line 3's second demo and line 4's greedytl-demo", errs)
	}
	for i, want := range []bool{false, false, true, true} {
		if cmds[i].demoClash != want {
			t.Errorf("README.md:%d: marked %v, want %v", cmds[i].line, cmds[i].demoClash, want)
		}
	}
}
