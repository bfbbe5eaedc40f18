package source

import (
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/datasettest"
)

// blobFolder writes a separable dataset of the given number of classes
// with 20 examples each in as many dimensions.
func blobFolder(t testing.TB, classes int) *dataset.Folder {
	return datasettest.WriteFolder(t, datasettest.Blobs(7, classes, 20, classes, 3))
}
