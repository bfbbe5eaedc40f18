package experiment

// Record is one cell of the protocol grid: one method fitted on one training
// split of one target class, evaluated on that split's test set. Results
// files are JSON Lines of Records, appended as cells finish.
type Record struct {
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
	// Features is the number of selected feature dimensions, where the
	// method selects (GreedyTL); -1 when not applicable.
	Features int `json:"features"`
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
