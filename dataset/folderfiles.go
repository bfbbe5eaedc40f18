package dataset

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The files of a dataset folder (LoadFolder; docs/design.md §6): the one
// list of their names, which the reader and every writer of a folder
// (package synth, the tests' internal/datasettest) use.
const (
	// FeaturesFile holds the features, a 2-D float array (.npy).
	FeaturesFile = "features.npy"
	// LabelsFile holds each row's class, 0..C−1, a 1-D integer array.
	LabelsFile = "labels.npy"
	// ClassesFile names the classes, line i class i (WriteNames).
	ClassesFile = "classes.txt"
	// GroupsFile, optional, names each class's group, line i class i's.
	GroupsFile = "groups.txt"
)

// WriteNames writes names to w one a line, as ClassesFile and GroupsFile
// hold them (what is "class" or "group", for messages). It refuses, before
// writing anything, a name LoadFolder would not read back as itself: an
// empty one, one with white space at either end or a line break (which the
// reader trims or splits at), or one the reader refuses (nameError: not
// valid UTF-8, a hidden rune, a first name that reads as np.savetxt's
// header); for classes, also a name given twice or canonically equivalent
// to an earlier one (distinctError, LoadFolder's distinct names).
func WriteNames(w io.Writer, what string, names []string) error {
	if len(names) == 0 {
		return fmt.Errorf("no %s names", what)
	}
	for i, name := range names {
		switch {
		case name == "":
			return fmt.Errorf("%s %d: empty %s name", what, i, what)
		case strings.TrimSpace(name) != name || strings.ContainsAny(name, "\n\r"):
			return fmt.Errorf("%s %d: %s name %s has white space at an end or a line break: it would not read back", what, i, what, strconv.Quote(name))
		}
		if err := nameError(what, name, i == 0); err != nil {
			return fmt.Errorf("%s %d: %w", what, i, err)
		}
	}
	if what == "class" {
		if i, err := distinctError(names, func(j int) string { return fmt.Sprintf("class %d", j) }); err != nil {
			return fmt.Errorf("class %d: %w", i, err)
		}
	}
	if _, err := io.WriteString(w, strings.Join(names, "\n")+"\n"); err != nil {
		return fmt.Errorf("writing %s names: %w", what, err)
	}
	return nil
}
