// Package report turns the results of "greedytl experiment" runs into the
// paper's tables and figures: a summary of class-balanced accuracy, plots
// (PNG and SVG, drawn with gonum.org/v1/plot) and a Markdown and a
// self-contained HTML report.
//
// Load reads one or more run directories (every results*.jsonl file in them,
// shards and merged files alike, plus run.json for the grid, the class names
// and semantic groups) or JSON Lines files of experiment.Record values,
// through experiment.ReadRuns, the one reader of run directories (tolerant
// of a missing run.json, a partial last line and a cell that failed in one
// run and succeeded in another, which it reports). Runs of one dataset must
// be one run, but for their methods: a method run on its own beside a
// finished run is reported with it. A cell read twice counts once;
// failed cells (a non-empty Error) are counted and reported, never
// averaged. A run missing cells of its grid is reported as partial first,
// with each method's cells present and expected.
//
// Summarize reduces the records to one Row per (dataset, method, positives,
// noise): the mean balanced accuracy over targets and splits and its
// standard error over splits, as the protocol asks (docs/design.md §6 item 4). For
// each split s let m_s be the mean accuracy over that split's targets; with
// S splits the standard error is
//
//	sqrt( Σ_s (m_s − m̄)² / (S − 1) ) / √S,   m̄ = (1/S) Σ_s m_s,
//
// and 0 (reported as such) when S = 1. The Row's Mean is the mean over all
// successful cells, which equals m̄ on a complete grid. A Row counts the
// cells it averages whose fit's solver stopped short (records with
// not_converged: Row.NotConverged, Row.SelectionNotConverged); the tables
// mark its accuracy (NotConvergedMark) and say how many (Row.ConvergenceNote).
// Likewise the cells whose greedytl-auto fit left subsamples' committees out
// of its mean (records with wide_range: Row.WideRange, WideRangeMark,
// Row.WideRangeNote).
//
// The records of an N-way run (experiment.ProtocolNWay) give one Row per
// (dataset, method, ways, shots): the mean accuracy over episodes and its
// standard error over episodes (each episode its own "split"); Write
// renders, for such a dataset, a method × shots table of accuracy per
// number of ways and a figure of accuracy against shots, one panel per
// number of ways, the panels sharing a y range. In every accuracy table,
// bold marks the best entry of each column (the oracle excluded); an entry
// of a single split or episode is not bold beside entries that average
// more.
//
// Write renders, for each dataset, the paper's figures where the run holds
// the data:
//
//   - Fig. 1: accuracy against training positives, one line per method,
//     error bars ± one standard error; a method's line is cut where it
//     has no successful cell of its grid (failed, or missing from a partial
//     run; anywhere it has no record when no run.json gives the grid), and
//     joins across a size its grid does not hold (so do Figs. 2 and 3);
//   - Fig. 2: the noise study, accuracy against appended noise dimensions,
//     one panel per training-set size;
//   - Fig. 3 and Table 1: GreedyTL against GreedyTL-59 (accuracy, a
//     per-target scatter, and fit times);
//   - Figs. 4–7: semantic transferability matrices, the mean absolute
//     source weight of each (source, target) pair over splits for GreedyTL,
//     GreedyTL-59 and RLS (src+feat) at 2 and 10 positives, each panel
//     scaled to its largest weight; classes ordered by semantic group when
//     the run has groups, else by average-linkage clustering (Euclidean) of
//     the targets' weight profiles, sources in the targets' order.
//
// A short example:
//
//	res, err := report.Load("runs/coil100")
//	if err != nil { … }
//	for _, r := range report.Summarize(res.Records) {
//		fmt.Printf("%s %d+10: %.1f ± %.1f\n", r.Method, r.Positives, 100*r.Mean, 100*r.StdErr)
//	}
//	_, err = report.Write("runs/coil100/report", res, report.Options{Markdown: true, HTML: true})
package report
