package report

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/greedytl/greedytl/internal/tmpfstest"
)

// A Write onto a full disk left the directories it created behind, empty
// (report --out DIR): a Write that fails removes what it created — the
// directory and any above it, with the lock file and the list in it —
// and never a directory that existed, nor anything in it.
func TestWriteOnAFullDiskRemovesWhatItCreated(t *testing.T) {
	s := synth{dataset: "toy", classes: 4, negatives: []int{3}, positives: []int{2}, splits: 1, noise: []int{0}, methods: []string{"no-transfer", "greedytl"}, seed: 1}
	res, err := Load(s.write(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	full := tmpfstest.Mount(t, os.Getpagesize(), false)
	if err := os.WriteFile(filepath.Join(full, "filler"), []byte("x"), 0o644); err != nil { // the one page taken
		t.Fatal(err)
	}
	pre := filepath.Join(full, "pre")
	if err := os.Mkdir(pre, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(full, "a", "b", "report"), pre} {
		if _, err := Write(dir, res, Options{Markdown: true}); !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("Write(%s) on a full disk: %v; want no space left", dir, err)
		}
	}
	ents, _ := os.ReadDir(full)
	if len(ents) != 2 || ents[0].Name() != "filler" || ents[1].Name() != "pre" {
		t.Errorf("the full disk holds %v after the failed Writes; want filler and pre alone", ents)
	}
	if ents, err := os.ReadDir(pre); err != nil {
		t.Errorf("the directory that existed: %v", err)
	} else if len(ents) > 1 { // the lock file may stay there, as after any Write
		t.Errorf("the directory that existed holds %v", ents)
	}
}
