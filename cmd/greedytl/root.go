package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/buildinfo"
)

// Exit codes, documented in "greedytl help".
const (
	exitOK      = 0 // success
	exitFailure = 1 // the work failed for a reason other than the input (a write failed, ...)
	exitInput   = 2 // bad usage or bad input: flags, files, data
	// exitSignal + n: stopped by signal n (130: SIGINT, 143: SIGTERM),
	// the shell's status for a process killed by it; the finished work
	// is kept.
	exitSignal = 128
)

// stopSignals are the signals that stop a command cleanly: Ctrl-C, and
// the SIGTERM with which schedulers (Slurm, Kubernetes) stop or preempt
// jobs.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// stoppedBy is the cause of the command's context when a stop signal
// arrived. It matches context.Canceled (errors.Is), so that the commands
// handle it as any cancellation.
type stoppedBy struct{ sig syscall.Signal }

func (e stoppedBy) Error() string {
	name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[e.sig]
	return "stopped by " + name
}

func (e stoppedBy) Unwrap() error { return context.Canceled }

// signalContext returns a context cancelled, with cause stoppedBy, by the
// first stop signal. A second one ends the process at once, with status
// 128 + n, after removing the temporary files of the outputs being written
// (atomicfile.RemoveTemporary): an output is whole or absent, never a
// temporary file left beside it. stop releases the signals.
func signalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 2) // both signals, however quickly they come
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		stopped := false
		for {
			select {
			case sig := <-ch:
				s, _ := sig.(syscall.Signal)
				if !stopped {
					stopped = true
					cancel(stoppedBy{s})
					continue
				}
				atomicfile.RemoveTemporary()
				os.Exit(exitSignal + int(s))
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

// inputError marks an error caused by the user's flags or files: it maps to
// exit status 2.
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

// streams are the command's standard input, output and error, injected so
// that commands are testable.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// isTerminal reports whether w is a terminal (progress bars are drawn only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// run executes the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signalContext()
	defer stop()
	s := &streams{in: stdin, out: stdout, err: stderr}
	root := newRootCmd(s)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var sig stoppedBy
	if errors.As(context.Cause(ctx), &sig) && errors.Is(err, context.Canceled) {
		if !errors.As(err, new(stoppedBy)) {
			err = fmt.Errorf("%w: %w", sig, err)
		}
		fmt.Fprintln(stderr, "greedytl:", tidyMessage(err.Error()))
		return exitSignal + int(sig.sig)
	}
	fmt.Fprintln(stderr, "greedytl:", tidyMessage(err.Error()))
	var ie inputError
	switch {
	case errors.As(err, &ie):
		return exitInput
	case errors.Is(err, context.Canceled):
		return exitFailure
	case isUsageError(err), strings.HasPrefix(err.Error(), "unknown command"), strings.HasPrefix(err.Error(), "required flag"):
		return exitInput
	}
	return exitFailure
}

// usageError marks flag and argument errors reported by cobra.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func isUsageError(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}

func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "greedytl",
		Short: "Greedy hypothesis transfer learning at scale",
		Long: `greedytl learns a classifier for a new target class from a handful of labelled
examples by selecting, greedily and with L2 regularisation, the few source
classifiers and feature dimensions that help (GreedyTL; its randomised variant
GreedyTL-59 scores 59 random candidates a step).

Inputs: features X (m×d) and source scores H (m×n) as NumPy .npy or CSV, labels
as .npy or a text/CSV file ({-1,+1}, {0,1}, or any two values with --positive).

Exit status: 0 on success, 2 on bad usage or bad input (the message names the
file and the problem), 1 when the work failed otherwise (a write failed), and
128+n when stopped by signal n: 130 for SIGINT (Ctrl-C), 143 for SIGTERM (how
Slurm and Kubernetes stop or preempt a job). A stopped command stops taking
work, keeps what it finished (experiment: every finished cell; train-sources:
every finished source), says so, and exits: run the same command again to
resume. A second signal ends it at once, removing the temporary files of the
outputs it was writing.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildinfo.Read().String(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.AddCommand(newDemoCmd(s), newFitCmd(s), newPredictCmd(s), newInspectCmd(s), newBenchCmd(s), newTrainCmd(s), newTrainSourcesCmd(s), newExperimentCmd(s), newMergeCmd(s), newReportCmd(s), newSynthCmd(s), newVersionCmd(s))
	for _, c := range root.Commands() {
		c.Args = wrapArgs(c.Args)
	}
	return root
}

// wrapArgs turns cobra's positional-argument errors into usage errors.
func wrapArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	if v == nil {
		v = cobra.NoArgs
	}
	return func(c *cobra.Command, args []string) error {
		if err := v(c, args); err != nil {
			return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
		}
		return nil
	}
}

// layerPrefixes are the package prefixes that the library's layers put on
// their errors ("method: ", "greedytl: ", ...): useful to a Go caller, noise
// to a user once the CLI has said which file and which command failed.
var layerPrefixes = map[string]bool{"greedytl": true, "method": true, "linear": true, "source": true, "dataset": true}

// tidyMessage removes from an error message the library's package prefixes
// and any segment that repeats the one before it (a method name added by
// two layers), so that a file or a method is named once: "greedytl:
// method: greedytl: greedytl: column 1 …" becomes "column 1 …".
func tidyMessage(msg string) string {
	segs := strings.Split(msg, ": ")
	out := segs[:0]
	for k, seg := range segs {
		last := k == len(segs)-1
		if !last && (layerPrefixes[seg] || (len(out) > 0 && out[len(out)-1] == seg)) {
			continue
		}
		out = append(out, seg)
	}
	return strings.Join(out, ": ")
}
