package method

import (
	"encoding/json"
	"image/color"
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
	binary := 0
	for _, r := range registry {
		if r.Capabilities().Binary {
			binary++
		}
	}
	if len(names) != binary {
		t.Errorf("Names() has %d names, the registry %d binary methods", len(names), binary)
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

// TestRegistrationStyle checks the metadata tables and figures read from
// the registrations: every registered method has a label and a colour of
// its own.
func TestRegistrationStyle(t *testing.T) {
	seen := map[color.RGBA]string{}
	for _, name := range Names() {
		r, ok := Registered(name)
		if !ok {
			t.Fatalf("Registered(%q) not found", name)
		}
		if r.Label == "" || r.DisplayLabel() != r.Label {
			t.Errorf("%s: label %q", name, r.Label)
		}
		if r.Color.A != 255 {
			t.Errorf("%s: no colour", name)
		}
		if other, dup := seen[r.Color]; dup {
			t.Errorf("%s and %s share the colour %v", name, other, r.Color)
		}
		seen[r.Color] = name
	}
	if _, ok := Registered("greedytl:lambda=10"); ok {
		t.Error("Registered accepts a spec with settings")
	}
	if got := (Registration{Name: "x"}).DisplayLabel(); got != "x" {
		t.Errorf("DisplayLabel without a label = %q", got)
	}
}
