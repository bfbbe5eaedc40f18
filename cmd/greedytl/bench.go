package main

import (
	"errors"
	"fmt"
	"runtime"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/timing"
)

type benchOptions struct {
	repeats int
	seed    uint64
	scaling bool
	maxN    int
	rows    bool
	maxM    int
	json    bool
}

func newBenchCmd(s *streams) *cobra.Command {
	o := &benchOptions{}
	c := &cobra.Command{
		Use:   "bench [--scaling] [--rows] [--json]",
		Short: "Reproduce the paper's training-time table on this machine",
		Long: `Bench times exact GreedyTL and GreedyTL-59 on random problems shaped like the
cells of the paper's Table "Training time in seconds for transferring to a
single target class": m = 12, 15, 20 training examples (2, 5, 10 positives
and 10 negatives) and N = 1899, 4995, 4492 candidate columns, stopping by
δ = 1e-4 as the paper does. Each cell gives the median and the least of
--repeats fits (wall and CPU seconds, below), beside the paper's mean and
the speed-up.

What is timed: one fit (standardisation included, drawing the random
problem excluded), on the wall clock and on the process's CPU clock (user
and system time of all its threads, as greedytl-auto and greedytl-nway fit
in parallel); the table and --json give the median and the least of each.
The CPU seconds do not count the time a fit waits for a core other
processes hold, so on a shared or loaded machine their ratios are the
sounder ones. The repetitions of --scaling and --rows are interleaved: the
first fit of every cell of a table runs before the second of any, so that
a machine whose speed drifts over minutes moves all cells alike. The
paper's table, whose fits take a millisecond or less, times each cell's
fits one after the other, after one untimed fit: what a process fitting
one model after another sees, as go test -bench measures it (a fit that
follows other cells' fits, its data and buffers gone from the caches, takes
up to half as long again at m = 20).

--scaling adds a run over N = 10³ … 10⁶ candidates at m = 20, 60 steps each
(--max-n caps N; 10⁶ candidates hold about 350 MB, a process of about
450 MB).

--rows adds a run over the number of training examples: m = 200 and 2,000
at N = 1,000 candidates, and m = 200, 2,000 and 20,000 at N = 5,000, 60
steps each (--max-m caps m; m = 20,000, N = 5,000 holds 800 MB of data and
the exact search's float32 block half as much again: a process of about
1.2 GB). A fit costs O(m·N + m·k) a step (k columns
selected), so ten times the rows should cost about ten times the time. At
N = 1,000 it times the default method greedytl-auto too (method
"greedytl-auto", steps: its GreedyTL member's selections), whose ridge
member costs O(m²·N + m³) once at m = 200 and, with N ≤ m, O(500²·N + N³);
on these random scores, whose labels they do not predict, its 22 GreedyTL
fits stop by δ only after many columns (about 120 at m = 200, 670 at
m = 2,000), so that its m = 2,000 cell takes about 14 times the CPU
seconds of its m = 200 cell (2.4–2.5 s against 0.18 s with GOMAXPROCS=1:
three runs of 5 fits a cell on the 2-core development machine, 28 November
2026, under a load average of 6 to 11 from other jobs, which spread the
wall-clock ratio from 15 to 21 times); on real rows, whose members select
fewer columns, it is about 6 times (README, "Which method to use"). It
times the recommended multi-class method greedytl-nway too (method
"greedytl-nway", steps 0): the rows dealt to 20 classes in turn, 800
columns as features and 200 as source scores (C is chosen on at most 20
examples of each class, so that from there on only the final fits grow
with the rows): on the same runs 0.35 s → 2.7 s of CPU on one core on
these random scores (7.6 times; the least of 5 fits 0.33 s → 1.8–1.9 s,
5.5 times), and, the same morning, 0.33–0.36 s → 3.5–3.6 s on the clustered classes of
go test ./method -bench NWay -cpu 1 (about 10.5 times).

With --json it prints an array of rows with "table" ("paper", "scaling" or
"rows"), "dataset" (the paper's row, in its table only), "m", "n", "method"
("exact", "sample59", "greedytl-auto" or "greedytl-nway"), "steps",
"seconds" (median wall-clock seconds), "min_seconds" (the least),
"cpu_seconds" (median CPU seconds of the process, 0 where the system cannot
read them), "min_cpu_seconds" (the least), "repeats" and "paper_seconds" (0
where the paper has no number).`,
		Example: `  greedytl bench
  greedytl bench --scaling --max-n 100000 --json
  greedytl bench --rows --max-m 2000`,
		RunE: func(c *cobra.Command, _ []string) error {
			heedSignals(c.Context()) // it reads no input
			opts := timing.Options{Repeats: o.repeats, Seed: o.seed, MaxN: o.maxN, MaxM: o.maxM}
			var capErr *timing.CapError
			errors.As(opts.CheckCaps(), &capErr)
			switch {
			case o.repeats < 1:
				return badInputf("--repeats %d: want at least 1 fit per cell", o.repeats)
			case capErr != nil && capErr.Negative():
				return capFlagError(capErr)
			case o.maxN != 0 && !o.scaling:
				return badInputf("--max-n caps the table of --scaling: give --scaling")
			case o.maxM != 0 && !o.rows:
				return badInputf("--max-m caps the table of --rows: give --rows")
			// A cap below every size would leave the table asked for
			// empty, after the paper's table was timed.
			case capErr != nil:
				return capFlagError(capErr)
			}
			var bar *progressbar.ProgressBar
			// The tables time at most a few hundred cells: a count of
			// 999 is room enough for barFits.
			if isTerminal(s.err) && !o.json && barFits(s.err, "timing", 999) {
				bar = newBar(s.err, -1, "timing")
				opts.Progress = func(done, total int) {
					bar.ChangeMax(total)
					_ = bar.Set(done)
				}
			}
			rows, err := timing.PaperTable(c.Context(), opts)
			if err != nil {
				return err
			}
			if o.scaling {
				more, err := timing.Scaling(c.Context(), opts)
				if err != nil {
					return err
				}
				rows = append(rows, more...)
			}
			if o.rows {
				more, err := timing.Rows(c.Context(), opts)
				if err != nil {
					return err
				}
				rows = append(rows, more...)
			}
			if bar != nil {
				_ = bar.Finish()
			}
			if o.json {
				return printJSON(s.out, rows)
			}
			return printBench(s, rows)
		},
	}
	fl := c.Flags()
	intVarP(fl, &o.repeats, "repeats", "", 5, "fits per cell (the median and the least are reported)")
	uint64Var(fl, &o.seed, "seed", 1, "seed of the random problems")
	fl.BoolVar(&o.scaling, "scaling", false, "also time N = 10³ … 10⁶ candidates")
	intVarP(fl, &o.maxN, "max-n", "", 0, "with --scaling: skip N above this (0: no cap)")
	fl.BoolVar(&o.rows, "rows", false, "also time m = 200 … 20,000 training examples")
	intVarP(fl, &o.maxM, "max-m", "", 0, "with --rows: skip m above this (0: no cap)")
	fl.BoolVar(&o.json, "json", false, "print JSON rows instead of a table")
	return c
}

// capFlagError returns e, the error of timing.Options.CheckCaps, as the
// input error of the bench flag that set the cap (MaxN: --max-n, of
// --scaling's N candidates; MaxM: --max-m, of --rows' m examples).
func capFlagError(e *timing.CapError) error {
	flag, counts, size, table := "--max-n", "candidates", "N", "--scaling"
	if e.Field == "MaxM" {
		flag, counts, size, table = "--max-m", "examples", "m", "--rows"
	}
	if e.Negative() {
		return badInputf("%s %d: want a number of %s, or 0 for no cap", flag, e.Value, counts)
	}
	return badInputf("%s %d skips every %s of %s, the smallest being %d", flag, e.Value, size, table, e.Smallest)
}

func printBench(s *streams, rows []timing.Row) error {
	// The seconds are wall-clock time, which greedytl-auto's and
	// greedytl-nway's parallel fits shorten with more cores: say how many.
	fmt.Fprintf(s.out, "GreedyTL training time on %s/%s, Go %s, GOMAXPROCS %d (wall-clock seconds and the process's CPU seconds, median and least of repeats; the paper's mean beside it)\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.Version(), runtime.GOMAXPROCS(0))
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\trow\tm\tN\tsteps\tseconds\tleast s\tCPU s\tleast CPU s\tpaper s\tspeed-up\t")
	for _, r := range rows {
		paper, speed := "–", "–"
		if r.PaperSeconds > 0 {
			paper = fmt.Sprintf("%.3f", r.PaperSeconds)
			speed = fmt.Sprintf("%.0f×", r.PaperSeconds/r.Seconds)
		}
		cpu, minCPU := "–", "–" // the system cannot read the CPU time
		if r.CPUSeconds > 0 {
			cpu, minCPU = fmt.Sprintf("%.6f", r.CPUSeconds), fmt.Sprintf("%.6f", r.MinCPUSeconds)
		}
		name := r.Dataset
		if name == "" {
			name = r.Table
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.6f\t%.6f\t%s\t%s\t%s\t%s\t\n", r.Method, name, r.M, r.N, r.Steps, r.Seconds, r.MinSeconds, cpu, minCPU, paper, speed)
	}
	return tw.Flush()
}
