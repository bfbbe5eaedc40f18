package experiment

import (
	"testing"
	"testing/fstest"
)

// TestCgroupMemoryLimit checks cgroupMemoryLimit on the layouts Linux
// gives: the smallest limit over the process's groups and their
// ancestors, v1 and v2 (alone and side by side), a container whose
// /proc/self/cgroup names the host's path (the walk up reaches the
// container's own group at the root), and no limit where the files say
// none ("max", v1's 2⁶³ − 4096) or cannot be read.
func TestCgroupMemoryLimit(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	const v1None = "9223372036854771712\n"
	for _, tc := range []struct {
		name  string
		fs    fstest.MapFS
		limit float64 // 0: none
	}{
		{"v2 own group", fstest.MapFS{
			"proc/self/cgroup":                          file("0::/kubepods/pod1/c1\n"),
			"sys/fs/cgroup/kubepods/pod1/c1/memory.max": file("2147483648\n"),
			"sys/fs/cgroup/kubepods/pod1/memory.max":    file("max\n"),
		}, 2 << 30},
		{"v2 ancestor smaller", fstest.MapFS{
			"proc/self/cgroup": file("0::/user.slice/u1/session\n"),
			"sys/fs/cgroup/user.slice/u1/session/memory.max": file("max\n"),
			"sys/fs/cgroup/user.slice/memory.max":            file("1000000000\n"),
		}, 1e9},
		{"v2 container: host path not mounted", fstest.MapFS{
			"proc/self/cgroup":         file("0::/../../kubepods/pod1\n"),
			"sys/fs/cgroup/memory.max": file("536870912"),
		}, 512 << 20},
		{"v2 no limit", fstest.MapFS{
			"proc/self/cgroup":           file("0::/a\n"),
			"sys/fs/cgroup/a/memory.max": file("max\n"),
			"sys/fs/cgroup/memory.max":   file("max\n"),
		}, 0},
		{"v1", fstest.MapFS{
			"proc/self/cgroup": file("12:pids:/x\n4:memory:/process_api/abc\n1:cpu,cpuacct:/x\n0::/\n"),
			"sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes": file("3221225472\n"),
			"sys/fs/cgroup/memory/process_api/memory.limit_in_bytes":     file(v1None),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                 file(v1None),
		}, 3 << 30},
		{"v1 unlimited (this machine's layout)", fstest.MapFS{
			"proc/self/cgroup": file("4:memory:/process_api/abc\n0::/\n"),
			"sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes": file(v1None),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                 file(v1None),
		}, 0},
		{"v1 memory among other controllers", fstest.MapFS{
			"proc/self/cgroup": file("3:cpu,memory:/g\n"),
			"sys/fs/cgroup/memory/g/memory.limit_in_bytes": file("4096000\n"),
		}, 4096000},
		{"v1 and v2 both limit", fstest.MapFS{
			"proc/self/cgroup": file("4:memory:/a\n0::/b\n"),
			"sys/fs/cgroup/memory/a/memory.limit_in_bytes": file("5000000000\n"),
			"sys/fs/cgroup/b/memory.max":                   file("4000000000\n"),
		}, 4e9},
		{"unreadable values", fstest.MapFS{
			"proc/self/cgroup":           file("0::/a\nnot a line\n7:memory\n"),
			"sys/fs/cgroup/a/memory.max": file("-1\n"),
			"sys/fs/cgroup/memory.max":   file("0\n"),
		}, 0},
		{"no /proc/self/cgroup", fstest.MapFS{
			"sys/fs/cgroup/memory.max": file("1000\n"),
		}, 0},
	} {
		got, ok := cgroupMemoryLimit(tc.fs)
		if ok != (tc.limit > 0) || got != tc.limit && ok {
			t.Errorf("%s: cgroupMemoryLimit = %v, %v; want %v, %v", tc.name, got, ok, tc.limit, tc.limit > 0)
		}
	}
}
