package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsLiblinearModel: a liblinear model file is told by "solver_type"
// after a byte-order mark and blank space, as predict tells its --model
// and linear's reader reads it; no other start is one.
func TestIsLiblinearModel(t *testing.T) {
	for head, want := range map[string]bool{
		"solver_type L2R_LR\n":             true,
		"\ufeffsolver_type L2R_LR\n":       true,
		"\n\r\n \tsolver_type L2R_LR\n":    true,
		"\ufeff\nsolver_type L2R_LR\n":     true,
		"solver_typ":                       false,
		"":                                 false,
		`{"format": "greedytl-model"}`:     false,
		"\ufeff\ufeffsolver_type L2R_LR\n": false,
		"# solver_type L2R_LR\n":           false,
		"nr_class 2\nsolver_type L2R_LR\n": false,
	} {
		if got := IsLiblinearModel([]byte(head)); got != want {
			t.Errorf("IsLiblinearModel(%q) = %v, want %v", head, got, want)
		}
	}
}

// TestReadIndexOfOwnModelsWithAMark: a folder of the user's own liblinear
// models, given as --sources, is told as such when a model file starts
// with a byte-order mark and a blank line, which predict reads as a
// liblinear model (IsLiblinearModel, the one test of it): ReadIndex's
// test read the first 11 bytes alone and said only that the folder is no
// sources directory.
func TestReadIndexOfOwnModelsWithAMark(t *testing.T) {
	models := t.TempDir()
	if err := os.WriteFile(filepath.Join(models, "cat.model"), []byte("\ufeff\nsolver_type L2R_LR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadIndex(models)
	if want := models + " is not a sources directory (sources.json: no such file or directory): the models in " + models + " are models of your own"; !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %q…", err, want)
	}
}
