package modelfile_test

import (
	"fmt"
	"strings"

	"github.com/greedytl/greedytl/modelfile"
)

// ExampleRead reads a model file's header; the method it names decodes
// the rest of f.Doc (package method's Read does both).
func ExampleRead() {
	doc := `{"format": "greedytl-model", "version": 2, "method": "greedytl:lambda=10",
	"hyperparameters": {"lambda": 10}, "weights": [0.5]}`
	f, err := modelfile.Read(strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Method, f.Version, f.Multi, f.Hyperparameters["lambda"])

	_, err = modelfile.Read(strings.NewReader(`{"format": "other", "version": 2, "method": "m", "hyperparameters": {}}`))
	fmt.Println(err != nil)
	// Output:
	// greedytl:lambda=10 2 false 10
	// true
}
