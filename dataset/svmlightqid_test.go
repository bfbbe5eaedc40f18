package dataset

import (
	"strings"
	"testing"
)

// A "qid:" token after a feature, or a second one on a line, was ignored;
// scikit-learn's load_svmlight_file refuses both ("invalid literal for
// int() with base 10: b'qid'"): DecodeSVMLight now refuses them, naming
// the file, the line and where the token stands. One right after the
// label is still ignored.
func TestSVMLightQidPlace(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"1 qid:3 1:2 2:3\n-1 1:2 qid:4 2:1\n", `q.svm:2: query id "qid:4" after index 1: it comes right after the label, before the features`},
		{"1 qid:3 1:2\n-1 qid:3 qid:4 1:1\n", `q.svm:2: a second query id "qid:4" after "qid:3": an example has one, right after its label`},
		{"1 1:2 2:3 qid:1\n", `q.svm:1: query id "qid:1" after index 2: it comes right after the label, before the features`},
	} {
		_, _, err := DecodeSVMLight(strings.NewReader(tc.text), "q.svm", 0)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v; want %q", tc.text, err, tc.want)
		}
	}
	X, y, err := DecodeSVMLight(strings.NewReader("1 qid:3 1:2 2:3\n-1 qid:3 2:1\n"), "q.svm", 0)
	if err != nil || len(y) != 2 || X.C != 2 || len(X.Val) != 3 {
		t.Errorf("one qid right after each label: %v, %v, %v", X, y, err)
	}
}
