package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/buildinfo"
)

// Exit codes, documented in "greedytl help".
const (
	exitOK      = 0 // success
	exitFailure = 1 // the work failed for a reason other than the input (a write failed, ...)
	exitInput   = 2 // bad usage or bad input: flags, files, data
	// exitSignal + n: stopped by signal n (130: SIGINT, 143: SIGTERM,
	// 129: SIGHUP), the shell's status for a process killed by it; the
	// finished work is kept.
	exitSignal = 128
)

// stopSignals are the signals that stop a command cleanly: Ctrl-C, the
// SIGTERM with which schedulers (Slurm, Kubernetes) stop or preempt jobs,
// and the SIGHUP of a terminal closed under the command (whose default
// action would kill it, leaving the temporary files of its outputs). One
// the process inherited ignored stays ignored (signalContext): a shell
// script's background commands ignore SIGINT, so that Ctrl-C on the
// script spares them, as it spares every other program; nohup ignores
// SIGHUP, so that the command outlives its terminal.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// stoppedBy is the cause of the command's context when a stop signal
// arrived. It matches context.Canceled (errors.Is), so that the commands
// handle it as any cancellation.
type stoppedBy struct{ sig syscall.Signal }

func (e stoppedBy) Error() string {
	name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}[e.sig]
	return "stopped by " + name
}

func (e stoppedBy) Unwrap() error { return context.Canceled }

// signalContext returns a context cancelled, with cause stoppedBy, by the
// first stop signal once the command heeds it (from heedSignals on). A
// second one ends the process at once, with status 128 + n, after removing
// the temporary files of the outputs being written
// (atomicfile.RemoveTemporary): an output is whole or absent, never a
// temporary file left beside it; and so does the first while the context
// is not heeded, saying so on stderr, and while the command waits on an
// input (waitOnInput), printing the command's interruption as execute
// prints a command's error. It is the one place where a stop signal acts:
// the command's phase it reads is the signalState in the context. stop
// releases the signals.
func signalContext(stderr io.Writer) (ctx context.Context, stop func()) {
	st := &signalState{}
	ctx, cancel := context.WithCancelCause(context.WithValue(context.Background(), signalStateKey{}, st))
	ch := make(chan os.Signal, 2) // both signals, however quickly they come
	// signal.Notify would turn an inherited "ignore" back on; and given no
	// signal at all, it would relay every signal.
	if sigs := slices.DeleteFunc(slices.Clone(stopSignals), signal.Ignored); len(sigs) > 0 {
		signal.Notify(ch, sigs...)
	}
	done := make(chan struct{})
	go func() {
		stopped := false
		for {
			select {
			case sig := <-ch:
				s, _ := sig.(syscall.Signal)
				st.mu.Lock() // held to the end: the command takes up nothing more
				switch {
				case stopped:
					exitStopped(stderr, nil, s)
				case st.waiting != nil:
					// Cancelled first, so that the interruption
					// is printed as execute prints the command's.
					cancel(stoppedBy{s})
					exitStopped(stderr, printedError(ctx, st.waiting(ctx.Err())), s)
				case !st.heeded:
					exitStopped(stderr, stoppedBy{s}, s)
				}
				stopped = true
				cancel(stoppedBy{s})
				st.mu.Unlock()
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// exitStopped ends the process as the stop signal sig does: the
// temporary files of the outputs being written removed
// (atomicfile.RemoveTemporary), said (when not nil) on stderr, status
// 128 + n.
func exitStopped(stderr io.Writer, said error, sig syscall.Signal) {
	atomicfile.RemoveTemporary()
	if said != nil {
		diagf(stderr, "%v", said)
	}
	os.Exit(exitSignal + int(sig))
}

// signalState is what signalContext's handler of the stop signals reads
// of the command's phase, kept in the context it returns: not heeding its
// signals (the first ends the process at once), heeding them (the first
// cancels the context: heedSignals), or waiting on an input (the first
// ends the process at once, saying what it interrupted: waitOnInput).
type signalState struct {
	mu     sync.Mutex // held to change the phase, and by the handler from a signal to the process's end
	heeded bool       // the first stop signal cancels the context (heedSignals)
	// waiting, while the command waits on an input (waitOnInput),
	// returns the error of its interruption, given the context's error.
	waiting func(error) error
}

// signalStateOf returns the signalState of ctx (signalContext's), or nil.
func signalStateOf(ctx context.Context) *signalState {
	st, _ := ctx.Value(signalStateKey{}).(*signalState)
	return st
}

// signalStateKey is the context key of the signalState.
type signalStateKey struct{}

// heedSignals marks the command of ctx (signalContext's) as heeding its
// context from here on: the first stop signal cancels it, and the command
// stops taking work, keeps what it finished and exits with status 128 + n.
// Until then the first signal ends the process at once, with status
// 128 + n: so it does for the commands that never call it (inspect,
// report, merge, help …), which have no finished work to keep and never
// look at their context, and for the others while they read their
// inputs, which keeps nothing and which the readers (package dataset's)
// do not stop for the context (Ctrl-C during the loading of a large data
// set took effect only once it was read). Each command whose work heeds
// its context calls it where its inputs are read (fit, train,
// train-sources, experiment, demo), where it starts scoring (predict,
// which stops between blocks of rows: scoreInBlocks; a long predict
// stopped by Ctrl-C used to finish and exit 0, as if no signal had come;
// reading a stream it heeds them from its first block, and a stop while
// it waits for the next block ends it at once: waitOnInput)
// or at its start (bench, synth). Without signalContext's context, it
// does nothing.
func heedSignals(ctx context.Context) {
	if st := signalStateOf(ctx); st != nil {
		st.mu.Lock()
		st.heeded = true
		st.mu.Unlock()
	}
}

// waitOnInput marks the command of ctx (signalContext's) as waiting on an
// input, until doneWaiting: a stream's next block, which its writer may
// never send, or a file read once the command heeds its signals (predict's
// --labels, read after the rows are scored). A stop signal in that time
// ends the process at once, as one does before heedSignals, with status
// 128 + n, the outputs' temporary files removed and nothing more written,
// printing interrupted(the context's error) as execute prints a command's
// error ("stopped by SIGINT: predicting with …: interrupted"): a command
// heeding its signals acted on a stop between its pieces of work only, so
// that predict, waiting on a stalled stream, never stopped. It returns the
// context's error, marking nothing, when the context is done already (the
// stop is then the command's to act on). Without signalContext's context,
// it marks nothing.
func waitOnInput(ctx context.Context, interrupted func(error) error) error {
	st := signalStateOf(ctx)
	if st == nil {
		return ctx.Err()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	st.waiting = interrupted
	return nil
}

// doneWaiting ends waitOnInput's wait: the input came, or ended. It waits
// while a stop signal ends the process, so that the command writes
// nothing more. Without a wait, it does nothing.
func doneWaiting(ctx context.Context) {
	if st := signalStateOf(ctx); st != nil {
		st.mu.Lock()
		st.waiting = nil
		st.mu.Unlock()
	}
}

// inputError marks an error caused by the user's flags, arguments or files:
// it maps to exit status 2 (exitCode). Every other error of a command is
// a failure of the work, status 1: the status follows the error's type,
// never its text.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// badInput wraps err (if not nil) as an input error.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return inputError{err}
}

// badInputf formats an input error.
func badInputf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// usage marks an error of cobra's (an unknown command or flag, a missing
// argument or required flag) as an input error, pointing to the command's
// help.
func usage(c *cobra.Command, err error) error {
	return badInputf("%w (see '%s --help')", err, c.CommandPath())
}

// exitCode returns the exit status of a command that failed with err (not
// stopped by a signal): exitInput for an input error (see inputError),
// exitFailure otherwise.
func exitCode(err error) int {
	if errors.As(err, new(inputError)) {
		return exitInput
	}
	return exitFailure
}

// streams are the command's standard input, output and error, injected so
// that commands are testable, and the warnings it printed.
type streams struct {
	in       io.Reader
	out, err io.Writer
	warnings []warning // printed by warn, for a --json report
}

// stdin returns the command's standard input (s.in: what run is given, and
// the tests give it in-process) when path is stdinName, else false. It is
// where every input's "-" becomes a stream: each reader of an input asks it
// before reading path as a file, and never hands "-" to a reader of paths
// (the dataset package's read the process's os.Stdin for it).
func (s *streams) stdin(path string) (io.Reader, bool) {
	if path != stdinName {
		return nil, false
	}
	return s.in, true
}

// isStdout reports whether the --out value out means the command's
// standard output: "" or stdoutName, or another name of the file that
// standard output is, when that is a regular file or a pipe (/dev/stdout,
// /dev/fd/1, the file of the shell's "> file"). A command writes such an
// output through its standard output, as for "-", and sends what it
// prints beside it (predict's evaluation, train -C's lines) to standard
// error, or refuses to mix them (fit --json): --out /dev/stdout put them
// in the one stream, which no reader of the output could parse. A device
// (a terminal, /dev/null) is not told apart: no program reads it back.
func (s *streams) isStdout(out string) bool {
	if out == "" || out == stdoutName {
		return true
	}
	w := s.out
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fo, err := f.Stat()
	if err != nil || fo.Mode()&os.ModeDevice != 0 {
		return false
	}
	fi, err := os.Stat(out)
	return err == nil && os.SameFile(fo, fi)
}

// warning is a warning of a command that succeeds: what may be wrong with
// the result (fit: a model predicting one class for most rows).
type warning struct {
	// Code names the kind of warning, for programs: a word that stays
	// when the message is reworded.
	Code string `json:"code"`
	// Message is the warning as printed, without "greedytl: warning: ".
	Message string `json:"message"`
	// Classes are the classes the warning is about, every one its message
	// names, as the labels name them, for a program that names the
	// classes otherwise.
	Classes []string `json:"classes,omitempty"`
	// Columns are the columns the warning is about ("kind", "index"), for
	// a program that names the columns otherwise (wide-range's).
	Columns []greedytl.Column `json:"columns,omitempty"`
}

// warn prints the warning w on standard error, "greedytl: warning: " and
// its message (diagf), and keeps it for the command's --json report (fit --json's
// "warnings"). It is the one route of the commands' warnings, so that a
// program driving greedytl (the Python package) receives every one
// without reading standard error, whose other lines are for people.
func (s *streams) warn(w warning) {
	s.warnings = append(s.warnings, w)
	diagf(s.err, "warning: %s", w.Message)
}

// note prints a note on standard error, "greedytl: note: " and the
// message (diagf): what a person may want to know of a command that
// succeeds, which asks nothing of the result (a warning's) — predict's
// columns read as features the training data never had, synth's
// temporary folders left by a killed run.
func (s *streams) note(format string, a ...any) { diagf(s.err, "note: "+format, a...) }

// diagf prints a diagnostic line on w (standard error): "greedytl: " and
// the message formatted as fmt.Printf formats it. Every error, warning
// and note the command prints begins so, and no other line: progress,
// logs and summaries are plain.
func diagf(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "greedytl: "+format+"\n", a...)
}

// printJSON writes v to w as the commands' --json outputs are written:
// indented JSON and a newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// isTerminal reports whether w is a terminal (progress bars are drawn only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// barFits reports whether the line of a progress bar described by what,
// counting to total, fits on the terminal w (true when its width is
// unknown): the bar itself shrinks to fit (progressbar's own rule), but
// the description, the percentage, the count and the times do not, and on
// a narrower terminal (COLUMNS=20) the line wraps, so that every redraw,
// which goes back to the start of the last line only, leaves a line
// behind: a screen of stale lines instead of one bar.
func barFits(w io.Writer, what string, total int) bool {
	f, ok := w.(*os.File)
	if !ok {
		return true
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		return true
	}
	// "what 100% || (total/total) [elapsed:left]", each time allowed 8
	// characters ("59m59s", "10h0m0s").
	line := len([]rune(what)) + len(" 100% || ") + len(fmt.Sprintf("(%d/%d)", total, total)) + len(" [12345678:12345678]")
	return line < width
}

// run executes the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := execute(newRootCmd(&streams{in: stdin, out: out, err: stderr}), args, stdin, out, stderr)
	if code == exitOK && out.err != nil {
		diagf(stderr, "writing standard output: %v", out.err)
		return exitFailure
	}
	return code
}

// checkedWriter is a command's standard output: it keeps the first write
// error, so that a command whose output was lost (a full disk, a
// descriptor that refuses writes) fails even where it printed without
// looking at the error — help, train -v's accuracy, merge's count of
// missing cells — instead of exiting 0. (A closed pipe is SIGPIPE's, as
// before: the write kills the process.) A standard output closed when the
// command starts (greedytl … >&-) is no error it sees: Go's runtime opens
// /dev/null on a closed descriptor 0, 1 or 2 before main runs (Go 1.22,
// runtime.checkfds), so the output is discarded as with >/dev/null, which
// nothing tells apart (its one difference, a read-write descriptor, is
// Python's subprocess.DEVNULL's too).
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// execute runs root, a command tree of newRootCmd, on the command line args
// and returns the exit status: it reports a failure on stderr as
// "greedytl: " and the error's message, and chooses the status by the
// error's type (exitCode) or the signal that stopped it.
func execute(root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The command line whose liblinear-style weights (-w1 2) are
	// rewritten: for a completion request, the words after __complete but
	// the last, the word being completed, left as typed.
	start, line := 0, args
	completing := isCompletionRequest(args)
	if completing {
		registerCompletions(root)
		start, line = 1, args[1:max(1, len(args)-1)]
	}
	c, _, err := root.Find(line)
	found := err == nil && c != root
	ctx, stop := signalContext(stderr) // until the command heeds it (heedSignals)
	defer stop()
	if found && c.Name() == "train" {
		args = slices.Concat(args[:start], liblinearWeightArgs(line, c.Flags(), completing), args[start+len(line):])
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err = root.ExecuteContext(ctx)
	var sig stoppedBy
	if err == nil {
		// A stop signal that came as the work finished — while a model
		// or a report was written, which a command that heeds its signals
		// (heedSignals) lets finish —
		// still says the command was stopped: not 0, as if none had come.
		if errors.As(context.Cause(ctx), &sig) {
			diagf(stderr, "%v as the work finished: its outputs are written, whole", sig)
			return exitSignal + int(sig.sig)
		}
		return exitOK
	}
	diagf(stderr, "%v", printedError(ctx, err))
	if errors.As(context.Cause(ctx), &sig) && errors.Is(err, context.Canceled) {
		return exitSignal + int(sig.sig)
	}
	return exitCode(err)
}

// printedError returns the error err of a command run under ctx
// (signalContext's) as execute prints it, after "greedytl: ": err, or,
// when a stop signal cancelled ctx and err is that cancellation, err after
// the signal, without the context's own words at its end, which say
// nothing the signal does not ("stopped by SIGINT: method: ... fit
// interrupted", not "... fit interrupted: context canceled"), unless err
// names the signal already. The error still is err and the signal
// (errors.Is, errors.As). The one form of a command's error, for what
// repeats it elsewhere (fit --json's report).
func printedError(ctx context.Context, err error) error {
	var sig stoppedBy
	if errors.As(context.Cause(ctx), &sig) && errors.Is(err, context.Canceled) && !errors.As(err, new(stoppedBy)) {
		msg := err.Error()
		for _, tail := range []error{context.Canceled, context.DeadlineExceeded} {
			msg = strings.TrimSuffix(msg, tail.Error())
		}
		msg = strings.TrimSuffix(msg, ": ")
		if msg == "" {
			return sig
		}
		return signalError{sig: sig, err: err, msg: sig.Error() + ": " + msg}
	}
	return err
}

// signalError is the error of a command stopped by a signal, as
// printedError words it: msg, wrapping the signal and the command's error.
type signalError struct {
	sig stoppedBy
	err error
	msg string
}

func (e signalError) Error() string   { return e.msg }
func (e signalError) Unwrap() []error { return []error{e.sig, e.err} }

func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "greedytl",
		Short: "Greedy hypothesis transfer learning at scale",
		Long: `greedytl learns a classifier for a new target class from a handful of labelled
examples by selecting, greedily and with L2 regularisation, the few source
classifiers and feature dimensions that help (GreedyTL; its randomised variant
GreedyTL-59 scores 59 random candidates a step).

Inputs: features X (m×d) and source scores H (m×n) as NumPy .npy or CSV/TSV
(train reads LIBSVM/svmlight), labels as .npy (numbers or strings) or a text/CSV file, one
per example: two classes ({-1,+1}, {0,1}, or any two values with --positive)
or three or more, names or numbers, fitted as one model.

Exit status: 0 on success, 2 on bad usage or bad input (the message names the
file and the problem), 1 when the work failed otherwise (a write failed), and
128+n when stopped by signal n: 130 for SIGINT (Ctrl-C), 143 for SIGTERM (how
Slurm and Kubernetes stop or preempt a job), 129 for SIGHUP (its terminal
closed). A stopped command stops taking work, keeps what it finished
(experiment: every finished cell; train-sources: every finished source), says
so, and exits: run the same command again to resume. A second signal ends it
at once, removing the temporary files of the outputs it was writing; so does
the first for inspect, report and merge, which have no finished work to keep,
for predict while it reads its inputs (it stops between blocks of rows,
writing nothing to --out), and for fit, train and train-sources while they
read their inputs (experiment and demo: while they read the dataset folder). A signal that comes
as the work finishes (a model or a report being written) lets it finish, and
the status is 128+n all the same. A signal the command inherits ignored stays
ignored: a shell script's background commands ignore SIGINT, so Ctrl-C on the
script spares them; under nohup, which ignores SIGHUP, the command outlives
its terminal.

A string flag (a path, a name, a method) given an empty value ("") is a usage
error, never read as absent, so that an unset variable in a script
(--sources "$SRC") is caught.

Environment: GOMAXPROCS bounds the threads of greedytl's own work (by
default the CPUs it may run on: its CPU affinity and, in a container, its
CPU limit); --workers defaults to it. GREEDYTL_PARENT_PID=PID, which the
Python package sets, stops greedytl as SIGTERM does when process PID ends,
however it ends (Linux: PID may be its parent, whose thread that started
greedytl ending counts as its end, or a further ancestor when a wrapper runs
greedytl as a child; a PID that is neither, or ancestors that cannot be read
from /proc, stop it at once with status 143; elsewhere the value is checked
and otherwise ignored).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// --version prints greedytl version's line: the executable's digest
	// too for a build that no commit identifies. The flag is the root's
	// own, not cobra's (Version), which printed the line before the
	// arguments were checked: "greedytl --version extra" ignored "extra".
	showVersion := root.Flags().BoolP("version", "v", false, "version for greedytl")
	root.SetFlagErrorFunc(usage)
	// An unknown command is an argument of the root command, which shows
	// the help when it has none: with Args set, cobra leaves the check to
	// it instead of returning an untyped error of its own.
	root.Args = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		if *showVersion {
			return usage(c, fmt.Errorf("--version takes no argument, and was given %q", args[0]))
		}
		if sub, _, err := c.Find(args[:1]); err == nil && sub != c {
			// "greedytl -- fit": "--" made the command an argument,
			// which was "unknown", with "did you mean "fit"?".
			return usage(c, fmt.Errorf("%q follows \"--\", which makes it an argument: give the command before any \"--\"", args[0]))
		}
		err := fmt.Errorf("unknown command %q for %q", args[0], c.CommandPath())
		if sugg := c.SuggestionsFor(args[0]); len(sugg) > 0 {
			err = fmt.Errorf("%w; did you mean %q?", err, sugg[0])
		}
		return usage(c, err)
	}
	root.RunE = func(c *cobra.Command, _ []string) error {
		if *showVersion {
			_, err := fmt.Fprintln(c.OutOrStdout(), buildinfo.ReadIdentified())
			return err
		}
		return c.Help()
	}
	root.SuggestionsMinimumDistance = 2
	// cobra checks the required flags after the pre-run hooks, with an error
	// of its own: they are checked here first, as usage errors.
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		if err := c.ValidateRequiredFlags(); err != nil {
			return usage(c, err)
		}
		return emptyStringFlag(c)
	}
	root.AddCommand(newDemoCmd(s), newFitCmd(s), newPredictCmd(s), newInspectCmd(s), newBenchCmd(s), newTrainCmd(s), newTrainSourcesCmd(s), newExperimentCmd(s), newMergeCmd(s), newReportCmd(s), newSynthCmd(s), newVersionCmd(s))
	// cobra's completion command, added here rather than when the command
	// line runs so that its arguments are checked as the others': it was
	// not runnable, so that "completion SHELL" of an unknown SHELL showed
	// its help with status 0, and its shells' extra arguments exited 1.
	// It writes to the root's output as set when it is made.
	root.SetOut(s.out)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Args == nil && c.ValidArgsFunction == nil {
			// No argument (wrapArgs): a shell completes none, where it
			// offered the files of the directory.
			c.ValidArgsFunction = cobra.NoFileCompletions
		}
		c.Args = wrapArgs(c.Args)
		for _, sub := range c.Commands() {
			if c.Name() == "completion" {
				// cobra's shells (bash, zsh, …) take no argument
				// (cobra.NoArgs): refused as every command's without
				// (noArgs).
				sub.Args = nil
			}
			sub.Args = wrapArgs(sub.Args)
		}
		if !c.Runnable() {
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
	}
	// "greedytl help TOPIC" for a TOPIC that is no command is a usage error:
	// cobra's help command finds the root for it (the root takes arguments,
	// above) and showed the root's help with status 0.
	root.InitDefaultHelpCmd()
	if h, _, err := root.Find([]string{"help"}); err == nil && h != root {
		h.Args = func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err == nil && len(rest) == 0 {
				return nil
			}
			if cmd == nil || len(rest) == 0 {
				cmd, rest = c.Root(), args
			}
			e := fmt.Errorf("no help topic: %q has no command %q", cmd.CommandPath(), rest[0])
			if sugg := cmd.SuggestionsFor(rest[0]); len(sugg) > 0 {
				e = fmt.Errorf("%w; did you mean %q?", e, sugg[0])
			}
			return usage(c.Root(), e)
		}
	}
	return root
}

// emptyStringFlag returns a usage error when a string flag of c was given
// an empty value (--sources "$SOURCES" in a script, the variable unset):
// no string flag means anything by "" but its absence, which the flag
// left out says. They were read as left out, without a word: fit
// --sources "" or --source-scores "" fitted without the sources, predict
// --labels "" evaluated nothing, experiment --sources "" trained its own,
// --shard "" in each task of an array job ran every shard, report and
// merge --out "" wrote nothing.
func emptyStringFlag(c *cobra.Command) error {
	var err error
	c.Flags().Visit(func(f *pflag.Flag) {
		if err == nil && f.Value.Type() == "string" && f.Value.String() == "" {
			err = usage(c, fmt.Errorf("--%s is empty: give a value, or leave the flag out", f.Name))
		}
	})
	return err
}

// wrapArgs turns cobra's positional-argument errors into usage errors, and
// refuses an empty argument; a command without a validator takes no
// argument (noArgs).
func wrapArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	if v == nil {
		v = noArgs
	}
	return func(c *cobra.Command, args []string) error {
		if err := v(c, args); err != nil {
			return usage(c, err)
		}
		// Every argument names a file, a directory or a word: an empty
		// one ("$RUN" in a script, the variable unset) was opened, and
		// said ": no such file or directory".
		if i := slices.Index(args, ""); i >= 0 {
			return usage(c, fmt.Errorf("argument %d is empty: give a path (was a variable unset?)", i+1))
		}
		return nil
	}
}

// noArgs refuses the arguments of a command that takes none, naming them:
// "greedytl fit takes no argument, and was given "extra"". cobra.NoArgs
// called a leaf command's stray argument an unknown command of it
// (`unknown command "extra" for "greedytl fit"`), where the commands
// that take arguments say what they take (argCount). Only leaf commands
// get it (wrapArgs): cobra's completion command, the one with
// subcommands, keeps cobra.NoArgs, which calls its argument an unknown
// command (a shell it does not know).
func noArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return fmt.Errorf("%s takes no argument, and was given %s", c.CommandPath(), strings.Join(quoteAll(args), ", "))
}

// argCount returns the validator of a command that takes from least to
// most arguments (most < 0: any number from least), which what names
// ("the model file"): a count outside says, as noArgs does, what the
// command takes and what it was given, naming every argument — "greedytl
// inspect takes one argument, the model file, and was given 2: "a", "b"" —
// where cobra's said "accepts 1 arg(s), received 2".
func argCount(least, most int, what string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		n := len(args)
		if n >= least && (most < 0 || n <= most) {
			return nil
		}
		var takes string
		switch {
		case least == most:
			takes = countWord(least)
		case most < 0:
			takes = countWord(least) + " or more"
		case least == 0:
			takes = "at most " + countWord(most)
		default:
			takes = fmt.Sprintf("from %s to %s", countWord(least), countWord(most))
		}
		noun := "arguments"
		if takes == "one" || takes == "at most one" {
			noun = "argument"
		}
		given := "none"
		if n > 0 {
			given = fmt.Sprintf("%d: %s", n, strings.Join(quoteAll(args), ", "))
		}
		return fmt.Errorf("%s takes %s %s, %s, and was given %s", c.CommandPath(), takes, noun, what, given)
	}
}

// countWord spells a small count of arguments as a word ("one", "two").
func countWord(n int) string {
	if n >= 0 && n < 4 {
		return [...]string{"no", "one", "two", "three"}[n]
	}
	return strconv.Itoa(n)
}
