package method

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNamesPaperOrder(t *testing.T) {
	names := Names()
	// The registered methods appear in the paper's order (its tables, with
	// greedytl-auto after the GreedyTL methods and the modern alternatives
	// last), and E1's are all there.
	want := []string{
		"greedytl", "greedytl-59", "greedytl-sp", "greedytl-auto", "forward-reg",
		"no-transfer", "rls-srcfeat", "average-kt", "best-source",
		"multikt-l2", "multikt-l1", "dam", "l1-logistic", "elastic-net", "dictionary",
		"logme-source", "stacked-logistic",
	}
	if !slices.Equal(names, want) {
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

// TestRegistryOrder: the registry's order lists every registered method
// exactly once, so Names and MultiNames (and the report, which derives its
// order from them) never fall back to sorting a method of this package; and
// every registered method is in MultiNames exactly once.
func TestRegistryOrder(t *testing.T) {
	for i, n := range order {
		if _, ok := Registered(n); !ok {
			t.Errorf("order[%d] = %q is not registered", i, n)
		}
		if j := slices.Index(order, n); j != i {
			t.Errorf("order lists %q at %d and %d", n, j, i)
		}
	}
	if len(order) != len(registry) {
		t.Errorf("order lists %d methods, the registry holds %d", len(order), len(registry))
	}
	all := MultiNames()
	for n := range registry {
		if c := slices.Index(all, n); c < 0 || slices.Index(all[c+1:], n) >= 0 {
			t.Errorf("MultiNames lists %q %d times, want once", n, strings.Count(","+strings.Join(all, ",")+",", ","+n+","))
		}
	}
	if _, ok := Registered("greedytl:lambda=10"); ok {
		t.Error("Registered accepts a spec with settings")
	}
}

// TestInputErrorsCountOne: the errors of inputs that are not the model's
// say "1 feature", "1 column", "1 source" (they said "1 features", "X has
// 1 columns").
func TestInputErrorsCountOne(t *testing.T) {
	one, two := mat.NewDense(3, 1, nil), mat.NewDense(3, 2, nil)
	for _, c := range []struct {
		data Data
		d, n int
		want string
	}{
		{Data{X: one}, 2, 0, "X has 1 column, the model was trained on 2 features"},
		{Data{X: two}, 1, 0, "X has 2 columns, the model was trained on 1 feature"},
		{Data{H: one}, 0, 2, "H has 1 column, the model was trained on 2 sources"},
		{Data{H: two}, 0, 1, "H has 2 columns, the model was trained on 1 source"},
		{Data{H: one}, 1, 1, "no X given: the model was trained on 1 feature"},
		{Data{X: one}, 1, 1, "no H (source scores) given: the model was trained on 1 source"},
	} {
		if _, err := checkInputs(c.data, c.d, c.n); err == nil || err.Error() != c.want {
			t.Errorf("checkInputs for d = %d, n = %d: %v; want %q", c.d, c.n, err, c.want)
		}
	}
}

// TestRegisterConcurrent: Register may run while other goroutines call New,
// Lookup, Registered and the listings; under -race an unguarded registry
// is reported as a data race.
func TestRegisterConcurrent(t *testing.T) {
	decode := func(json.RawMessage) (Model, error) { return nil, nil }
	newM := func() Method { return noTransfer{} }
	const n = 50
	t.Cleanup(func() {
		registryMu.Lock()
		defer registryMu.Unlock()
		for i := range n {
			delete(registry, fmt.Sprintf("race-test-%d", i))
		}
	})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range n {
			Register(Registration{Name: fmt.Sprintf("race-test-%d", i), Description: "test", New: newM, Decode: decode})
		}
	})
	for range 2 {
		wg.Go(func() {
			for range n {
				if _, err := New("greedytl"); err != nil {
					t.Error(err)
				}
				if _, err := Lookup("no-transfer"); err != nil {
					t.Error(err)
				}
				Registered("race-test-0")
				Names()
				MultiNames()
			}
		})
	}
	wg.Wait()
	if _, ok := Registered(fmt.Sprintf("race-test-%d", n-1)); !ok {
		t.Error("a method registered concurrently is missing")
	}
}
