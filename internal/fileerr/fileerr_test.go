package fileerr

import (
	"errors"
	"os"
	"testing"
)

// TestReason: a missing file's error loses "open" and the path, keeps its
// meaning (fs.ErrNotExist); another error is returned as it is.
func TestReason(t *testing.T) {
	missing := t.TempDir() + "/nope"
	for _, op := range []func(string) error{
		func(p string) error { _, err := os.Open(p); return err },
		func(p string) error { _, err := os.Stat(p); return err },
		func(p string) error { return os.Rename(p, p+".new") }, // an *os.LinkError naming both
	} {
		err := Reason(op(missing))
		if err == nil || err.Error() != "no such file or directory" || !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Reason = %v, want \"no such file or directory\" matching fs.ErrNotExist", err)
		}
	}
	other := errors.New("other")
	if Reason(other) != other {
		t.Errorf("Reason(%v) = %v, want it unchanged", other, Reason(other))
	}
}
