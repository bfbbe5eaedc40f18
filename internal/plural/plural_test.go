package plural

import "testing"

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 figures", 1: "1 figure", 2: "2 figures", -1: "-1 figures"} {
		if got := Count(n, "figure", "figures"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestWord(t *testing.T) {
	for n, want := range map[int]string{0: "are", 1: "is", 2: "are", -1: "are"} {
		if got := Word(n, "is", "are"); got != want {
			t.Errorf("Word(%d) = %q, want %q", n, got, want)
		}
	}
}
