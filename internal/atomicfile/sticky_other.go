//go:build unix && !linux

package atomicfile

import "os"

// mayOverrideSticky reports whether this process may rename another
// user's file in another user's sticky directory: root may.
func mayOverrideSticky() bool { return os.Geteuid() == 0 }
