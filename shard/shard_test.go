package shard

import (
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		in     string
		getenv func(string) string
		want   Shard
		str    string // want.String()
		err    string
	}{
		{"", env(), Shard{}, "all", ""},
		{"0/1", env(), Shard{0, 1}, "0/1", ""},
		{"2/3", env(), Shard{2, 3}, "2/3", ""},
		{"auto/4", env(EnvKubernetesIndex, "3"), Shard{3, 4}, "3/4", ""},
		{"auto/2", env(EnvSlurmIndex, "0"), Shard{0, 2}, "0/2", ""},
		{"env/4", env(EnvSlurmIndex, "1"), Shard{1, 4}, "1/4", ""},
		{"env/4", env(EnvKubernetesIndex, "2", EnvSlurmIndex, "2"), Shard{2, 4}, "2/4", ""},
		{"env/4", env(EnvKubernetesIndex, "2", EnvSlurmIndex, "1"), Shard{}, "", "disagree"},
		{"env/4", env(), Shard{}, "", "neither"},
		// An index read from the environment is named by its variable, with
		// how the job must be set up (a 1-based Slurm array gives n).
		{"env/4", env(EnvSlurmIndex, "4"), Shard{}, "", `shard "env/4": SLURM_ARRAY_TASK_ID=4 is not a shard of 4 (want 0 ≤ i < 4): submit the array with --array=0-3`},
		{"auto/3", env(EnvKubernetesIndex, "-1"), Shard{}, "", `shard "auto/3": JOB_COMPLETION_INDEX=-1 is not a shard of 3 (want 0 ≤ i < 3): the Indexed Job's completions must be 3`},
		{"auto/3", env(EnvSlurmIndex, "x"), Shard{}, "", `shard "auto/3": SLURM_ARRAY_TASK_ID="x" is not an integer`},
		{"auto/3", env(EnvKubernetesIndex, "1e0"), Shard{}, "", `shard "auto/3": JOB_COMPLETION_INDEX="1e0" is not an integer`},
		{"3/3", env(), Shard{}, "", "0 ≤ i < n"},
		{"-1/3", env(), Shard{}, "", "0 ≤ i < n"},
		{"1/0", env(), Shard{}, "", "0 ≤ i < n"},
		{"0/0", env(), Shard{}, "", "n ≥ 1"},
		{"auto/0", env(EnvSlurmIndex, "0"), Shard{}, "", "n ≥ 1"},
		{"1", env(), Shard{}, "", "want i/n"},
		{"a/3", env(), Shard{}, "", "not an integer"},
		{"a/b", env(), Shard{}, "", "want i/n"},
		{"1/b", env(), Shard{}, "", "want i/n"},
		{"1/2/3", env(), Shard{}, "", "want i/n"},
	} {
		got, err := Parse(tc.in, tc.getenv)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("Parse(%q): %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q) error %v, want one containing %q", tc.in, err, tc.err)
		case got != tc.want:
			t.Errorf("Parse(%q) = %v, want %v", tc.in, got, tc.want)
		case err == nil && got.String() != tc.str:
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got.String(), tc.str)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		s  Shard
		ok bool
	}{
		{Shard{}, true}, {Shard{0, 1}, true}, {Shard{3, 4}, true},
		{Shard{2, 2}, false}, {Shard{-1, 2}, false}, {Shard{0, -1}, false}, {Shard{1, 0}, false},
	} {
		if err := tc.s.Check(); (err == nil) != tc.ok {
			t.Errorf("%+v.Check() = %v, want ok %v", tc.s, err, tc.ok)
		}
	}
}

// TestContainsPartitions checks that the shards of N take every key
// exactly once, and the whole job shards every key.
func TestContainsPartitions(t *testing.T) {
	for n := 1; n <= 4; n++ {
		for k := range uint64(20) {
			owners := 0
			for i := range n {
				if (Shard{i, n}).Contains(k) {
					owners++
				}
			}
			if owners != 1 || !(Shard{}).Contains(k) {
				t.Errorf("key %d belongs to %d of %d shards", k, owners, n)
			}
		}
	}
	// Large keys (hashes) too.
	if k := uint64(1<<63 + 5); !(Shard{I: int(k % 7), N: 7}).Contains(k) {
		t.Errorf("key %d not in shard %d/7", k, k%7)
	}
}

func ExampleParse() {
	getenv := func(name string) string {
		if name == EnvSlurmIndex {
			return "2"
		}
		return ""
	}
	sh, err := Parse("auto/3", getenv)
	if err != nil {
		panic(err)
	}
	var mine []int
	for class := range 10 {
		if sh.Contains(uint64(class)) {
			mine = append(mine, class)
		}
	}
	fmt.Println(sh, mine)
	// Output: 2/3 [2 5 8]
}
