package report

import (
	"strconv"
	"testing"

	"github.com/greedytl/greedytl/method"
)

// TestSampledSearchFromRegistry: the caption's "N random candidates a
// step" of greedytl-59 is its registered sample size, and exact GreedyTL
// has none.
func TestSampledSearchFromRegistry(t *testing.T) {
	m, err := method.New("greedytl-59")
	if err != nil {
		t.Fatal(err)
	}
	n := m.(*method.GreedyTL).Defaults.Sample
	if want := strconv.Itoa(n) + " random candidates a step"; styles["greedytl-59"].search != want || n != 59 {
		t.Errorf("greedytl-59's caption says %q, its registered sample is %d", styles["greedytl-59"].search, n)
	}
	if s := sampledSearch("greedytl"); s != "" {
		t.Errorf("sampledSearch(greedytl) = %q, want none", s)
	}
}
