//go:build unix

package synth

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/greedytl/greedytl/internal/dirlock"
)

// locksWork reports that flock(2) tells a running Write from a killed one.
const locksWork = true

// removeStale removes the temporary directories (tempPrefix) that Writes
// into dir left because they were killed outright (SIGKILL, a lost
// machine: nothing could remove them), which may hold gigabytes of
// features that the free-space check then counts against a rerun: those
// whose lock (dirlock, which a running Write holds on its own) no process
// holds. Anything it cannot lock or remove is left as it is.
func removeStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		d := filepath.Join(dir, e.Name())
		lock, err := dirlock.Acquire(d)
		if err != nil {
			continue // a Write at work, or not ours to judge
		}
		os.RemoveAll(d)
		lock.Release()
	}
}

// holdTemp locks the temporary directory tmp of a running Write, so that
// another Write's removeStale leaves it alone.
func holdTemp(tmp string) (*dirlock.Lock, error) { return dirlock.Acquire(tmp) }
