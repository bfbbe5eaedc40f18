//go:build !unix

package synth

import "github.com/greedytl/greedytl/internal/dirlock"

// locksWork reports that flock(2) tells a running Write from a killed one.
const locksWork = false

// removeStale removes nothing where flock(2) is missing: a running Write's
// temporary directory could not be told from a killed one's.
func removeStale(string) {}

// holdTemp holds nothing where flock(2) is missing.
func holdTemp(string) (*dirlock.Lock, error) { return nil, nil }
