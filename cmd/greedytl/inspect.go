package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/bom"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/source"
)

type inspectOptions struct {
	json   bool
	top    int
	topSet bool // --top was given
}

func newInspectCmd(s *streams) *cobra.Command {
	o := &inspectOptions{}
	c := &cobra.Command{
		Use:   "inspect MODEL",
		Short: "Show the method, hyperparameters and selected features and sources of a model",
		Long: `Inspect prints a model's method and hyperparameters and the columns it uses.
MODEL is a model file written by greedytl fit; - reads it from the standard
input.

For greedytl-auto (fit's default) it shows each member of the committee fitted
on the whole sample — each GreedyTL member's selected columns and error path,
the source member's source, training AUC and line, the ridge member's λ — how
often each column was chosen over the fits averaged, and the combined model's
largest contributions (` + strconv.Itoa(autoTop) + ` unless --top is given). The combined model is dense:
its ridge member weights every column. With --json the record is the
"committee" member.

For the greedytl methods (and forward-reg) the columns are those selected, in
selection order, with their kind (feature or source), 0-based index within X
or H, name (when the model file records one: a feature's from the header of
the training --features, a source's below), weight, and the mean regularised
and leave-one-out errors after each step. For linear baselines they are the columns with non-zero weight, largest
|weight| first (--top limits the table). A dictionary model classifies
sparse codes of its inputs and has no per-column weights: inspect gives
the numbers of features and sources it was trained on ("num_features",
"num_sources" in --json) and an empty "selected". With --json it prints a JSON object
whose "selected" array holds {"kind","index","weight"} objects in that order
(with "reg_error" and "loo_error" after each step of a greedy method, and a
named column's "name"), whose "greedy" says which order it is (true:
selection order), and whose "sources" member, when present, is the
recorded sources.

A model fitted with --sources shows the sources directory it records (its
path at fit time and the identity predict checks), and names each source
column by its class, read from that directory ("name" in --json). When the
directory is no longer there, or now holds other sources, a note says so and
the source columns have their index alone. A model fitted from a
--source-scores file with a header names them by that header ("source_names").
A name holding a hidden character (a control, a bidi control, a zero-width
one) is shown in the table quoted and escaped ("\u200bcat"); --json holds
the name itself.

A model that its weights alone make constant to working precision — it
keeps no column, or its weights on the standardised columns sum to at most
ε = 2⁻⁵² in absolute value, rounding noise (docs/design.md §9, "Constant
models"; fit warns of it, constant-model) — is marked so, with "constant":
true in --json.

For a multi-class model inspect shows, per class, the columns of the class's
model as above for a binary model: fitted one class against the rest by a
greedytl method or forward-reg, those selected, in selection order, with the
errors after each step; otherwise those of non-zero weight by decreasing
|weight| (--json: "per_class" of {"class", "greedy", "selected"}, each as a
binary model's); nearest-neighbour and simpleshot models compare whole rows
and have none, nor have dictionary's class models (one class against the
rest). A class whose model is constant by its weights alone is marked so
("constant": true in its entry; a native model's class only when it keeps
no column). Fitted one class against the rest by greedytl-auto, each
class's model is shown as a binary greedytl-auto model is: its
hyperparameters, its committee and its combined model (--json: the class's "hyperparameters" and "committee").`,
		Example: `  greedytl inspect model.json
  greedytl inspect --json model.json | jq '.selected[] | select(.kind == "source")'
  greedytl fit --features X.npy --labels y.txt | greedytl inspect -`,
		Args: argCount(1, 1, "the model file (- reads it from standard input)"),
		RunE: func(c *cobra.Command, args []string) error {
			o.topSet = c.Flags().Changed("top")
			return runInspect(s, o, args[0])
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON instead of a table")
	intVarP(c.Flags(), &o.top, "top", "", inspectTop, fmt.Sprintf("show at most this many columns in a table (0: all; greedytl-auto's combined model: %d unless given)", autoTop))
	return c
}

// inspectColumn is one column in inspect's output.
type inspectColumn struct {
	Kind     string   `json:"kind"`
	Index    int      `json:"index"`
	Weight   float64  `json:"weight"`
	RegError *float64 `json:"reg_error,omitempty"` // greedy methods: after this step
	LOOError *float64 `json:"loo_error,omitempty"`
	// Name is a feature column's name, which the model file records
	// ("feature_names", from the header of the training features), or a
	// source column's class name, read from the sources directory the
	// model file records (see recordedSourceNames).
	Name string `json:"name,omitempty"`
}

// inspectSummary is inspect's JSON output.
type inspectSummary struct {
	Method          string             `json:"method"`
	Hyperparameters map[string]float64 `json:"hyperparameters"`
	NumFeatures     int                `json:"num_features,omitempty"`
	NumSources      int                `json:"num_sources,omitempty"`
	// Greedy reports whether Selected is in selection order (greedy
	// methods) or by decreasing |weight| (linear baselines).
	Greedy bool `json:"greedy"`
	// noWeights is set for a model without per-column weights (the
	// dictionary method), whose Selected is empty.
	noWeights bool
	Selected  []inspectColumn `json:"selected"`
	// Constant reports that the model is constant to working precision by
	// its weights alone (method.WeightsConstant): it keeps no column, or its
	// weights are rounding noise; absent otherwise.
	Constant bool `json:"constant,omitempty"`
	// weightSum is the weights' Σ|w|·g when Constant (method.WeightsConstant).
	weightSum float64
	// Sources is the sources directory the file records (fit --sources).
	Sources *source.ID `json:"sources,omitempty"`
	// Committee is greedytl-auto's record of its members.
	Committee *method.AutoCommittee `json:"committee,omitempty"`
	// auto is set for greedytl-auto's models (with or without Committee).
	auto bool
}

// sparseCodesNote says why a binary model without per-column weights has
// none: the dictionary method's, the one such binary method, classifies
// sparse codes of its inputs.
const sparseCodesNote = "classifies sparse codes of its inputs: no per-column weights"

// summarise describes m; models that expose no per-column weights (the
// dictionary method) have their column counts and an empty Selected list.
func summarise(m method.Model) inspectSummary {
	sum := inspectSummary{Method: m.Method(), Hyperparameters: m.Hyperparameters(), Selected: []inspectColumn{}}
	if auto, ok := m.(*method.AutoModel); ok {
		sum.auto, sum.Committee = true, auto.Committee
	}
	sel, ok := m.Selected()
	sum.NumFeatures, sum.NumSources = sel.NumFeatures, sel.NumSources
	if !ok {
		sum.noWeights = true
		return sum
	}
	sum.Greedy = sel.Greedy
	sum.Selected = inspectColumns(sel)
	sum.weightSum, sum.Constant, _ = method.WeightsConstant(m)
	return sum
}

// constantNote is inspect's note of a model (its: "its", or a class's
// model: "the class's") that is constant to working precision by its
// weights alone (method.WeightsConstant; docs/design.md §9, "Constant
// models"): it keeps no column (columns 0), or its weights, summing to sum
// in absolute value, are rounding noise. Fit warns of such a model
// (constant-model, constant-classes).
func constantNote(columns int, sum float64) string {
	if columns == 0 {
		return "constant: it keeps no column, so its score is the same for every example"
	}
	return fmt.Sprintf("constant to working precision: its weights on the standardised columns sum to %.3g in absolute value, at most ε = %.3g, so they are rounding noise, not the data's, and it ranks no example above another", sum, 0x1p-52)
}

// inspectColumns returns the columns of sel as inspect shows them.
func inspectColumns(sel method.Selection) []inspectColumn {
	cols := []inspectColumn{}
	for _, c := range sel.Columns {
		col := inspectColumn{Kind: c.Kind(), Index: c.Index, Weight: c.Weight}
		if c.Step != nil {
			col.RegError, col.LOOError = &c.Step.RegError, &c.Step.LOOError
		}
		cols = append(cols, col)
	}
	return cols
}

func runInspect(s *streams, o *inspectOptions, path string) error {
	if o.top < 0 {
		return badInputf("--top %d: want the number of columns to show, or 0 for all", o.top)
	}
	if o.json && o.topSet {
		// --json prints every column: --top would be ignored silently.
		return badInputf("--top %d applies to the table; --json prints every column: leave --top out", o.top)
	}
	r, closeModel, err := openModel(s, path)
	if err != nil {
		return err
	}
	defer closeModel()
	head, err := modelHead(displayName(path), r)
	if err != nil {
		return err
	}
	f, err := readAnyModel(displayName(path), r, head)
	if err != nil {
		return err
	}
	if f.Multi != nil {
		return runInspectMulti(s, o, f)
	}
	sum := summarise(f.Model)
	sum.Sources = f.Info.Sources
	names, note := inspectNames(f.Info)
	nameColumns(sum.Selected, names)
	if o.json {
		return printJSON(s.out, sum)
	}
	fmt.Fprintf(s.out, "method: %s\n", sum.Method)
	printHyperparameters(s.out, sum.Hyperparameters)
	trained := fmt.Sprintf("trained on %s and %s", plural.Count(sum.NumFeatures, "feature", "features"), plural.Count(sum.NumSources, "source", "sources"))
	if sum.noWeights {
		fmt.Fprintf(s.out, "%s; the model %s\n", trained, sparseCodesNote)
	} else {
		fmt.Fprintf(s.out, "%s; %d of the %s with non-zero weight\n", trained, len(sum.Selected), plural.Count(sum.NumFeatures+sum.NumSources, "column", "columns"))
		if sum.Constant {
			fmt.Fprintf(s.out, "the model is %s\n", constantNote(len(sum.Selected), sum.weightSum))
		}
	}
	if src := sum.Sources; src != nil {
		fmt.Fprintln(s.out, sourcesLine(src))
	}
	if note != "" {
		fmt.Fprintln(s.out, note)
	}
	fmt.Fprintln(s.out)
	if sum.auto {
		return inspectAuto(s, o, sum, names)
	}
	return printColumns(s.out, sum.Selected, sum.Greedy, o.top)
}

// printHyperparameters prints inspect's lines of the hyperparameters hp, of
// a model or of a class's model, one a line by name: "  lambda = 0.1".
func printHyperparameters(w io.Writer, hp map[string]float64) {
	for _, k := range slices.Sorted(maps.Keys(hp)) {
		fmt.Fprintf(w, "  %s = %g\n", k, hp[k])
	}
}

// recordedSourceNames returns the class names of the sources that rec, a
// model file's record of `fit --sources`, lists, read from its directory's
// index, so that inspect can name source columns as well as number them.
// A model fitted from --source-scores records no sources (nil, ""). When
// the directory is gone or now holds other sources, the columns keep
// their index alone and note says why.
func recordedSourceNames(rec *source.ID) (names []string, note string) {
	if rec == nil {
		return nil, ""
	}
	ix, err := source.ReadIndex(rec.Dir)
	if err != nil {
		return nil, fmt.Sprintf("(sources named by index only: %v)", err)
	}
	if d := ix.Differences(rec); len(d) > 0 {
		return nil, fmt.Sprintf("(sources named by index only: %s now holds other sources: %s)", rec.Dir, strings.Join(d, "; "))
	}
	// The identity leaves the class names out (they are the dataset's):
	// the data digest, which covers them, must agree too.
	if ix.DataSHA256 != rec.DataSHA256 {
		return nil, fmt.Sprintf("(sources named by index only: %s now holds sources trained on other data)", rec.Dir)
	}
	return indexSourceNames(ix), ""
}

// inspectNames returns the names inspect gives the columns of the model
// file info: its features' ("feature_names") and its sources', those of
// the sources directory it records (recordedSourceNames) or else those of
// the --source-scores header it was fitted on ("source_names"); and
// recordedSourceNames' note when the directory's could not be read.
func inspectNames(info method.FileInfo) (names sampleNames, note string) {
	names = modelColumnNames(info)
	srcNames, note := recordedSourceNames(info.Sources)
	if srcNames != nil {
		names.sources = srcNames
	}
	return names, note
}

// of returns the name of the column (kind, index), or "" when it has none.
func (n sampleNames) of(kind string, index int) string {
	names := n.features
	if kind == greedytl.Source.String() {
		names = n.sources
	}
	if index < 0 || index >= len(names) {
		return ""
	}
	return names[index]
}

// any reports whether some column has a name.
func (n sampleNames) any() bool { return n.features != nil || n.sources != nil }

// nameColumns sets the Name of the columns of cols from names.
func nameColumns(cols []inspectColumn, names sampleNames) {
	for i := range cols {
		cols[i].Name = names.of(cols[i].Kind, cols[i].Index)
	}
}

// printColumns prints the table of cols: in selection order with the path's
// errors when greedy, by rank otherwise; at most top rows (0: all). Names
// are shown as dataset.ShowName shows them (escaped when one holds a
// hidden character).
func printColumns(w io.Writer, cols []inspectColumn, greedy bool, top int) error {
	if len(cols) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	named := slices.ContainsFunc(cols, func(c inspectColumn) bool { return c.Name != "" })
	nameHeader, name := "", func(inspectColumn) string { return "" }
	if named {
		nameHeader, name = "name\t", func(c inspectColumn) string { return dataset.ShowName(c.Name) + "\t" }
	}
	if greedy {
		fmt.Fprintf(tw, "step\tkind\tindex\t%sweight\treg. error\tLOO error\t\n", nameHeader)
	} else {
		fmt.Fprintf(tw, "rank\tkind\tindex\t%sweight\t\n", nameHeader)
	}
	for i, c := range cols {
		if top > 0 && i == top {
			fmt.Fprintf(tw, "…\t%d more\t\t\t\n", len(cols)-top)
			break
		}
		if greedy {
			fmt.Fprintf(tw, "%d\t%s\t%d\t%s%.6g\t%.6g\t%.6g\t\n", i+1, c.Kind, c.Index, name(c), c.Weight, *c.RegError, *c.LOOError)
		} else {
			fmt.Fprintf(tw, "%d\t%s\t%d\t%s%.6g\t\n", i+1, c.Kind, c.Index, name(c), c.Weight)
		}
	}
	return tw.Flush()
}

// otherFile says what the JSON document b is when it is another file of
// greedytl's than a model, which the model readers refuse by the first
// model member it lacks ("format is missing"): a sources index
// (source.IndexFile, which has no format), a run manifest
// (experiment.ManifestFile) or the record beside a source's model file;
// "" for anything else, whatever its name.
func otherFile(b []byte) string {
	var doc struct {
		Format     string          `json:"format"`
		DataSHA256 string          `json:"data_sha256"`
		Negatives  json.RawMessage `json:"negatives"`
		Sources    json.RawMessage `json:"sources"`
		ModelSHA   string          `json:"model_sha256"`
		Finger     string          `json:"fingerprint"`
	}
	if json.Unmarshal(bom.Trim(b), &doc) != nil {
		return ""
	}
	switch {
	case doc.Format == experiment.ManifestFormat:
		return fmt.Sprintf("is a run manifest (greedytl experiment's), not a model file: give a model written by greedytl fit; report and merge read a run directory, whose %s this is", experiment.ManifestFile)
	case doc.Format == "" && doc.DataSHA256 != "" && doc.Negatives != nil && doc.Sources != nil:
		return fmt.Sprintf("is a sources index (greedytl train-sources'), not a model file: give a model written by greedytl fit; fit, predict and experiment take the sources directory that holds this %s (--sources), and predict its liblinear model files (models/*.model)", source.IndexFile)
	case doc.Format == "" && doc.ModelSHA != "" && doc.Finger != "":
		return "is the record of a source's training (greedytl train-sources'), not a model file: give a model written by greedytl fit; predict reads the source's liblinear model file beside it (the .model of the same name)"
	}
	return ""
}

// sourcesLine is inspect's line of the sources a model records, binary or
// multi-class: the directory, the count, the identity, the data digest and
// the seed.
func sourcesLine(src *source.ID) string {
	return fmt.Sprintf("sources: %s (%s, identity %s, data %s, seed %d)", src.Dir, plural.Count(src.Count, "source", "sources"), src.SHA256, src.DataSHA256, src.Seed)
}
