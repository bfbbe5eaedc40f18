package main

import (
	"os"
	"strings"
	"testing"
)

// TestFitWritesWholeSettingsInDigits: fit --max-k 1000000 --sample 1234567
// names its method with the settings in decimal digits, as the flags read
// them (the model file, fit's message and inspect), not 1e+06 and
// 1.234567e+06; and a file written before, which holds those, is still
// read: inspect names it in digits and predict scores as with the new
// file.
func TestFitWritesWholeSettingsInDigits(t *testing.T) {
	d := newToy(t)
	const want = "greedytl:max_k=1000000,sample=1234567"
	model := d.fitModel(t, "big.json", "--method", "greedytl", "--max-k", "1000000", "--sample", "1234567")
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"method": "`+want+`"`) {
		t.Fatalf("the model file does not name its method %q:\n%.300s", want, raw)
	}
	code, out, stderr := cli(t, "", "inspect", model)
	if code != 0 || !strings.HasPrefix(out, "method: "+want+"\n") {
		t.Errorf("inspect: exit %d, %q; want method %s\n%s", code, out, want, stderr)
	}
	old := strings.Replace(string(raw), want, "greedytl:max_k=1e+06,sample=1.234567e+06", 1)
	oldModel := writeText(t, d.dir, "old.json", old)
	code, out, stderr = cli(t, "", "inspect", oldModel)
	if code != 0 || !strings.HasPrefix(out, "method: "+want+"\n") {
		t.Errorf("inspect of a file written before: exit %d, %q; want method %s\n%s", code, out, want, stderr)
	}
	newScores, _ := predictLines(t, 200, model, "--features", d.Xtest, "--source-scores", d.Htest)
	oldScores, _ := predictLines(t, 200, oldModel, "--features", d.Xtest, "--source-scores", d.Htest)
	if strings.Join(newScores, " ") != strings.Join(oldScores, " ") {
		t.Errorf("the file written before scores otherwise")
	}
}
