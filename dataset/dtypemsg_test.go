package dataset

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestComplexDtype: a .npy array of complex numbers (np.save of complex128
// writes '<c16', of complex64 '<c8'; hand-written headers may spell them
// 'D' or 'complex128') is refused saying it holds complex numbers and how
// to save real ones, by every reader (matrix, labels, DecodeNPY). It said
// only "x.npy: unsupported dtype '<c16'".
func TestComplexDtype(t *testing.T) {
	const advice = ": it holds complex numbers, and greedytl reads real ones: save the real part, np.save(path, a.real), or the magnitudes, np.abs(a), as fits"
	for _, descr := range []string{"<c16", "<c8", ">c16", "|c32", "D", "<F", "complex128", "cdouble"} {
		b := npyFile(1, dict(descr, false, "(2, 1)"), make([]byte, 64))
		path := writeFile(t, "x.npy", b)
		want := "unsupported dtype " + quoteDescr(descr) + advice
		for _, tc := range []struct {
			what, file string
			read       func() error
		}{
			{"ReadMatrix", path, func() error { _, err := ReadMatrix(path); return err }},
			{"ReadNPYMatrix", path, func() error { _, err := ReadNPYMatrix(path); return err }},
			{"ReadLabels", path, func() error { _, err := ReadLabels(path, ""); return err }},
			{"DecodeNPY", "<stdin>", func() error { _, err := DecodeNPY(bytes.NewReader(b), "<stdin>"); return err }},
		} {
			err := tc.read()
			if err == nil || err.Error() != tc.file+": "+want {
				t.Errorf("%s, %s: got %v, want %q", descr, tc.what, err, tc.file+": "+want)
			}
		}
	}
}

// TestMatrixDtypeList: the types a matrix's message of an array of strings
// or objects says features may be are those parseDescr reads: each type
// of every kind and size parseDescr accepts is named (a range "int8 to
// int64" names the sizes between), and no other. It said "float32 or
// float64", where float16, integers and bool are read too.
func TestMatrixDtypeList(t *testing.T) {
	path := writeFile(t, "x.npy", npyFile(1, dict("|O", false, "(2, 1)"), make([]byte, 16)))
	_, err := ReadMatrix(path)
	if err == nil {
		t.Fatal("an object array was read")
	}
	list, ok := strings.CutPrefix(err.Error(), path+": unsupported dtype '|O': features and source scores must be numbers (")
	list, _, ok2 := strings.Cut(list, "), not strings or objects")
	if !ok || !ok2 {
		t.Fatalf("message %q", err)
	}
	// The names the message gives, its ranges expanded.
	var named []string
	for _, item := range strings.Split(strings.ReplaceAll(list, " or ", ", "), ", ") {
		lo, hi, isRange := strings.Cut(item, " to ")
		if !isRange {
			named = append(named, item)
			continue
		}
		kind := strings.TrimRight(lo, "0123456789")
		if !strings.HasPrefix(hi, kind) {
			t.Fatalf("range %q", item)
		}
		a, _ := strconv.Atoi(lo[len(kind):])
		b, _ := strconv.Atoi(hi[len(kind):])
		for bits := a; bits <= b; bits *= 2 {
			named = append(named, kind+strconv.Itoa(bits))
		}
	}
	// The names of what parseDescr reads, NumPy's (np.dtype('<i2').name).
	var read []string
	for _, k := range []struct {
		code byte
		name string
	}{{'f', "float"}, {'i', "int"}, {'u', "uint"}, {'b', "bool"}, {'c', "complex"}, {'U', "str"}, {'S', "bytes"}} {
		for size := 1; size <= 9; size++ {
			if _, err := parseDescr("<" + string(k.code) + strconv.Itoa(size)); err == nil {
				name := k.name + strconv.Itoa(8*size)
				if k.code == 'b' {
					name = "bool"
				}
				read = append(read, name)
			}
		}
	}
	slices.Sort(named)
	slices.Sort(read)
	if !slices.Equal(named, read) {
		t.Errorf("the message names %v, parseDescr reads %v", named, read)
	}
}

// TestUnreadDtypeHint: a .npy array of a NumPy type greedytl does not read
// but for which a number type is at hand (long double, written '<f16' on
// x86-64; datetime64; timedelta64) is refused saying what it holds and
// what to save, by the matrix and label readers and DecodeNPY. They said
// only "unsupported dtype '<M8[s]'". A dtype NumPy has no use for here
// ('<i3') stays bare.
func TestUnreadDtypeHint(t *testing.T) {
	const (
		long  = "it holds long doubles (np.longdouble), and greedytl reads up to float64: save a.astype(np.float64)"
		dates = "it holds dates or times (datetime64), and greedytl reads numbers: save them as numbers, e.g. seconds since 1970, a.astype('datetime64[s]').astype(np.int64)"
		durs  = "it holds durations (timedelta64), and greedytl reads numbers: save them as numbers, e.g. seconds, a / np.timedelta64(1, 's')"
	)
	for _, tc := range []struct{ descr, hint string }{
		{"<f16", long}, {"<f12", long}, {"g", long}, {"longdouble", long},
		{"<M8[s]", dates}, {">M8[ns]", dates}, {"datetime64[D]", dates},
		{"<m8[s]", durs}, {"timedelta64[ms]", durs},
		{"<i3", ""},
	} {
		b := npyFile(1, dict(tc.descr, false, "(2, 1)"), make([]byte, 64))
		path := writeFile(t, "x.npy", b)
		want := "unsupported dtype " + quoteDescr(tc.descr)
		if tc.hint != "" {
			want += ": " + tc.hint
		}
		for _, r := range []struct {
			what, file string
			read       func() error
		}{
			{"ReadMatrix", path, func() error { _, err := ReadMatrix(path); return err }},
			{"ReadLabels", path, func() error { _, err := ReadLabels(path, ""); return err }},
			{"DecodeNPY", "<stdin>", func() error { _, err := DecodeNPY(bytes.NewReader(b), "<stdin>"); return err }},
		} {
			if err := r.read(); err == nil || err.Error() != r.file+": "+want {
				t.Errorf("%s, %s: got %v, want %q", tc.descr, r.what, err, r.file+": "+want)
			}
		}
	}
}
