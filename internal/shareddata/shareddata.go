// Package shareddata locates the project's shared real data sets
// (../shared/data beside the repository root), so that tests and benchmarks
// can use them where they exist and skip with a clear message where not
// (a user's clone has no ../shared).
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of ../shared/data relative to the repository
// root (the nearest ancestor of the working directory holding go.mod), or ""
// when it does not exist. GREEDYTL_SHARED_DATA overrides the location.
func Dir() string {
	if d := os.Getenv("GREEDYTL_SHARED_DATA"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "data")
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				abs, _ := filepath.Abs(d)
				return abs
			}
			return ""
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// Path returns the path of rel inside the shared data folder, calling
// tb.Skip with a clear message when the folder or the file is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	d := Dir()
	if d == "" {
		tb.Skipf("shared data not found (../shared/data beside the repository; set GREEDYTL_SHARED_DATA): skipping test that needs %s", rel)
	}
	p := filepath.Join(d, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared data file %s is absent: skipping", p)
	}
	return p
}
