package report

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoadOneSettingTwoSpellings: a run made before modelfile.FormatSetting
// wrote a whole number from 10⁶ on in digits (greedytl:max_k=1e+06, made
// by commit 5ad9e06e) and the same run made today (greedytl:max_k=1000000,
// by 9bef3c33; experiment/testdata/whole-spelling) are reported as one
// grid of three methods, each cell counted once (its second, identical
// record a duplicate), under today's text: experiment's reader upgrades
// the old spelling (modelfile.UpgradeSpec), so the report needs no warning
// of two spellings, and gives none. Before, the report showed five methods,
// greedytl:max_k=1e+06 beside greedytl:max_k=1000000 (and greedytl-59's
// two), with a warning that they were one setting.
func TestLoadOneSettingTwoSpellings(t *testing.T) {
	dir := filepath.Join("..", "experiment", "testdata", "whole-spelling")
	res, err := Load(filepath.Join(dir, "old"), filepath.Join(dir, "new"))
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, row := range Summarize(res.Records) {
		methods = append(methods, row.Method)
		if row.N != 4 {
			t.Errorf("%s: %d cells, want 4", row.Method, row.N)
		}
	}
	want := []string{"greedytl-59:max_k=1000000", "greedytl:max_k=1000000", "no-transfer"}
	slices.Sort(methods)
	if !slices.Equal(methods, want) {
		t.Errorf("methods %q, want %q", methods, want)
	}
	if res.Duplicates != 12 {
		t.Errorf("%d duplicates, want 12 (every cell of one run read again in the other)", res.Duplicates)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "1e+06") || strings.Contains(w, "one setting") {
			t.Errorf("warning of two spellings: %s", w)
		}
	}
	for _, c := range res.Coverage {
		if !c.Complete() {
			t.Errorf("coverage of %s: %d of %d cells", c.Method, c.Present, c.Expected)
		}
	}
}
