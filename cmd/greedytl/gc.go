package main

import (
	"os"
	"runtime/debug"
)

// defaultGCPercent is the collector's target heap growth when GOGC is not
// set. Go's default, 100, lets the heap grow to twice the live data before
// a collection; greedytl's live data is mostly large arrays without
// pointers (feature rows, score matrices), which the collector does not
// scan, so a smaller margin costs no measurable CPU and keeps a process's
// peak memory near its data: on an experiment shard of the 2.1 GB synthetic
// data set (docs/cluster/README.md, "Memory and cost") the peak fell from
// 1,016 MB to 687 MB for the same CPU time.
const defaultGCPercent = 25

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
}
