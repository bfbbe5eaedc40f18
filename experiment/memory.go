package experiment

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
)

// physicalMemory returns the machine's physical memory in bytes, and
// false where it cannot be read. It is a variable for tests, which give a
// memory of their own.
var physicalMemory = memTotal

// memoryLimit returns the memory limit of this process's control groups
// in bytes, and false where there is none (or none can be read). It is a
// variable for tests.
var memoryLimit = func() (float64, bool) { return cgroupMemoryLimit(os.DirFS("/")) }

// usableMemory returns the memory a run may count on, in bytes, and its
// description for messages: the smaller of the machine's memory
// (physicalMemory) and its control groups' limit (memoryLimit) — in a
// container, such as a Kubernetes pod with a memory limit, the machine's
// memory is the node's, and exceeding the limit gets the process killed.
// ok is false where neither can be read.
func usableMemory() (bytes float64, there string, ok bool) {
	mem, ok := physicalMemory()
	if ok {
		there = fmt.Sprintf("the machine's %.3g GB of memory", mem/1e9)
	}
	if lim, lok := memoryLimit(); lok && (!ok || lim < mem) {
		mem, there, ok = lim, fmt.Sprintf("the %.3g GB memory limit of this process's control group (cgroup)", lim/1e9), true
	}
	return mem, there, ok
}

// memTotal reads MemTotal of /proc/meminfo (Linux): the physical memory,
// in bytes. ok is false where there is no such file or line.
func memTotal() (bytes float64, ok bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			return float64(kb) * 1024, err == nil && kb > 0
		}
	}
	return 0, false
}

// unlimitedMemory is the smallest limit read as none: cgroup v1 writes
// "no limit" as the largest multiple of the page size below 2⁶³.
const unlimitedMemory = 1 << 60

// cgroupMemoryLimit returns the smallest memory limit (Linux control
// groups, v1 and v2) on this process's groups and their ancestors, read
// from root (the file system's root: proc/self/cgroup names the groups,
// sys/fs/cgroup holds v2's memory.max and sys/fs/cgroup/memory v1's
// memory.limit_in_bytes), and false where no limit is set or none can be
// read. In a container the groups' paths may name the host's hierarchy,
// which is not mounted there: walking up to the root reaches the
// container's own group, whose limit is the container's.
func cgroupMemoryLimit(root fs.FS) (float64, bool) {
	b, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	lim := math.Inf(1)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		id, rest, ok1 := strings.Cut(sc.Text(), ":")
		ctl, p, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 || !strings.HasPrefix(p, "/") {
			continue
		}
		var dir, file string
		switch {
		case id == "0" && ctl == "":
			dir, file = "sys/fs/cgroup", "memory.max"
		case hasController(ctl, "memory"):
			dir, file = "sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean(p); ; p = path.Dir(p) {
			if v, ok := readLimit(root, path.Join(dir, p, file)); ok {
				lim = min(lim, v)
			}
			if p == "/" {
				break
			}
		}
	}
	return lim, !math.IsInf(lim, 1)
}

// hasController reports whether the comma-separated controllers list
// holds name.
func hasController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readLimit reads one memory limit file: a number of bytes, or "max"
// (v2's none). ok is false for none, an unreadable file or anything else.
func readLimit(root fs.FS, name string) (float64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v == 0 || v >= unlimitedMemory {
		return 0, false
	}
	return float64(v), true
}
