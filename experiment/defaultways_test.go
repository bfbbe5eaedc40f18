package experiment

import (
	"slices"
	"testing"
)

// TestDefaultWays: DefaultWays is the N-way study's 5 and 20 ways, a
// fresh slice each call, and a valid Config.Ways.
func TestDefaultWays(t *testing.T) {
	w := DefaultWays()
	if !slices.Equal(w, []int{5, 20}) {
		t.Fatalf("DefaultWays() = %v, want [5 20]", w)
	}
	w[0] = 99
	if DefaultWays()[0] != 5 {
		t.Error("DefaultWays shares its slice between calls")
	}
	c := Config{Protocol: ProtocolNWay, Ways: DefaultWays(), Noise: []int{0}}
	if err := c.checkNWay(); err != nil {
		t.Errorf("checkNWay with DefaultWays: %v", err)
	}
}
