//go:build !unix && !windows

package dirlock

import (
	"path/filepath"
	"sync"
	"testing"
)

// TestUnlockedWarnsOnce: where nothing is locked, Acquire says so once a
// process, naming the first directory, and succeeds.
func TestUnlockedWarnsOnce(t *testing.T) {
	var warned []string
	old := warnUnlocked
	warnUnlocked = func(dir string) { warned = append(warned, dir) }
	defer func() { warnUnlocked = old }()
	warnOnce = sync.Once{} // earlier tests' Acquires warned
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b, a} {
		l, err := Acquire(d)
		if err != nil {
			t.Fatalf("Acquire(%s): %v", d, err)
		}
		defer l.Release()
	}
	if len(warned) != 1 || filepath.Clean(warned[0]) != filepath.Clean(a) {
		t.Errorf("warnings for %v, want one for %s", warned, a)
	}
}
