package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadModelFiles given a greedytl JSON model said "g.json:1: key \"{\"
// wants one value, has 0": it now says the file is no liblinear model
// file and looks like a greedytl model, which greedytl predict reads; a
// file of other text is said to be no liblinear model file, with the
// reader's words; a liblinear model file's own errors are kept.
func TestReadModelFilesNotLiblinear(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	g := write("g.json", "{\n  \"format\": \"greedytl-model\"\n}\n")
	other := write("x.txt", "hello world\n")
	bad := write("bad.model", "solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n1\n")
	for _, tc := range []struct {
		path      string
		want, not string
	}{
		{g, g + " is not a liblinear model file (its first line would be solver_type): it looks like JSON, as a greedytl model file is, which greedytl predict reads", ""},
		{other, other + " is not a liblinear model file (its first line would be solver_type): " + other + ":1", "JSON"},
		{bad, bad, "not a liblinear model file"},
		{filepath.Join(dir, "none.model"), "no such file or directory", "not a liblinear model file"},
	} {
		_, err := ReadModelFiles(tc.path)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) && !strings.Contains(err.Error(), tc.want) || tc.not != "" && strings.Contains(err.Error(), tc.not) {
			t.Errorf("ReadModelFiles(%s): %v; want %q, not %q", tc.path, err, tc.want, tc.not)
		}
	}
}
