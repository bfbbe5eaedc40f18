package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// mayOverrideSticky reports whether this process may rename another
// user's file in another user's sticky directory: whether CAP_FOWNER is
// in its effective set, as the kernel asks (check_sticky), not whether it
// is root — a process with the capability and another uid may, root
// without it (a container that dropped it) may not. Where the set cannot
// be read it answers as for root.
func mayOverrideSticky() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return os.Geteuid() == 0
	}
	return data[unix.CAP_FOWNER/32].Effective&(1<<(unix.CAP_FOWNER%32)) != 0
}
