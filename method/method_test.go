package method

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestNamesPaperOrder(t *testing.T) {
	names := Names()
	// The registered methods appear in the paper's order, and E1's are all
	// there.
	var want []string
	for _, n := range paperOrder {
		if _, ok := registry[n]; ok {
			want = append(want, n)
		}
	}
	if !slices.Equal(names[:len(want)], want) {
		t.Errorf("Names() = %v, want the paper's order %v", names, want)
	}
	for _, n := range []string{"greedytl", "greedytl-59", "greedytl-sp", "forward-reg", "no-transfer", "rls-srcfeat", "average-kt", "best-source"} {
		if !slices.Contains(names, n) {
			t.Errorf("%s is not registered", n)
		}
	}
	if len(names) != len(registry) {
		t.Errorf("Names() has %d names, the registry %d", len(names), len(registry))
	}
}

func TestRegister(t *testing.T) {
	decode := func(json.RawMessage) (Model, error) { return nil, nil }
	newM := func() Method { return noTransfer{} }
	Register(Registration{Name: "zz-test", Description: "test", New: newM, Decode: decode})
	Register(Registration{Name: "aa-test", Description: "test", New: newM, Decode: decode})
	defer delete(registry, "zz-test")
	defer delete(registry, "aa-test")
	names := Names()
	if got := names[len(names)-2:]; !slices.Equal(got, []string{"aa-test", "zz-test"}) {
		t.Errorf("names outside the paper's list come last, sorted: got %v", names)
	}
	for _, r := range []Registration{
		{Name: "zz-test", New: newM, Decode: decode},
		{Name: "", New: newM, Decode: decode},
		{Name: "x-test", Decode: decode},
		{Name: "x-test", New: newM},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q, New nil %v, Decode nil %v) did not panic", r.Name, r.New == nil, r.Decode == nil)
				}
			}()
			Register(r)
		}()
	}
	if _, ok := registry["x-test"]; ok {
		t.Error("an incomplete registration was kept")
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := New("lasso")
	if err == nil || !strings.Contains(err.Error(), `unknown method "lasso"`) || !strings.Contains(err.Error(), "greedytl") {
		t.Errorf("New(lasso): %v", err)
	}
}
