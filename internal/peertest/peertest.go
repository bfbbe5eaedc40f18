// Package peertest finds the peer tools that parity tests compare against
// (Debian's /usr/bin/python3 with NumPy and scikit-learn). A test skips
// when its peer is missing, except under CI: with the environment variable
// GREEDYTL_REQUIRE_PEERS=1, which .ci/run sets after installing the peers,
// a missing peer fails the test, so that CI shows the comparisons passing
// rather than skipped.
package peertest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Python is the interpreter the peer tests run: Debian's, whose packages
// python3-numpy and python3-sklearn provide the peers (a python3 earlier
// on PATH may lack them).
const Python = "/usr/bin/python3"

// RequireEnv is the environment variable that turns a missing peer from a
// skip into a failure.
const RequireEnv = "GREEDYTL_REQUIRE_PEERS"

// Missing skips t with the message (or fails it under RequireEnv=1).
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("peer missing but "+RequireEnv+"=1: "+format, args...)
	}
	t.Skipf(format, args...)
}

// PythonWith returns Python after checking that it imports every module
// named; otherwise it calls Missing.
func PythonWith(t testing.TB, modules ...string) string {
	t.Helper()
	if len(modules) > 0 {
		out, err := exec.Command(Python, "-c", "import "+strings.Join(modules, ", ")).CombinedOutput()
		if err != nil {
			Missing(t, "%s -c 'import %s': %v %s (Debian: apt-get install python3-numpy python3-sklearn)",
				Python, strings.Join(modules, ", "), err, strings.TrimSpace(string(out)))
		}
	}
	return Python
}

// HeartScale is liblinear's example data set (270 rows, 13 features,
// labels ±1), which Debian's liblinear-tools installs.
const HeartScale = "/usr/share/doc/liblinear-tools/examples/heart_scale"

// Tool returns the path of the peer command name on PATH (liblinear-train,
// liblinear-predict: Debian's liblinear-tools); otherwise it calls
// Missing, so that under RequireEnv=1 a test comparing with liblinear
// fails rather than skips.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "%s not on PATH (Debian: apt-get install liblinear-tools): skipping the comparison with it", name)
	}
	return p
}

// File returns path, a peer's data file (HeartScale), after checking
// that it exists; otherwise it calls Missing.
func File(t testing.TB, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Missing(t, "%s absent (Debian: apt-get install liblinear-tools): skipping", path)
	}
	return path
}
