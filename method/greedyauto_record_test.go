package method

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// autoCommittee returns the committee record of a greedytl-auto model.
func autoCommittee(t *testing.T, m Model) *AutoCommittee {
	t.Helper()
	am, ok := m.(*AutoModel)
	if !ok {
		t.Fatalf("greedytl-auto's model is a %T, want *AutoModel", m)
	}
	if am.Committee == nil {
		t.Fatal("greedytl-auto's model has no committee record")
	}
	return am.Committee
}

// memberGammas returns the feature factors of greedytl-auto's GreedyTL
// members on data with d features and n sources.
func memberGammas(d, n int) []float64 {
	if d == 0 || n == 0 {
		return []float64{1}
	}
	return autoGammas
}

// popStd returns the population standard deviation of v.
func popStd(v []float64) float64 {
	mean := stat.Mean(v, nil)
	var s float64
	for _, x := range v {
		s += (x - mean) * (x - mean)
	}
	return math.Sqrt(s / float64(len(v)))
}

// TestGreedyAutoRecordsItsMembers checks the committee record of a single
// fit against the members fitted on their own: each GreedyTL member's path
// is greedytl.Fit's with its γ (the weights re-expressed on the column
// standardised by its population standard deviation), the source member
// is the brute-force best-ordering source with its training AUC and the
// ordinary least-squares line (gonum's stat.LinearRegression) in
// standardised units, the ridge member's λ is rls-srcfeat's, and the tally
// counts each choice once.
func TestGreedyAutoRecordsItsMembers(t *testing.T) {
	base := newConformanceCase(31, 20, 5, 12, 9)
	for _, tc := range []struct {
		what string
		c    conformanceCase
	}{
		{"features and sources", base},
		{"two positives", newConformanceCase(32, 12, 2, 30, 40)},
		{"no sources", base.withoutSources()},
		{"no features", base.mapColumns(func(*mat.Dense) *mat.Dense { return nil }, identity)},
	} {
		t.Run(tc.what, func(t *testing.T) {
			train := tc.c.train
			_, d := dims(train.X)
			_, n := dims(train.H)
			single := newGreedyAuto()
			single.SingleFit = true
			model, err := single.Fit(context.Background(), train, tc.c.extra)
			if err != nil {
				t.Fatal(err)
			}
			// The members see the rows in content order (contentOrder).
			train, _ = inContentOrder(train, train.Y)
			rec := autoCommittee(t, model)
			want := map[greedytl.Column][]int{} // tally, the source's count last
			count := func(c greedytl.Column, slot, slots int) {
				if want[c] == nil {
					want[c] = make([]int, slots)
				}
				want[c][slot]++
			}
			gammas := memberGammas(d, n)
			if len(rec.Greedy) != len(gammas) {
				t.Fatalf("%d GreedyTL members, want %d", len(rec.Greedy), len(gammas))
			}
			for i, g := range gammas {
				o := greedytl.DefaultOptions()
				o.FeatureFactor = g
				gm, err := greedytl.Fit(context.Background(), matrixOrNil(train.X), matrixOrNil(train.H), train.Y, o)
				if err != nil {
					t.Fatal(err)
				}
				got := rec.Greedy[i]
				if got.Gamma != g || len(got.Path) != len(gm.Path) {
					t.Fatalf("member %d: γ = %v with %d steps, want γ = %v with %d", i, got.Gamma, len(got.Path), g, len(gm.Path))
				}
				for k, s := range got.Path {
					if s.Step != gm.Path[k] {
						t.Errorf("γ = %v: step %d is %+v, greedytl.Fit's %+v", g, k, s.Step, gm.Path[k])
					}
					a := train.H
					if s.Column.Kind == greedytl.Feature {
						a = train.X
					}
					sd := popStd(mat.Col(nil, s.Column.Index, a))
					if w := gm.Weights[k] * sd / gm.Scale[k]; math.Abs(s.Weight-w) > 1e-12*math.Max(1, math.Abs(w)) {
						t.Errorf("γ = %v: step %d: weight %v, want %v", g, k, s.Weight, w)
					}
					count(s.Column, i, len(gammas)+1)
				}
			}
			if n == 0 {
				if rec.Source != nil {
					t.Errorf("a source member %+v without sources", *rec.Source)
				}
			} else {
				j := bestOrderingSource(t, train)
				h := mat.Col(nil, j, train.H)
				b, a := stat.LinearRegression(h, train.Y, nil, false)
				mean, sd := stat.Mean(h, nil), popStd(h)
				var pairs, good float64
				for p, yp := range train.Y {
					for q, yq := range train.Y {
						if yp > 0 && yq < 0 {
							pairs++
							if h[p] > h[q] {
								good++
							} else if h[p] == h[q] {
								good += 0.5
							}
						}
					}
				}
				s := rec.Source
				switch {
				case s == nil:
					t.Fatal("no source member")
				case s.Index != j || s.AUC != good/pairs:
					t.Errorf("source %d with AUC %v, want %d with %v", s.Index, s.AUC, j, good/pairs)
				case math.Abs(s.Slope-a*sd) > 1e-10 || math.Abs(s.Intercept-(b+a*mean)) > 1e-10:
					t.Errorf("source line %v·z + %v, want %v·z + %v", s.Slope, s.Intercept, a*sd, b+a*mean)
				}
				count(greedytl.Column{Kind: greedytl.Source, Index: j}, len(gammas), len(gammas)+1)
			}
			if l := mustFit(t, "rls-srcfeat", tc.c).Hyperparameters()["lambda"]; rec.Ridge.Lambda != l {
				t.Errorf("ridge λ = %v, rls-srcfeat's %v", rec.Ridge.Lambda, l)
			}
			checkTally(t, rec, want)
		})
	}
}

// checkTally checks rec.Tally against want: per column, the counts of the
// GreedyTL members and, last, of the source member.
func checkTally(t *testing.T, rec *AutoCommittee, want map[greedytl.Column][]int) {
	t.Helper()
	if len(rec.Tally) != len(want) {
		t.Errorf("the tally lists %d columns, want %d", len(rec.Tally), len(want))
	}
	for k, e := range rec.Tally {
		w := want[e.Column]
		if got := append(append([]int(nil), e.Greedy...), e.Source); !reflect.DeepEqual(got, w) {
			t.Errorf("tally of %v: %v, want %v", e.Column, got, w)
		}
		if k > 0 && e.total() > rec.Tally[k-1].total() {
			t.Errorf("tally[%d] (%v) is counted more often than the column before it", k, e.Column)
		}
	}
}

// TestGreedyAutoTalliesEveryFit checks the tally of a bagged fit against
// its definition, by brute force: for each of the committees averaged (the
// whole sample and each subsample), the columns greedytl.Fit selects with
// each member's γ and the best-ordering source.
func TestGreedyAutoTalliesEveryFit(t *testing.T) {
	c := newConformanceCase(33, 14, 3, 15, 12)
	model := mustFit(t, "greedytl-auto", c)
	rec := autoCommittee(t, model)
	// The subsamples leave out folds of the rows in content order (see
	// contentOrder).
	train, _ := inContentOrder(c.train, c.train.Y)
	samples := []Data{train}
	for _, fold := range majorityFolds(train.Y) {
		var keep []int
		for r := range train.Y {
			if !containsInt(fold, r) {
				keep = append(keep, r)
			}
		}
		samples = append(samples, selectRows(train, keep))
	}
	if f := model.Hyperparameters()["fits"]; f != float64(len(samples)) {
		t.Fatalf("fits = %v, want %d", f, len(samples))
	}
	want := map[greedytl.Column][]int{}
	for _, s := range samples {
		for i, g := range autoGammas {
			o := greedytl.DefaultOptions()
			o.FeatureFactor = g
			gm, err := greedytl.Fit(context.Background(), s.X, s.H, s.Y, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, col := range gm.Selected {
				if want[col] == nil {
					want[col] = make([]int, len(autoGammas)+1)
				}
				want[col][i]++
			}
		}
		j := greedytl.Column{Kind: greedytl.Source, Index: bestOrderingSource(t, s)}
		if want[j] == nil {
			want[j] = make([]int, len(autoGammas)+1)
		}
		want[j][len(autoGammas)]++
	}
	checkTally(t, rec, want)
}

// containsInt reports whether v holds x.
func containsInt(v []int, x int) bool {
	for _, e := range v {
		if e == x {
			return true
		}
	}
	return false
}

// TestGreedyAutoFileKeepsTheCommittee checks that a greedytl-auto file
// holds the committee record and reads it back as it was; that a file
// without it (written before it was recorded) still reads and predicts the
// same; and that a record that does not fit the model is refused, naming
// the committee.
func TestGreedyAutoFileKeepsTheCommittee(t *testing.T) {
	c := newConformanceCase(34, 12, 2, 10, 8)
	model := mustFit(t, "greedytl-auto", c)
	var buf bytes.Buffer
	if err := WriteModel(&buf, model); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	back, err := ReadModel(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(autoCommittee(t, back), autoCommittee(t, model)) {
		t.Errorf("the committee read back differs:\n%+v\nwant\n%+v", autoCommittee(t, back), autoCommittee(t, model))
	}

	// edit returns the file with f applied to its decoded committee.
	edit := func(f func(c map[string]any)) []byte {
		var doc map[string]any
		if err := json.Unmarshal(file, &doc); err != nil {
			t.Fatal(err)
		}
		if f != nil {
			f(doc["committee"].(map[string]any))
		} else {
			delete(doc, "committee")
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	old, err := ReadModel(bytes.NewReader(edit(nil)))
	if err != nil {
		t.Fatalf("a file without a committee: %v", err)
	}
	if old.(*AutoModel).Committee != nil {
		t.Error("a file without a committee reads with one")
	}
	if got, want := mustPredict(t, old, c.test), mustPredict(t, model, c.test); !reflect.DeepEqual(got, want) {
		t.Error("a file without a committee predicts differently")
	}

	first := func(c map[string]any, key string) map[string]any { return c[key].([]any)[0].(map[string]any) }
	for _, tc := range []struct {
		what string
		f    func(c map[string]any)
		want string
	}{
		{"a path column out of range", func(c map[string]any) {
			first(first(c, "greedy"), "path")["column"] = map[string]any{"kind": "feature", "index": 10}
		}, "feature 10 is out of range"},
		{"a negative γ", func(c map[string]any) { first(c, "greedy")["gamma"] = -1 }, "gamma = -1"},
		{"no GreedyTL member", func(c map[string]any) { c["greedy"] = []any{} }, "no GreedyTL member"},
		{"another source than the hyperparameter's", func(c map[string]any) {
			s := c["source"].(map[string]any)
			s["index"] = math.Mod(s["index"].(float64)+1, 8)
		}, "differs from the hyperparameter source"},
		{"no source member", func(c map[string]any) { delete(c, "source") }, "no source member"},
		{"an AUC above 1", func(c map[string]any) { c["source"].(map[string]any)["auc"] = 1.5 }, "auc = 1.5"},
		{"another ridge λ", func(c map[string]any) { c["ridge"].(map[string]any)["lambda"] = 12345 }, "hyperparameter ridge_lambda"},
		{"a count above the fits", func(c map[string]any) { first(c, "tally")["source"] = 12 }, "count 12"},
		{"a tally out of order", func(c map[string]any) {
			tally := c["tally"].([]any)
			tally[0], tally[len(tally)-1] = tally[len(tally)-1], tally[0]
		}, "out of order"},
		{"an unknown member", func(c map[string]any) { c["members"] = 4 }, `unknown field "members"`},
	} {
		_, err := ReadModel(bytes.NewReader(edit(tc.f)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.what, err, tc.want)
		}
	}

	// The writer refuses what the reader would.
	bad := *model.(*AutoModel)
	rec := *bad.Committee
	rec.Ridge.Lambda = 0
	bad.Committee = &rec
	if err := WriteModel(new(bytes.Buffer), &bad); err == nil || !strings.Contains(err.Error(), "committee: ridge") {
		t.Errorf("writing a committee with λ = 0: error %v", err)
	}
}

// TestGreedyAutoReadsFilesBeforeTheCommittee reads a greedytl-auto file
// written by greedytl before files recorded the committee
// (testdata/README): it reads as a model without a committee record that
// predicts as the linear model its members "x", "h", "wx", "wh" and "b"
// define.
func TestGreedyAutoReadsFilesBeforeTheCommittee(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "greedytl-auto-before-committee.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadModel(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("an old greedytl-auto file: %v", err)
	}
	am, ok := m.(*AutoModel)
	if !ok || am.Committee != nil || m.Method() != "greedytl-auto" {
		t.Fatalf("read as a %T (%q) with committee %v", m, m.Method(), am)
	}
	var f struct {
		X, H   struct{ Mean, Scale []float64 }
		WX, WH []float64
		B      float64
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	c := newConformanceCase(35, 12, 2, len(f.WX), len(f.WH))
	got := mustPredict(t, m, c.test)
	for i := range got {
		want := f.B
		for j, w := range f.WX {
			want += w * (c.test.X.At(i, j) - f.X.Mean[j]) / f.X.Scale[j]
		}
		for j, w := range f.WH {
			want += w * (c.test.H.At(i, j) - f.H.Mean[j]) / f.H.Scale[j]
		}
		if math.Abs(got[i]-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Fatalf("row %d: score %v, the file's linear model gives %v", i, got[i], want)
		}
	}
}
