package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/plural"
)

// TestInspectPerClassAsBinary: inspect shows each class of a multi-class
// model as it shows a binary model of the class's kind. Fitted one class
// against the rest by a greedy method (greedytl, forward-reg), a class's
// entry of --json's "per_class" is, field for field ("greedy", "selected"
// with each step's "reg_error" and "loo_error"), what inspect --json
// prints of the binary model fitted with --positive that class (the peer),
// and its table is that model's (selection order, "step", the errors),
// not a "rank" table, which said decreasing |weight| of a list in
// selection order; a linear baseline's classes (l1-logistic) are by
// decreasing |weight|, "greedy": false. "per_class" had neither the order
// nor the errors.
func TestInspectPerClassAsBinary(t *testing.T) {
	dir := t.TempDir()
	x, h, y, _, _, _ := multiFiles(t, dir)
	fit := func(out string, args ...string) string {
		t.Helper()
		path := filepath.Join(dir, out)
		args = append([]string{"fit", "--features", x, "--source-scores", h, "--labels", y, "--seed", "1", "--out", path}, args...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		return path
	}
	inspect := func(args ...string) string {
		t.Helper()
		code, out, stderr := cli(t, "", append([]string{"inspect"}, args...)...)
		if code != 0 {
			t.Fatalf("inspect %v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	type entry struct {
		Greedy   *bool            `json:"greedy"`
		Selected []map[string]any `json:"selected"`
	}
	for _, tc := range []struct {
		method string
		greedy bool
	}{{"greedytl", true}, {"forward-reg", true}, {"l1-logistic", false}} {
		multi := fit(tc.method+".json", "--method", tc.method)
		var sum struct {
			PerClass []struct {
				Class string `json:"class"`
				entry
			} `json:"per_class"`
		}
		if err := json.Unmarshal([]byte(inspect("--json", multi)), &sum); err != nil {
			t.Fatal(err)
		}
		if len(sum.PerClass) != 3 {
			t.Fatalf("%s: %d classes in per_class, want 3", tc.method, len(sum.PerClass))
		}
		table := inspect(multi)
		for _, pc := range sum.PerClass {
			if pc.Greedy == nil || *pc.Greedy != tc.greedy {
				t.Errorf("%s, class %s: \"greedy\" %v, want %v", tc.method, pc.Class, pc.Greedy, tc.greedy)
			}
			if !tc.greedy {
				continue
			}
			bin := fit(tc.method+"-"+pc.Class+".json", "--method", tc.method, "--positive", pc.Class)
			var b entry
			if err := json.Unmarshal([]byte(inspect("--json", bin)), &b); err != nil {
				t.Fatal(err)
			}
			if len(b.Selected) == 0 || !reflect.DeepEqual(pc.entry, b) {
				t.Errorf("%s, class %s: per_class entry %+v; want the binary model's (--positive %s) %+v", tc.method, pc.Class, pc.entry, pc.Class, b)
			}
			// The class's table is the binary model's, after its header.
			binTable := inspect(bin)
			rows := binTable[strings.Index(binTable, "\n\n")+2:]
			if !strings.HasPrefix(strings.TrimLeft(rows, " "), "step") || !strings.Contains(table, "\nclass \""+pc.Class+"\": "+plural.Count(len(b.Selected), "column", "columns")+"\n"+rows) {
				t.Errorf("%s, class %s: table\n%s\nwant the binary model's rows\n%s", tc.method, pc.Class, table, rows)
			}
		}
	}
}
