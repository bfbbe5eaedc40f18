package report

import (
	"slices"
	"testing"
)

// TestMethodOrderFromRegistry: the report orders, labels and classifies
// methods as their registrations say; greedytl-auto, which the report's own
// copy of the registry used to leave out (sorting it last), comes fourth as
// in the demo's table.
func TestMethodOrderFromRegistry(t *testing.T) {
	names := []string{"zz-unknown", "dictionary", "forward-reg", "greedytl-auto", "greedytl-sp", "greedytl"}
	slices.SortFunc(names, compareMethods)
	want := []string{"greedytl", "greedytl-sp", "greedytl-auto", "forward-reg", "dictionary", "zz-unknown"}
	if !slices.Equal(names, want) {
		t.Errorf("order %v, want %v", names, want)
	}
	for name, label := range map[string]string{"greedytl-auto": "GreedyTL-auto", "best-source": "Best source (oracle)", "zz-unknown": "zz-unknown"} {
		if got := methodLabel(name); got != label {
			t.Errorf("methodLabel(%q) = %q, want %q", name, got, label)
		}
	}
	if !isOracle("best-source") || isOracle("greedytl") || isOracle("zz-unknown") {
		t.Error("isOracle: only best-source reads the test labels")
	}
	if !selectsFeatures("greedytl-auto") || selectsFeatures("dam") {
		t.Error("selectsFeatures disagrees with the registrations")
	}
}
