package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is part I of a job split N ways (0 ≤ I < N); the zero value is the
// whole job. Its JSON form is {"i": I, "n": N}.
type Shard struct {
	I int `json:"i"`
	N int `json:"n"`
}

// Environment variables that Parse reads for "auto/n": the index of a
// Kubernetes Indexed Job's pod and of a Slurm array's task.
const (
	EnvKubernetesIndex = "JOB_COMPLETION_INDEX"
	EnvSlurmIndex      = "SLURM_ARRAY_TASK_ID"
)

// Parse parses a shard "i/n" (0 ≤ i < n), or "auto/n" (also spelt "env/n"),
// whose index i is read with getenv from JOB_COMPLETION_INDEX (Kubernetes
// Indexed Job) or, when that is unset, SLURM_ARRAY_TASK_ID (Slurm array;
// submit it with --array=0-(n-1)). The empty string is the zero Shard. It
// returns an error for any other form, an index out of range, and for
// "auto/n" when neither variable is set, or both are set to different
// values; an index read from the environment that is not an integer or
// not below n is named by its variable and value.
func Parse(s string, getenv func(string) string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(b)
	if !ok || err != nil {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 ≤ i < n, or auto/n", s)
	}
	if n < 1 {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 ≤ i < n, and n ≥ 1", s)
	}
	if a != "auto" && a != "env" {
		i, err := strconv.Atoi(a)
		if err != nil {
			return Shard{}, fmt.Errorf("shard %q: index %q is not an integer", s, a)
		}
		sh := Shard{I: i, N: n}
		if err := sh.Check(); err != nil {
			return Shard{}, err
		}
		return sh, nil
	}
	k, sl := getenv(EnvKubernetesIndex), getenv(EnvSlurmIndex)
	v, val, how := EnvKubernetesIndex, k, fmt.Sprintf("the Indexed Job's completions must be %d", n)
	switch {
	case k == "" && sl == "":
		return Shard{}, fmt.Errorf("shard %q: neither %s nor %s is set", s, EnvKubernetesIndex, EnvSlurmIndex)
	case k != "" && sl != "" && k != sl:
		return Shard{}, fmt.Errorf("shard %q: %s=%s and %s=%s disagree", s, EnvKubernetesIndex, k, EnvSlurmIndex, sl)
	case k == "":
		v, val, how = EnvSlurmIndex, sl, fmt.Sprintf("submit the array with --array=0-%d", n-1)
	}
	// The index is the environment's, not the user's: the errors name the
	// variable and its value, and how the job gives n shards 0 to n-1.
	i, err := strconv.Atoi(val)
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: %s=%q is not an integer", s, v, val)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: %s=%d is not a shard of %d (want 0 ≤ i < %d): %s", s, v, i, n, n, how)
	}
	return Shard{I: i, N: n}, nil
}

// Check returns an error unless s is the zero Shard or 0 ≤ I < N.
func (s Shard) Check() error {
	if s == (Shard{}) || (s.N > 0 && s.I >= 0 && s.I < s.N) {
		return nil
	}
	return fmt.Errorf("shard %d/%d: want i/n with 0 ≤ i < n", s.I, s.N)
}

// String returns "i/n", or "all" for the zero Shard.
func (s Shard) String() string {
	if s == (Shard{}) {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Contains reports whether the shard takes the part with key k: always
// when N ≤ 1, else when k mod N = I.
func (s Shard) Contains(k uint64) bool {
	return s.N <= 1 || k%uint64(s.N) == uint64(s.I)
}
