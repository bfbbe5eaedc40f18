//go:build !(linux || darwin || freebsd)

package synth

// freeBytes reports that the free space of dir is unknown here.
func freeBytes(dir string) (int64, bool) { return 0, false }
