package dataset

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestPythonHiddenTable: the Python package's reader of model files and
// sources indexes (python/greedytl/_model.py, _HIDDEN) refuses the class
// names greedytl refuses, from a table of hiddenKind's runs written out,
// since Python's Unicode tables are not Go's. The table must be
// hiddenKind's over every code point, with the same kinds and the same
// "shows as nothing": when Go's tables or the rule change, regenerate it.
func TestPythonHiddenTable(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "python", "greedytl", "_model.py"))
	if err != nil {
		t.Fatalf("the Python package's model reader: %v", err)
	}
	body, ok := strings.CutPrefix(string(src[strings.Index(string(src), "\n_HIDDEN = (")+1:]), "_HIDDEN = (\n")
	if !ok {
		t.Fatal("python/greedytl/_model.py has no _HIDDEN table")
	}
	body = body[:strings.Index(body, "\n)\n")]
	consts := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(_[A-Z]+) = "([^"]*)"$`).FindAllStringSubmatch(string(src), -1) {
		consts[m[1]] = m[2]
	}
	row := regexp.MustCompile(`^\s*\(0x([0-9A-F]+), 0x([0-9A-F]+), (_[A-Z]+|"[^"]*"), (True|False)\),$`)
	type kind struct {
		what      string
		invisible bool
	}
	table := map[rune]kind{}
	for _, line := range strings.Split(body, "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("_HIDDEN: cannot read %q", line)
		}
		lo, _ := strconv.ParseUint(m[1], 16, 32)
		hi, _ := strconv.ParseUint(m[2], 16, 32)
		what, ok := consts[m[3]]
		if !ok {
			what = strings.Trim(m[3], `"`)
		}
		for r := rune(lo); r <= rune(hi); r++ {
			table[r] = kind{what, m[4] == "True"}
		}
	}
	bad := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		what, invisible := hiddenKind(r)
		got, listed := table[r]
		if (what != "") != listed || listed && got != (kind{what, invisible}) {
			if bad++; bad <= 10 {
				t.Errorf("U+%04X: hiddenKind %q, %v; Python's _HIDDEN %+v (listed %v)", r, what, invisible, got, listed)
			}
		}
	}
	if bad > 10 {
		t.Errorf("and %d more code points", bad-10)
	}
}
