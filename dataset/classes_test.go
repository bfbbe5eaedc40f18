package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReadClasses reads labels of several classes: numbers in numeric
// order (in their shortest form), names sorted, a header above numbers
// dropped; Binary maps one class against the rest, or two classes as
// ReadLabels does.
func TestReadClasses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text  string
		names []string
		y     []int
	}{
		{"10\n2\n2.0\n-1\n", []string{"-1", "2", "10"}, []int{2, 1, 1, 0}},
		{"owl\ncat\ndog\ncat\n", []string{"cat", "dog", "owl"}, []int{2, 0, 1, 0}},
		{"owl\ncat\ndog\n", []string{"cat", "dog", "owl"}, []int{2, 0, 1}},
		{"label\ncat\ndog\ncat\ndog\n", []string{"cat", "dog"}, []int{0, 1, 0, 1}},
		{"label\n3\n1\n2\n", []string{"1", "2", "3"}, []int{2, 0, 1}},
		{"a,b,c,a\n", []string{"a", "b", "c"}, []int{0, 1, 2, 0}},
	} {
		p := filepath.Join(dir, "y.txt")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadClasses(p)
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if !slices.Equal(c.Names, tc.names) || !slices.Equal(c.Y, tc.y) {
			t.Errorf("%q: names %v, y %v; want %v, %v", tc.text, c.Names, c.Y, tc.names, tc.y)
		}
	}
	p := filepath.Join(dir, "y.txt")
	if err := os.WriteFile(p, []byte("1\n2\n3\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadClasses(p)
	if err != nil {
		t.Fatal(err)
	}
	y, pos, neg, err := c.Binary("2.0")
	if err != nil || !slices.Equal(y, []float64{-1, 1, -1, 1}) || pos != "2" || !slices.Equal(neg, []string{"1", "3"}) {
		t.Errorf("Binary(2.0) = %v, %q, %v, %v", y, pos, neg, err)
	}
	if _, _, _, err := c.Binary(""); err == nil {
		t.Error("Binary without a positive label over three classes: no error")
	}
	if _, _, _, err := c.Binary("7"); err == nil {
		t.Error("Binary with an unknown positive label: no error")
	}
	if err := os.WriteFile(p, []byte("0\n1\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ = ReadClasses(p)
	if y, pos, neg, err := c.Binary(""); err != nil || !slices.Equal(y, []float64{-1, 1, 1}) || pos != "1" || !slices.Equal(neg, []string{"0"}) {
		t.Errorf("Binary of {0, 1} = %v, %q, %v, %v", y, pos, neg, err)
	}
}
