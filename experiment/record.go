package experiment

import "fmt"

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
	// Error is set when the method failed on this cell (the accuracy is
	// then 0 and must not be averaged); empty on success.
	Error string `json:"error,omitempty"`
}

// Key identifies a cell of the grid.
type Key struct {
	Dataset   string
	TargetIdx int
	Positives int
	Noise     int
	Split     int
	Method    string
}

// Key returns the record's cell key.
func (r *Record) Key() Key {
	return Key{r.Dataset, r.TargetIdx, r.Positives, r.Noise, r.Split, r.Method}
}

// String returns the key as "dataset target=T positives=P noise=D split=S
// method=M", T being the target's class index.
func (k Key) String() string {
	return fmt.Sprintf("%s target=%d positives=%d noise=%d split=%d method=%s", k.Dataset, k.TargetIdx, k.Positives, k.Noise, k.Split, k.Method)
}
