package method

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzReadFile checks that ReadFile never panics on a model file of any
// method, and that a file it accepts is written back and read again to
// the same file.
func FuzzReadFile(f *testing.F) {
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range []string{"greedytl", "greedytl-auto", "rls-srcfeat", "dictionary", "l1-logistic"} {
		doc := writeString(f, mustFit(f, name, base))
		f.Add([]byte(doc))
		// The cases of issue 18: a null or NaN number, a huge column
		// index or count, a null object.
		for _, r := range [][2]string{
			{`"weight": `, `"weight": null, "x": `}, {`"b": `, `"b": null, "x": `}, {`"b": `, `"b": NaN, "x": `},
			{`"wx": [`, `"wx": [null, `}, {`"index": `, `"index": 2000000000, "x": `},
			{`"num_sources": `, `"num_sources": 2000000000, "x": `}, {`"x": {`, `"x": null, "y": {`},
			{`"version": 2`, `"version": null`}, {`"sparsity": `, `"sparsity": null, "x": `},
		} {
			if strings.Contains(doc, r[0]) {
				f.Add([]byte(strings.Replace(doc, r[0], r[1], 1)))
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, sources, err := ReadFile(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteFile(&out, m, sources); err != nil {
			t.Fatalf("an accepted %s model fails to write: %v", m.Method(), err)
		}
		m2, sources2, err := ReadFile(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("the written %s model fails to read: %v", m.Method(), err)
		}
		var out2 bytes.Buffer
		if err := WriteFile(&out2, m2, sources2); err != nil || !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("a second round trip of the %s model differs (%v)", m.Method(), err)
		}
	})
}
