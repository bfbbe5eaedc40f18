package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
)

// TestInspectAuto checks inspect on fit's default model, greedytl-auto,
// against the model file: --json holds the file's committee record; the
// table shows every GreedyTL member's path, the source member, the ridge
// member's λ, the tally, and the combined model's count of non-zero
// weights (counted in the file's "wx" and "wh") with its 20 largest (all
// with --top 0); a file written before the committee was recorded says so.
func TestInspectAuto(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "auto.json")
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Method    string               `json:"method"`
		WX        []float64            `json:"wx"`
		WH        []float64            `json:"wh"`
		Committee method.AutoCommittee `json:"committee"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if file.Method != "greedytl-auto" || len(file.Committee.Greedy) != 2 || file.Committee.Source == nil {
		t.Fatalf("fit's default wrote a %q model with committee %+v", file.Method, file.Committee)
	}
	nonzero := 0
	for _, w := range append(append([]float64(nil), file.WX...), file.WH...) {
		if w != 0 {
			nonzero++
		}
	}
	total := len(file.WX) + len(file.WH)

	code, out, stderr := cli(t, "", "inspect", "--json", model)
	if code != 0 {
		t.Fatalf("inspect --json: exit %d: %s", code, stderr)
	}
	var sum inspectSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Committee == nil || !reflect.DeepEqual(*sum.Committee, file.Committee) {
		t.Errorf("inspect --json's committee %+v, the file's %+v", sum.Committee, file.Committee)
	}
	if len(sum.Selected) != nonzero {
		t.Errorf("inspect --json lists %d columns, the file has %d non-zero weights", len(sum.Selected), nonzero)
	}

	_, out, _ = cli(t, "", "inspect", model)
	c := file.Committee
	want := []string{
		fmt.Sprintf("combined model: %d of the %d columns have non-zero weight (dense: the ridge member weights every column", nonzero, total),
		fmt.Sprintf("member 3: the source with the highest training AUC (the share of (positive, negative) pairs it scores positive higher, a tie counting half; equal AUCs: the highest LogME evidence): source %d, training AUC %.4g;", c.Source.Index, c.Source.AUC),
		fmt.Sprintf("member 4: ridge on every column (%d), λ = %g by leave-one-out", total, c.Ridge.Lambda),
		fmt.Sprintf("columns chosen over the %g fits", sum.Hyperparameters["fits"]),
	}
	for i, g := range c.Greedy {
		want = append(want, fmt.Sprintf("member %d: GreedyTL, γ = %g (λ = 1, δ = 0.0001): %d columns selected", i+1, g.Gamma, len(g.Path)))
		for k, s := range g.Path {
			want = append(want, fmt.Sprintf("%d  %s  %d  %.6g  %.6g  %.6g", k+1, s.Column.Kind, s.Column.Index, s.Weight, s.RegError, s.LOOError))
		}
	}
	for _, e := range c.Tally {
		want = append(want, fmt.Sprintf("%s  %d  %d  %d  %d", e.Kind, e.Index, e.Greedy[0], e.Greedy[1], e.Source))
	}
	for _, w := range want {
		if !strings.Contains(squeeze(out), w) {
			t.Errorf("inspect's table lacks %q:\n%s", w, out)
		}
	}
	combined := out[strings.Index(out, "combined model:"):]
	if nonzero <= 20 {
		t.Fatalf("the toy model has %d non-zero weights; the test needs more than 20", nonzero)
	}
	if rows := strings.Count(combined, "\n") - 3; rows != 20 || !strings.Contains(combined, fmt.Sprintf("%d more", nonzero-20)) {
		t.Errorf("the combined model's table has %d rows, want the 20 largest and '%d more':\n%s", rows, nonzero-20, combined)
	}
	_, out, _ = cli(t, "", "inspect", "--top", "0", model)
	combined = out[strings.Index(out, "combined model:"):]
	if rows := strings.Count(combined, "\n") - 2; rows != nonzero {
		t.Errorf("with --top 0 the combined model's table has %d rows, want %d", rows, nonzero)
	}

	// The highest training AUC below 0.5 (every source orders the
	// examples reversed more often than not) is said to be so: the member
	// was called the source that orders them best.
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["committee"].(map[string]any)["source"].(map[string]any)["auc"] = 0.25
	low, _ := json.Marshal(doc)
	lowPath := filepath.Join(d.dir, "low.json")
	if err := os.WriteFile(lowPath, low, 0o644); err != nil {
		t.Fatal(err)
	}
	below := "training AUC 0.25 (below 0.5: every source scores the negatives higher more often than not);"
	if code, out, stderr := cli(t, "", "inspect", lowPath); code != 0 || !strings.Contains(out, below) {
		t.Errorf("inspect of a source member of training AUC 0.25: exit %d: %s\n%s", code, stderr, out)
	}
	if c.Source.AUC < 0.5 || strings.Contains(out, "below 0.5") {
		t.Errorf("the toy's source member has training AUC %v; the test wants it at least 0.5, and inspect to say nothing of 0.5:\n%s", c.Source.AUC, out)
	}

	// A file written before the committee was recorded.
	delete(doc, "committee")
	old, _ := json.Marshal(doc)
	oldPath := filepath.Join(d.dir, "old.json")
	if err := os.WriteFile(oldPath, old, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = cli(t, "", "inspect", oldPath)
	if code != 0 || !strings.Contains(out, "written before greedytl-auto recorded its members") || !strings.Contains(out, fmt.Sprintf("%d of the %d columns", nonzero, total)) {
		t.Errorf("inspect of a file without a committee: exit %d: %s\n%s", code, stderr, out)
	}
}

// squeeze returns s with runs of spaces replaced by two spaces, so that
// tabwriter's padding does not matter.
func squeeze(s string) string {
	for strings.Contains(s, "   ") {
		s = strings.ReplaceAll(s, "   ", "  ")
	}
	return strings.ReplaceAll(s, "\n ", "\n")
}

// TestInspectAutoSharedRidge: with more rows than columns greedytl-auto's
// ridge member serves every committee with λ chosen on 500 of the rows,
// and inspect says so (text and --json).
func TestInspectAutoSharedRidge(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	const m, d = 700, 30
	var xs, ys strings.Builder
	for range m {
		v := 0.0
		for j := range d {
			x := rng.NormFloat64()
			if j < 3 {
				v += x
			}
			if j > 0 {
				xs.WriteByte(',')
			}
			fmt.Fprintf(&xs, "%.6g", x)
		}
		xs.WriteByte('\n')
		if v+0.5*rng.NormFloat64() > 1 {
			ys.WriteString("1\n")
		} else {
			ys.WriteString("-1\n")
		}
	}
	x, y, model := filepath.Join(dir, "x.csv"), filepath.Join(dir, "y.txt"), filepath.Join(dir, "auto.json")
	if err := os.WriteFile(x, []byte(xs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(y, []byte(ys.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", "fit", "--features", x, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	_, out, _ := cli(t, "", "inspect", model)
	if want := "by leave-one-out on 500 of the rows; one fit on all the rows for every committee"; !strings.Contains(out, want) {
		t.Errorf("inspect does not say %q:\n%s", want, out)
	}
	_, out, _ = cli(t, "", "inspect", "--json", model)
	var sum inspectSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if r := sum.Committee.Ridge; !r.Shared || r.LambdaRows != 500 {
		t.Errorf("inspect --json's ridge member %+v, want shared with λ on 500 rows", r)
	}
}

// TestInspectTopHelpSaysEachDefault: --top's help states both defaults a
// table takes without it — inspectTop, cobra's "(default N)", and
// greedytl-auto's combined model's autoTop (which TestInspectAuto checks
// the table shows) — and the long help says autoTop too, so that neither
// names a default the tables do not take.
func TestInspectTopHelpSaysEachDefault(t *testing.T) {
	code, out, stderr := cli(t, "", "inspect", "--help")
	if code != 0 {
		t.Fatalf("inspect --help: exit %d: %s", code, stderr)
	}
	var line string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.Contains(l, "--top int") {
			line = l
		}
	}
	if !strings.Contains(line, fmt.Sprintf("(default %d)", inspectTop)) || !strings.Contains(line, fmt.Sprintf("greedytl-auto's combined model: %d unless given", autoTop)) {
		t.Errorf("--top's help %q does not say the default %d and greedytl-auto's combined model's %d", line, inspectTop, autoTop)
	}
	if want := fmt.Sprintf("largest contributions (%d unless --top is given)", autoTop); !strings.Contains(squeeze(out), want) {
		t.Errorf("inspect's long help lacks %q:\n%s", want, out)
	}
}
