package method

import (
	"errors"
	"fmt"
	"testing"
)

// The summary of a run grouped an N-way method's failures by the whole
// message, which names the class that failed: WithoutClass leaves the
// class out of a classError's message, whatever the class's name, and
// leaves other messages as they are.
func TestWithoutClass(t *testing.T) {
	cause := errors.New("method: best-source needs source scores H")
	for _, class := range []string{"c0", `say "hi": now`, ", class x against the rest: ", "é\t"} {
		e := classError("best-source", class, cause)
		if want := fmt.Sprintf("best-source, class %q against the rest: %v", class, cause); e.Error() != want {
			t.Errorf("classError %q, want %q", e.Error(), want)
		}
		if !errors.Is(e, cause) {
			t.Errorf("%v does not unwrap to its cause", e)
		}
		for _, tc := range [][2]string{
			{e.Error(), "best-source: " + cause.Error()},
			{"fit: " + e.Error(), "fit: best-source: " + cause.Error()},
			{"fit: " + classError("dam", class, e).Error(), "fit: dam: best-source: " + cause.Error()},
		} {
			if got := WithoutClass(tc[0]); got != tc[1] {
				t.Errorf("WithoutClass(%q) = %q, want %q", tc[0], got, tc[1])
			}
		}
	}
	for _, msg := range []string{"", "fit: refusing to fit", `m, class "unterminated against the rest: x`, `m, class c0 against the rest: x`, `m, class "c0" against all: x`} {
		if got := WithoutClass(msg); got != msg {
			t.Errorf("WithoutClass(%q) = %q, want it unchanged", msg, got)
		}
	}
}
