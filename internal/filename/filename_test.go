package filename

import (
	"regexp"
	"testing"
)

// TestSlug checks Slug on examples and, on every example, the properties
// a file-name part needs: only lower-case ASCII letters, digits and single
// '-' between them, at most max bytes.
func TestSlug(t *testing.T) {
	valid := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"obj2", 0, "obj2"},
		{"accept_reservations", 0, "accept-reservations"},
		{"COIL-100 HOG", 0, "coil-100-hog"},
		{"../../etc/passwd", 0, "etc-passwd"},
		{"a / b\\c:d", 0, "a-b-c-d"},
		{"café crème", 0, "caf-cr-me"},
		{"  __  ", 0, "x"},
		{"", 0, "x"},
		{"abcdefgh", 4, "abcd"},
		{"abc defg", 4, "abc"},
		{"greedytl:sample=59", 0, "greedytl-sample-59"},
	} {
		got := Slug(tc.in, "x", tc.max)
		if got != tc.want {
			t.Errorf("Slug(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if !valid.MatchString(got) || tc.max > 0 && len(got) > tc.max {
			t.Errorf("Slug(%q, %d) = %q is not a valid slug of at most %d bytes", tc.in, tc.max, got, tc.max)
		}
	}
}
