//go:build !unix

package atomicfile

// syncDir does nothing where a program cannot sync a directory (Windows).
func syncDir(string) error { return nil }
