package main

import (
	"os"
	"runtime"
	"testing"
)

// TestGCPercentFor checks the policy: the headroom live·p/100 is at least
// gcMinHeadroom below 64 MB of live heap (the runtime's 4 MB·p/100 floor
// counting below 4 MB) and gcPercent % from there on.
func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, live := range []uint64{0, 1 * mb, 4 * mb, 5 * mb, 20 * mb, 63 * mb, 64 * mb, 1000 * mb} {
		p := gcPercentFor(live)
		headroom := max(live, 4*mb) * uint64(p) / 100
		switch {
		case live < 64*mb && headroom+mb/2 < gcMinHeadroom:
			t.Errorf("live %d MB: GOGC %d leaves %d MB, want ≥ 16", live/mb, p, headroom/mb)
		case live < 64*mb && headroom > gcMinHeadroom+mb:
			t.Errorf("live %d MB: GOGC %d leaves %d MB, want about 16", live/mb, p, headroom/mb)
		case live >= 64*mb && p != gcPercent:
			t.Errorf("live %d MB: GOGC %d, want %d", live/mb, p, gcPercent)
		}
	}
}

var sink []byte

// TestSmallHeapCollectsRarely: with a live heap of a few MB, allocating
// 256 MB of short-lived data takes about 256/16 collections, not the
// hundreds that GOGC 25 alone would (its floor is 1 MB).
func TestSmallHeapCollectsRarely(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the policy is off")
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 4096 {
		sink = make([]byte, 64<<10)
	}
	runtime.ReadMemStats(&after)
	if n := after.NumGC - before.NumGC; n > 24 {
		t.Errorf("%d collections for 256 MB of garbage, want about 16", n)
	}
}
