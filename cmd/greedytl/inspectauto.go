package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
)

// inspectTop is how many columns a table of inspect shows when --top is
// not given (the flag's default), but for greedytl-auto's combined model
// (autoTop).
const inspectTop = 30

// autoTop is how many of a greedytl-auto model's largest contributions
// inspect shows when --top is not given: fewer than inspectTop, since the
// combined model is dense (its ridge member weights every column). The
// long help and --top's help say it from here.
const autoTop = 20

// inspectAuto prints, after inspect's header, what the greedytl-auto model
// summarised by sum is made of: each member of the committee fitted on the
// whole sample (the GreedyTL members' selections and paths, the source
// member, the ridge member), how often each column was chosen over the
// fits, and the combined model's largest contributions (sum.Selected, by
// decreasing |weight|). names are the columns' names, if any.
func inspectAuto(s *streams, o *inspectOptions, sum inspectSummary, names sampleNames) error {
	w := s.out
	hp := sum.Hyperparameters
	fits := 1
	if f, ok := hp["fits"]; ok {
		fits = int(f)
	}
	combined := sum.Selected
	total := sum.NumFeatures + sum.NumSources
	fmt.Fprintf(w, "greedytl-auto: the mean of %g members (least-squares fits of the labels), fitted on the whole sample", hp["members"])
	if c := sum.Committee; c != nil && len(c.LeftOut) > 0 {
		fmt.Fprintf(w, " and on %s, %s left out of the mean (%s); averaged over %s",
			plural.Count(c.Subsamples, "subsample", "subsamples"), plural.Count(len(c.LeftOut), "committee", "committees"),
			leftOutColumns(c.LeftOut, names), plural.Count(fits, "fit", "fits"))
	} else if fits > 1 {
		fmt.Fprintf(w, " and on %s, averaged over the %d fits", plural.Count(fits-1, "subsample", "subsamples"), fits)
	}
	fmt.Fprint(w, ".\n\n")
	if c := sum.Committee; c == nil {
		fmt.Fprint(w, "This file was written before greedytl-auto recorded its members: fit again to see them.\n\n")
	} else if err := printCommittee(w, o, sum, c, fits, names); err != nil {
		return err
	}
	top := autoTop
	if o.topSet {
		top = o.top
	}
	fmt.Fprintf(w, "combined model: %d of the %s non-zero weight (dense: the ridge member weights every column that is not constant); largest |weight| on the standardised column first:\n", len(combined), plural.Count(total, "column", "columns")+" "+plural.Word(len(combined), "has", "have"))
	return printColumns(w, combined, false, top)
}

// leftOutColumns names the columns because of which the committees in
// left were left out of greedytl-auto's mean, each once, in the order of
// the committees: "feature 0 (a), source 2: wide range".
func leftOutColumns(left []method.AutoLeftOut, names sampleNames) string {
	var cols []string
	seen := map[greedytl.Column]bool{}
	for _, l := range left {
		for _, c := range l.Columns {
			if seen[c.Column] {
				continue
			}
			seen[c.Column] = true
			col := c.Column.String()
			if name := names.of(c.Kind.String(), c.Index); name != "" {
				col += fmt.Sprintf(" (%s)", dataset.ShowName(name))
			}
			cols = append(cols, col)
		}
	}
	return strings.Join(cols, ", ") + ": wide range"
}

// printCommittee prints the members of the committee record c of the
// model summarised by sum and the tally of the columns chosen over the
// fits, naming columns by names when there are names.
func printCommittee(w io.Writer, o *inspectOptions, sum inspectSummary, c *method.AutoCommittee, fits int, names sampleNames) error {
	hp := sum.Hyperparameters
	total := sum.NumFeatures + sum.NumSources
	fmt.Fprint(w, "The members fitted on the whole sample (weights on the standardised columns, before the mean):\n")
	k := 0
	for i, sel := range c.MemberSelections(sum.NumFeatures, sum.NumSources) {
		k++
		g := c.Greedy[i]
		fmt.Fprintf(w, "member %d: GreedyTL, γ = %g (λ = %g, δ = %g): %s selected\n", k, g.Gamma, hp["lambda"], hp["delta"], plural.Count(len(g.Path), "column", "columns"))
		cols := inspectColumns(sel)
		nameColumns(cols, names)
		if err := printColumns(w, cols, true, o.top); err != nil {
			return err
		}
	}
	if src := c.Source; src != nil {
		k++
		label := fmt.Sprintf("source %d", src.Index)
		if name := names.of(greedytl.Source.String(), src.Index); name != "" {
			label += fmt.Sprintf(" (%s)", dataset.ShowName(name))
		}
		// The rule is chooseSource's: the highest training AUC, the
		// source's own direction (a source scoring the negatives higher
		// has an AUC near 0, and is not preferred, though the line's
		// slope may be negative).
		auc := fmt.Sprintf("training AUC %.4g", src.AUC)
		if src.AUC < 0.5 {
			auc += " (below 0.5: every source scores the negatives higher more often than not)"
		}
		fmt.Fprintf(w, "member %d: the source with the highest training AUC (the share of (positive, negative) pairs it scores positive higher, a tie counting half; equal AUCs: the highest LogME evidence): %s, %s; %.6g·z %+.6g\n",
			k, label, auc, src.Slope, src.Intercept)
	}
	k++
	how := "by leave-one-out"
	if c.Ridge.LambdaRows > 0 {
		how += fmt.Sprintf(" on %d of the rows", c.Ridge.LambdaRows)
	}
	if c.Ridge.Shared {
		how += "; one fit on all the rows for every committee"
	}
	fmt.Fprintf(w, "member %d: ridge on every column (%d), λ = %g %s\n\n", k, total, c.Ridge.Lambda, how)
	if len(c.Tally) == 0 {
		return nil
	}
	fmt.Fprintf(w, "columns chosen over the %s (in how many fits each member chose the column):\n", plural.Count(fits, "fit", "fits"))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "kind\tindex\t")
	if names.any() {
		fmt.Fprint(tw, "name\t")
	}
	for _, g := range c.Greedy {
		fmt.Fprintf(tw, "GreedyTL γ = %g\t", g.Gamma)
	}
	if c.Source != nil {
		fmt.Fprint(tw, "source member\t")
	}
	fmt.Fprintln(tw)
	for i, t := range c.Tally {
		if o.top > 0 && i == o.top {
			fmt.Fprintf(tw, "…\t%d more\t\n", len(c.Tally)-o.top)
			break
		}
		fmt.Fprintf(tw, "%s\t%d\t", t.Kind, t.Index)
		if names.any() {
			fmt.Fprintf(tw, "%s\t", dataset.ShowName(names.of(t.Kind.String(), t.Index)))
		}
		for _, n := range t.Greedy {
			fmt.Fprintf(tw, "%d\t", n)
		}
		if c.Source != nil {
			fmt.Fprintf(tw, "%d\t", t.Source)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return nil
}
