// Package goroutinetest checks that a test leaves no goroutine behind: the
// pools of workers that runs, fits and trainings start must have ended when
// the call that started them returns, cancelled or failed as well as done.
package goroutinetest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// settle bounds the wait for goroutines that are ending as the call
// returns (a worker past its last send, a timer's goroutine): long enough
// for them on a loaded machine, short enough to fail a leak quickly.
const settle = 5 * time.Second

// Count returns the number of goroutines now, for NoneLeft.
func Count() int { return runtime.NumGoroutine() }

// NoneLeft fails t unless the number of goroutines falls back to at most
// before (Count's answer before the call under test) within a few
// seconds, naming what was called and listing the goroutines left. The
// tests of a package run one at a time (none calls t.Parallel), so every
// goroutine above before is the call's.
func NoneLeft(t testing.TB, before int, what string) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("%s left %d goroutines running (%d before, %d after):\n%s",
				what, runtime.NumGoroutine()-before, before, runtime.NumGoroutine(), strings.TrimSpace(string(buf)))
			return
		}
		time.Sleep(time.Millisecond)
	}
}
