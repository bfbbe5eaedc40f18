package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl"
)

type inspectOptions struct {
	json bool
}

func newInspectCmd(s *streams) *cobra.Command {
	o := &inspectOptions{}
	c := &cobra.Command{
		Use:   "inspect model.json",
		Short: "Show the selected features and sources of a model",
		Long: `Inspect prints the columns a model selected, in selection order, with their
kind (feature or source), 0-based index within X or H, weight, and the
regularised and leave-one-out errors after each step. With --json it prints a
JSON object whose "selected" array holds {"kind","index","weight"} objects.`,
		Example: `  greedytl inspect model.json
  greedytl inspect --json model.json | jq '.selected[] | select(.kind == "source")'`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runInspect(s, o, args[0]) },
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON instead of a table")
	return c
}

// inspectColumn is one selected column in inspect's JSON output.
type inspectColumn struct {
	Kind     string  `json:"kind"`
	Index    int     `json:"index"`
	Weight   float64 `json:"weight"`
	RegError float64 `json:"reg_error"`
	LOOError float64 `json:"loo_error"`
}

// inspectSummary is inspect's JSON output.
type inspectSummary struct {
	Method        string          `json:"method"`
	Lambda        float64         `json:"lambda"`
	Delta         float64         `json:"delta"`
	FeatureFactor float64         `json:"feature_factor"`
	Sample        int             `json:"sample"`
	NumFeatures   int             `json:"num_features"`
	NumSources    int             `json:"num_sources"`
	Selected      []inspectColumn `json:"selected"`
}

func summarise(m *greedytl.Model) inspectSummary {
	sum := inspectSummary{
		Method: modelMethod(m), Lambda: m.Options.Lambda, Delta: m.Options.Delta,
		FeatureFactor: m.Options.FeatureFactor, Sample: m.Options.Sample,
		NumFeatures: m.NumFeatures, NumSources: m.NumSources,
		Selected: make([]inspectColumn, len(m.Selected)),
	}
	for i, col := range m.Selected {
		st := m.Path[i]
		sum.Selected[i] = inspectColumn{Kind: col.Kind.String(), Index: col.Index, Weight: m.Weights[i], RegError: st.RegError, LOOError: st.LOOError}
	}
	return sum
}

func runInspect(s *streams, o *inspectOptions, path string) error {
	m, err := readModelFile(path)
	if err != nil {
		return err
	}
	sum := summarise(m)
	if o.json {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}
	fmt.Fprintf(s.out, "%s model: λ=%g δ=%g feature factor γ=%g", sum.Method, sum.Lambda, sum.Delta, sum.FeatureFactor)
	if sum.Sample > 0 {
		fmt.Fprintf(s.out, " sample r=%d", sum.Sample)
	}
	fmt.Fprintf(s.out, "\ntrained on %d features and %d sources; selected %d columns\n\n", sum.NumFeatures, sum.NumSources, len(sum.Selected))
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "step\tkind\tindex\tweight\treg. error\tLOO error\t")
	for i, c := range sum.Selected {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.6g\t%.6g\t%.6g\t\n", i+1, c.Kind, c.Index, c.Weight, c.RegError, c.LOOError)
	}
	return tw.Flush()
}

// modelMethod names the GreedyTL variant that fitted m.
func modelMethod(m *greedytl.Model) string {
	if m.Options.Sample > 0 {
		return fmt.Sprintf("greedytl (randomised, r=%d)", m.Options.Sample)
	}
	return "greedytl"
}
