package experiment

import (
	"encoding/json"
	"fmt"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/modelfile"
)

// Record is one cell of the protocol grid: one method fitted on one training
// split of one target class, evaluated on that split's test set. Results
// files are JSON Lines of Records, appended as cells finish.
type Record struct {
	// RunID is the identity of the run that computed the cell
	// (Manifest.ID); empty in the records of runs made before records
	// carried it.
	RunID     string `json:"run_id,omitempty"`
	Dataset   string `json:"dataset"`
	Target    string `json:"target"`     // the target class's name
	TargetIdx int    `json:"target_idx"` // the target class's index in the dataset
	Positives int    `json:"positives"`  // n₊: positive training examples
	Negatives int    `json:"negatives"`  // negative training examples
	Noise     int    `json:"noise"`      // D: appended N(0,1) dimensions
	Split     int    `json:"split"`      // split number, 0-based
	Method    string `json:"method"`
	// BalancedAccuracy is (TPR + TNR)/2 on the test set.
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	TestPositives    int     `json:"test_positives"`
	TestNegatives    int     `json:"test_negatives"`
	// FitSeconds is the wall time of the method's Fit (hyperparameter
	// selection included).
	FitSeconds float64 `json:"fit_seconds"`
	// Hyperparameters chosen by the fit.
	Hyperparameters map[string]float64 `json:"hyperparameters,omitempty"`
	// Sources are the sources with a non-zero weight, by class index, and
	// their weights (for the source-weight analysis); SourceNames name them.
	Sources     []int     `json:"sources,omitempty"`
	SourceNames []string  `json:"source_names,omitempty"`
	Weights     []float64 `json:"weights,omitempty"`
	// Features is the number of feature dimensions (noise dimensions
	// included) with a non-zero weight, for the models whose weights are
	// known: GreedyTL's selected features, the linear baselines' non-zero
	// weights (all d for the ridge methods, fewer for the L1-penalised
	// ones); -1 for the others.
	Features int `json:"features"`
	// Candidates is the number of candidate columns the method was given:
	// features, noise dimensions and sources (d + D + n).
	Candidates int `json:"candidates"`
	// NotConverged is the fit's report of its solver runs that stopped
	// before their stopping rule held (method.ConvergenceReporter: the
	// solver, how many of the fit's runs stopped, whether the final fit's
	// did — its weights are then the solver's last iterate, not the
	// method's solution — and, for a model fitted one class against the
	// rest, the classes), in method.NotConverged's JSON form. It is nil,
	// and the member absent, when every run converged and for the methods
	// without such solvers, so that the records of such fits are those of
	// the greedytl versions before the member; those versions refuse a
	// record that has it (an unknown member). A failed evaluation keeps it
	// (it may be why); a failed fit has none.
	NotConverged []method.NotConverged `json:"not_converged,omitempty"`
	// WideRange is greedytl-auto's report of the subsamples' committees it
	// left out of its mean because a column's mean on the subsample lay
	// more than 2^26 of the subsample's standard deviations from the whole
	// sample's (method.WideRangeReporter; greedytl fit's wide-range
	// warning): one entry for a binary cell's model, one per class whose
	// binary fit left some out for an episode's model fitted one class
	// against the rest. The model, and its hyperparameter "fits", averages
	// the other committees. It is nil, and the member absent, when no
	// committee was left out and for the other methods, so that the records
	// of such fits are those of the greedytl versions before the member;
	// those versions refuse a record that has it (an unknown member). A
	// failed evaluation keeps it; a failed fit has none.
	WideRange []WideRange `json:"wide_range,omitempty"`
	// Error is set when the method failed on this cell (the accuracy is
	// then 0 and must not be averaged); empty on success.
	Error string `json:"error,omitempty"`

	// The cells of ProtocolNWay (Ways > 0) are episodes: Positives holds
	// the shots (training examples per class), Split the episode number,
	// BalancedAccuracy the mean recall over the episode's classes, and
	// TargetIdx, Target, Negatives, Noise, TestPositives, TestNegatives,
	// Sources, SourceNames, Weights and Features are zero. Such a record
	// is written in the form of episodeRecord (see MarshalJSON).
	Ways int `json:"-"`
	// Accuracy is the fraction of the test examples classified right.
	Accuracy float64 `json:"-"`
	// Classes names the episode's classes, in the order of the model's
	// classes; ClassIdx gives their indices in the dataset.
	Classes  []string `json:"-"`
	ClassIdx []int    `json:"-"`
	// TestPerClass is the number of test examples of each class.
	TestPerClass int `json:"-"`
}

// WideRange is a record's report of a greedytl-auto fit that left
// subsamples' committees out of its mean (Record.WideRange), in the JSON
// form
//
//	{"class": "a", "left_out": 1, "subsamples": 5,
//	 "columns": [{"kind": "feature", "index": 3, "ratio": 1e+30, "committees": 1}]}
//
// with "class" left out for a binary cell's model.
type WideRange struct {
	// Class is the class whose binary fit it is, for an episode's model
	// fitted one class against the rest; "" for a binary cell's.
	Class string `json:"class,omitempty"`
	// LeftOut committees of the Subsamples' fitted were left out of the
	// mean (method.WideRange.LeftOut: the number of entries of the model
	// file's "left_out", which lists them); the model averages the other
	// Subsamples − LeftOut and the whole sample's.
	LeftOut int `json:"left_out"`
	// Subsamples is the number of subsamples' committees fitted, those
	// left out included, the whole sample's not counted
	// (method.WideRange.Subsamples).
	Subsamples int `json:"subsamples"`
	// Columns are the columns because of which (method.WideColumn),
	// features before sources, each by index.
	Columns []WideRangeColumn `json:"columns"`
}

// WideRangeColumn is a column because of which committees were left out:
// the column (a feature, the noise dimensions among them, or a source, by
// index), its largest shift ratio |μ − μ'|/s' over those committees, and
// how many of them weight it.
type WideRangeColumn struct {
	greedytl.Column
	// Ratio is the column's largest shift ratio |μ − μ'|/s' over the
	// committees left out because of it (method.WideColumn.Ratio).
	Ratio float64 `json:"ratio"`
	// Committees is how many of the committees left out weight the
	// column (method.WideColumn.Left).
	Committees int `json:"committees"`
}

// wideRangeOf returns the record's form of a fitted model's reports of
// committees left out of its mean (Record.WideRange; method.WideRange):
// one for a binary model, one per class for a model fitted one class
// against the rest; nil when none was left out.
func wideRangeOf(model any) []WideRange {
	r, ok := model.(method.WideRangeReporter)
	if !ok {
		return nil
	}
	var out []WideRange
	for _, w := range r.WideRanges() {
		e := WideRange{Class: w.Class, LeftOut: w.LeftOut, Subsamples: w.Subsamples}
		for _, c := range w.Columns {
			e.Columns = append(e.Columns, WideRangeColumn{Column: c.Column, Ratio: c.Ratio, Committees: c.Left})
		}
		out = append(out, e)
	}
	return out
}

// episodeRecord is the JSON form of an N-way episode's record
// (ProtocolNWay): the members every such record has, then the optional
// ones.
type episodeRecord struct {
	RunID            string             `json:"run_id,omitempty"`
	Dataset          string             `json:"dataset"`
	Ways             int                `json:"ways"`
	Shots            int                `json:"shots"`
	Episode          int                `json:"episode"`
	Method           string             `json:"method"`
	Classes          []string           `json:"classes"`
	ClassIdx         []int              `json:"class_idx"`
	Accuracy         float64            `json:"accuracy"`
	BalancedAccuracy float64            `json:"balanced_accuracy"`
	TestPerClass     int                `json:"test_per_class"`
	FitSeconds       float64            `json:"fit_seconds"`
	Candidates       int                `json:"candidates"`
	Hyperparameters  map[string]float64 `json:"hyperparameters,omitempty"`

	NotConverged []method.NotConverged `json:"not_converged,omitempty"` // Record.NotConverged
	WideRange    []WideRange           `json:"wide_range,omitempty"`    // Record.WideRange

	Error string `json:"error,omitempty"`
}

// binaryRecord is Record without its methods: its JSON form as a binary
// cell.
type binaryRecord Record

// MarshalJSON writes a binary cell's record with Record's members, and an
// N-way episode's (Ways > 0) as the members of episodeRecord: dataset,
// ways, shots, episode, method, classes, class_idx, accuracy,
// balanced_accuracy, test_per_class, fit_seconds, candidates and the
// optional run_id, hyperparameters, not_converged, wide_range and error.
func (r Record) MarshalJSON() ([]byte, error) {
	if r.Ways == 0 {
		return json.Marshal(binaryRecord(r))
	}
	return json.Marshal(episodeRecord{
		RunID: r.RunID, Dataset: r.Dataset, Ways: r.Ways, Shots: r.Positives, Episode: r.Split, Method: r.Method,
		Classes: r.Classes, ClassIdx: r.ClassIdx, Accuracy: r.Accuracy, BalancedAccuracy: r.BalancedAccuracy,
		TestPerClass: r.TestPerClass, FitSeconds: r.FitSeconds, Candidates: r.Candidates,
		Hyperparameters: r.Hyperparameters, NotConverged: r.NotConverged, WideRange: r.WideRange, Error: r.Error,
	})
}

// UnmarshalJSON reads either form that MarshalJSON writes: an object with
// a "ways" member is an episode's. It is lenient, as encoding/json is;
// the readers of results files decode strictly (decodeRecord). Both read
// the method as its canonical text (upgradeMethod).
func (r *Record) UnmarshalJSON(b []byte) error {
	var probe struct {
		Ways *int `json:"ways"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if probe.Ways == nil {
		if err := json.Unmarshal(b, (*binaryRecord)(r)); err != nil {
			return err
		}
		r.upgradeMethod()
		return nil
	}
	var e episodeRecord
	if err := json.Unmarshal(b, &e); err != nil {
		return err
	}
	*r = e.record()
	r.upgradeMethod()
	return nil
}

// upgradeMethod puts in r.Method, as read from a record, its canonical
// text (modelfile.UpgradeSpec), as a manifest's methods are read
// (Manifest.upgradeMethods): a run made before modelfile.FormatSetting
// wrote a whole number from 10⁶ on in digits spelled it otherwise.
func (r *Record) upgradeMethod() {
	r.Method = modelfile.UpgradeSpec(r.Method)
}

// record returns the Record that e is the JSON form of.
func (e *episodeRecord) record() Record {
	return Record{
		RunID: e.RunID, Dataset: e.Dataset, Ways: e.Ways, Positives: e.Shots, Split: e.Episode, Method: e.Method,
		Classes: e.Classes, ClassIdx: e.ClassIdx, Accuracy: e.Accuracy, BalancedAccuracy: e.BalancedAccuracy,
		TestPerClass: e.TestPerClass, FitSeconds: e.FitSeconds, Candidates: e.Candidates,
		Hyperparameters: e.Hyperparameters, NotConverged: e.NotConverged, WideRange: e.WideRange, Error: e.Error, Features: 0,
	}
}

// Key identifies a cell of the grid.
type Key struct {
	Dataset   string
	TargetIdx int
	// Ways is the number of classes of an N-way episode (ProtocolNWay),
	// whose Positives are its shots and Split its episode number; 0 for
	// the cells of the binary protocols.
	Ways      int
	Positives int
	Noise     int
	Split     int
	Method    string
}

// Key returns the record's cell key.
func (r *Record) Key() Key {
	return Key{Dataset: r.Dataset, TargetIdx: r.TargetIdx, Ways: r.Ways, Positives: r.Positives, Noise: r.Noise, Split: r.Split, Method: r.Method}
}

// String returns the key as "dataset target=T positives=P noise=D split=S
// method=M", T being the target's class index, or for an N-way episode as
// "dataset ways=W shots=S episode=E method=M".
func (k Key) String() string {
	if k.Ways > 0 {
		return fmt.Sprintf("%s ways=%d shots=%d episode=%d method=%s", k.Dataset, k.Ways, k.Positives, k.Split, k.Method)
	}
	return fmt.Sprintf("%s target=%d positives=%d noise=%d split=%d method=%s", k.Dataset, k.TargetIdx, k.Positives, k.Noise, k.Split, k.Method)
}
