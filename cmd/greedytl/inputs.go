package main

import (
	"os"

	"fmt"
	"github.com/greedytl/greedytl"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
)

// dataFlags are the input flags shared by fit and predict.
type dataFlags struct {
	features string // --features: X, m×d
	scores   string // --source-scores: H, m×n
	labels   string // --labels: y
	positive string // --positive: the label value that means +1
}

func (f *dataFlags) register(c *cobra.Command, labelsHelp string) {
	fl := c.Flags()
	fl.StringVar(&f.features, "features", "", "target features X, one row per example (.npy or CSV; - for stdin)")
	fl.StringVar(&f.scores, "source-scores", "", "source scores H, one row per example, one column per source (.npy or CSV)")
	fl.StringVar(&f.labels, "labels", "", labelsHelp)
	fl.StringVar(&f.positive, "positive", "", "the label value of the positive class, when labels are not {-1,+1} or {0,1}")
}

// load reads X and H (either may be absent: nil) and checks that they have
// the same number of rows.
func (f *dataFlags) load(s *streams) (X, H *mat.Dense, err error) {
	if f.features == "" && f.scores == "" {
		return nil, nil, badInputf("no input: give --features, --source-scores or both")
	}
	if f.features == "-" && f.scores == "-" {
		return nil, nil, badInputf("--features and --source-scores cannot both read standard input")
	}
	if f.features != "" {
		if X, err = readMatrix(s, f.features); err != nil {
			return nil, nil, badInput(err)
		}
	}
	if f.scores != "" {
		if H, err = readMatrix(s, f.scores); err != nil {
			return nil, nil, badInput(err)
		}
	}
	if X != nil && H != nil {
		if mx, mh := X.RawMatrix().Rows, H.RawMatrix().Rows; mx != mh {
			return nil, nil, badInputf("%s has %d rows but %s has %d: both need one row per example", f.features, mx, f.scores, mh)
		}
	}
	return X, H, nil
}

// rows returns the number of examples in X or H.
func rows(X, H *mat.Dense) int {
	if X != nil {
		return X.RawMatrix().Rows
	}
	if H != nil {
		return H.RawMatrix().Rows
	}
	return 0
}

// loadLabels reads the labels and checks their count against m.
func (f *dataFlags) loadLabels(m int) ([]float64, error) {
	y, err := dataset.ReadLabels(f.labels, f.positive)
	if err != nil {
		return nil, badInput(err)
	}
	if len(y) != m {
		return nil, badInputf("%s has %d labels but the inputs have %d rows", f.labels, len(y), m)
	}
	return y, nil
}

// lambdaValue is the --lambda flag: a positive number or "auto".
type lambdaValue struct {
	v    float64
	auto bool
}

func (l *lambdaValue) String() string {
	if l.auto {
		return "auto"
	}
	return strconv.FormatFloat(l.v, 'g', -1, 64)
}

func (l *lambdaValue) Set(s string) error {
	if strings.EqualFold(s, "auto") {
		l.auto = true
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || v > 1e300 {
		return fmt.Errorf("want a positive number or auto, got %q", s)
	}
	l.v, l.auto = v, false
	return nil
}

func (l *lambdaValue) Type() string { return "float|auto" }

// optionalMatrix returns m as a mat.Matrix, or a nil interface when m is nil
// (a nil *mat.Dense inside an interface is not nil).
func optionalMatrix(m *mat.Dense) mat.Matrix {
	if m == nil {
		return nil
	}
	return m
}

// readModelFile opens and decodes a greedytl model file.
func readModelFile(path string) (*greedytl.Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput(err)
	}
	defer f.Close()
	m, err := greedytl.ReadModel(f)
	if err != nil {
		return nil, badInputf("%s: %w", path, err)
	}
	return m, nil
}

// readMatrix reads a matrix file; "-" reads CSV from the command's standard input.
func readMatrix(s *streams, path string) (*mat.Dense, error) {
	if path == "-" {
		return dataset.DecodeCSV(s.in, "<stdin>")
	}
	return dataset.ReadMatrix(path)
}
