package method

import (
	"regexp"
	"strings"
	"testing"
)

// numberToken matches a JSON number that is a member's value or an array
// element (group 1: what precedes it, group 2: the number).
var numberToken = regexp.MustCompile(`([:\[,]\s*)(-?[0-9][0-9.eE+-]*)`)

// TestReadModelRefusesNull: in every method's model file, each number set
// to null in turn is refused, and the error names where it is — JSON null
// would otherwise decode silently to 0.
func TestReadModelRefusesNull(t *testing.T) {
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			doc := writeString(t, mustFit(t, name, base))
			if _, err := ReadModel(strings.NewReader(doc)); err != nil {
				t.Fatal(err)
			}
			locs := numberToken.FindAllStringSubmatchIndex(doc, -1)
			if len(locs) < 3 {
				t.Fatalf("%d numbers in the file:\n%s", len(locs), doc)
			}
			// At most about 200 a file (the dictionary's has thousands;
			// 40 with -short): every stride-th, the last one included.
			budget := 200
			if testing.Short() {
				budget = 40
			}
			stride := max(1, len(locs)/budget)
			for k, loc := range locs {
				if k%stride != 0 && k != len(locs)-1 {
					continue
				}
				nulled := doc[:loc[4]] + "null" + doc[loc[5]:]
				_, err := ReadModel(strings.NewReader(nulled))
				if err == nil || !strings.Contains(err.Error(), " is null; want a number") {
					line := strings.Count(doc[:loc[4]], "\n") + 1
					t.Errorf("number %s on line %d set to null: error %v, want one naming the member", doc[loc[4]:loc[5]], line, err)
				}
			}
		})
	}
}
