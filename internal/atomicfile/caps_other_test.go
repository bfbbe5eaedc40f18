//go:build unix && !linux

package atomicfile

// missingCaps returns none: capabilities are Linux's; root elsewhere may
// chown and write any file.
func missingCaps(map[int]string) []string { return nil }

// rootWriteCaps has no capabilities outside Linux (see missingCaps).
var rootWriteCaps map[int]string

// chownCaps has no capabilities outside Linux (see missingCaps).
var chownCaps map[int]string
