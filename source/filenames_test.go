package source

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/linear"
)

// TestTrainAllNamesFilesByClass checks that each source's files carry its
// class name as well as its index — models/<class>-<slug>.model and .json,
// the slug being the name's lower-cased letters and digits joined by '-',
// at most 64 bytes — on names that need escaping or that share a slug;
// that the files stay liblinear model files; and that a directory written
// before files carried the name (models/<class>.model) still loads and, when
// its job is resumed, is adopted without training: its files are renamed
// and the index is the one a new run writes.
func TestTrainAllNamesFilesByClass(t *testing.T) {
	long := strings.Repeat("Ab", 50)
	names := []string{"Obj 2", "a/b", "a_b", "../../x", "café", long, "UPPER", "7"}
	slugs := []string{"obj-2", "a-b", "a-b", "x", "caf", strings.ToLower(long[:64]), "upper", "7"}
	f := datasettest.Blobs(7, len(names), 20, len(names), 3)
	f.Classes = names
	f = datasettest.WriteFolder(t, f)
	neg, err := PlanNegatives(f, nil, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	j := job{f, neg, DefaultTrainConfig()}
	out := t.TempDir()
	res, err := j.run(t, context.Background(), out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ix := res.Index
	if len(ix.Sources) != len(j.sources()) {
		t.Fatalf("%d sources, want %d", len(ix.Sources), len(j.sources()))
	}
	for _, e := range ix.Sources {
		stem := "models/" + strings.Join([]string{strconv.Itoa(e.Class), slugs[e.Class]}, "-")
		if e.File != stem+".model" {
			t.Errorf("class %d (%q): file %q, want %q", e.Class, e.Name, e.File, stem+".model")
		}
		for _, p := range []string{stem + ".model", stem + ".json"} {
			if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
				t.Errorf("class %d: %v", e.Class, err)
			}
		}
		if _, err := linear.ReadModelFile(filepath.Join(out, filepath.FromSlash(e.File))); err != nil {
			t.Errorf("class %d: not a liblinear model file: %v", e.Class, err)
		}
	}
	if _, err := LoadDir(out); err != nil {
		t.Fatal(err)
	}
	ref := snapshot(t, out)

	// The same directory as an older greedytl wrote it.
	legacy := copyDir(t, out)
	for k, e := range ix.Sources {
		for _, ext := range []string{".model", ".json"} {
			from := filepath.Join(legacy, filepath.FromSlash(strings.TrimSuffix(e.File, ".model")+ext))
			if err := os.Rename(from, filepath.Join(legacy, modelDir, strconv.Itoa(e.Class)+ext)); err != nil {
				t.Fatal(err)
			}
		}
		ix.Sources[k].File = "models/" + strconv.Itoa(e.Class) + ".model"
	}
	if err := jsonfile.Write(filepath.Join(legacy, IndexFile), ix); err != nil {
		t.Fatal(err)
	}
	set, err := LoadDir(legacy)
	if err != nil {
		t.Fatalf("a directory with the old file names: %v", err)
	}
	if set.Len() != len(ix.Sources) {
		t.Fatalf("the old directory loads %d sources, want %d", set.Len(), len(ix.Sources))
	}
	res, err = j.run(t, context.Background(), legacy, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Trained != 0 || res.Reused != len(ix.Sources) {
		t.Errorf("resuming the old directory trained %d and reused %d, want 0 and %d", res.Trained, res.Reused, len(ix.Sources))
	}
	sameFiles(t, snapshot(t, legacy), ref)
}
