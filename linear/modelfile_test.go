package linear

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/bom"
)

// liblinearFiles are the model files written by liblinear-train 2.3 in
// testdata/liblinear (see its README), with what they hold.
var liblinearFiles = []struct {
	name      string
	solver    Solver
	labels    []int
	nrFeature int
	bias      float64
}{
	{"heart_s1.model", L2RL2LossSVCDual, []int{1, -1}, 13, -1},
	{"heart_s3_B1.model", L2RL1LossSVCDual, []int{1, -1}, 13, 1},
	{"heart_s0_B1.model", L2RLR, []int{1, -1}, 13, 1},
	{"heart_s6_B1.model", L1RLR, []int{1, -1}, 13, 1},
	{"heart_s7.model", L2RLRDual, []int{1, -1}, 13, -1},
	{"multiclass_s1.model", L2RL2LossSVCDual, []int{3, 1, 2}, 4, -1},
	{"multiclass_s0_B1.model", L2RLR, []int{3, 1, 2}, 4, 1},
	{"labels21_s1.model", L2RL2LossSVCDual, []int{2, 1}, 3, -1},
}

// TestReadLiblinearFiles reads liblinear's own files and writes them back
// byte for byte, which pins the format down on both sides.
func TestReadLiblinearFiles(t *testing.T) {
	for _, f := range liblinearFiles {
		path := filepath.Join("testdata", "liblinear", f.name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ReadModelFile(path)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		rows := f.nrFeature
		if f.bias >= 0 {
			rows++
		}
		if m.Solver != f.solver || !slices.Equal(m.Labels, f.labels) || m.NrFeature != f.nrFeature || m.Bias != f.bias ||
			m.NrW != nrW(len(f.labels)) || len(m.W) != rows*m.NrW || !m.Converged {
			t.Errorf("%s: read %+v", f.name, m)
		}
		var out bytes.Buffer
		if err := WriteModel(&out, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("%s: written file differs from liblinear's:\n%s\nwant:\n%s", f.name, out.Bytes(), data)
		}
	}
}

func TestModelFileRoundTrip(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-300, 5e-324, -math.MaxFloat64, 1e16, 123456789012345678, 1.0 / 3}
	for _, c := range []struct {
		classes, features int
		bias              float64
	}{{2, 11, -1}, {2, 0, 1}, {3, 4, 0}, {5, 7, 2.5}, {2, 3, 1e-3}} {
		m := randomModel(uint64(c.classes*100+c.features), c.classes, c.features, c.bias)
		copy(m.W, special)
		var buf bytes.Buffer
		if err := WriteModel(&buf, m); err != nil {
			t.Fatal(err)
		}
		// A byte order mark in front (a Windows editor's) is skipped.
		in := strings.NewReader(buf.String())
		if c.classes == 5 {
			in = strings.NewReader(bom.Mark + buf.String())
		}
		got, err := ReadModel(in)
		if err != nil {
			t.Fatal(err)
		}
		if got.Solver != m.Solver || !slices.Equal(got.Labels, m.Labels) || got.NrFeature != m.NrFeature ||
			got.Bias != m.Bias || got.NrW != m.NrW || len(got.W) != len(m.W) {
			t.Fatalf("%+v: read back %+v", c, got)
		}
		for j := range m.W {
			if math.Float64bits(got.W[j]) != math.Float64bits(m.W[j]) {
				t.Errorf("%+v: weight %d read back as %v, wrote %v", c, j, got.W[j], m.W[j])
			}
		}
	}
}

func TestReadModelErrors(t *testing.T) {
	const header = "solver_type L2R_L2LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n"
	cases := []struct {
		name, text, want string
	}{
		{"empty", "", "ends before the \"w\" line"},
		{"header only", "solver_type L2R_LR\nnr_class 2\n", "ends before the \"w\" line"},
		{"no w", "solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1", "ends before the \"w\" line"},
		{"unknown solver", strings.Replace(header, "L2R_L2LOSS_SVC_DUAL", "MCSVM_CS", 1) + "1\n2\n", "line 1: solver_type \"MCSVM_CS\""},
		{"regression", strings.Replace(header, "L2R_L2LOSS_SVC_DUAL", "L2R_L2LOSS_SVR", 1) + "1\n2\n", "line 1: solver_type"},
		{"one-class", strings.Replace(header, "bias -1\n", "bias -1\nrho 0.5\n", 1) + "1\n2\n", "line 6: one-class"},
		{"unknown key", strings.Replace(header, "bias -1\n", "bias -1\ncolour red\n", 1), "line 6: unknown key \"colour\""},
		{"repeated key", strings.Replace(header, "bias -1\n", "bias -1\nbias 1\n", 1), "line 6: key \"bias\" appears twice"},
		{"nr_class 1", strings.Replace(header, "nr_class 2", "nr_class 1", 1), "line 2: nr_class"},
		{"nr_class text", strings.Replace(header, "nr_class 2", "nr_class two", 1), "line 2: nr_class"},
		{"label before nr_class", "label 1 -1\nnr_class 2\n", "line 1: \"label\" before"},
		{"label count", strings.Replace(header, "label 1 -1", "label 1 -1 2", 1), "line 3: 3 labels for nr_class 2"},
		{"label value", strings.Replace(header, "label 1 -1", "label 1 x", 1), "line 3: label \"x\""},
		{"label twice", strings.Replace(header, "label 1 -1", "label 1 1", 1), "line 3: label 1 appears twice"},
		{"nr_feature negative", strings.Replace(header, "nr_feature 2", "nr_feature -2", 1), "line 4: nr_feature"},
		{"bias NaN", strings.Replace(header, "bias -1", "bias nan", 1), "line 5: bias"},
		{"missing key", strings.Replace(header, "nr_feature 2\n", "", 1) + "\n", "lacks \"nr_feature\""},
		{"w argument", strings.Replace(header, "w\n", "w 3\n", 1), "line 6: unexpected"},
		{"two values", header + "1 2\n3\n", "line 7: weight line has 2 values, want 1"},
		{"bad number", header + "1\nabc\n", "line 8: weight \"abc\""},
		{"infinite weight", header + "inf\n2\n", "line 7: weight \"inf\" is not a finite number"},
		{"NaN weight", header + "1\nnan\n", "line 8: weight \"nan\""},
		{"too few", header + "1\n", "ends after 1 of 2 weight lines"},
		{"null weight", header + "null\n2\n", "line 7: weight \"null\" is not a finite number"},
		{"null bias", strings.Replace(header, "bias -1", "bias null", 1), "line 5: bias \"null\" is not a finite number"},
		{"null nr_feature", strings.Replace(header, "nr_feature 2", "nr_feature null", 1), "line 4: nr_feature \"null\""},
		{"too many", header + "1\n2\n3\n", "line 9: extra data"},
		{"blank inside", header + "1\n\n2\n", "line 8: blank line inside"},
		{"multi-class columns", strings.Replace(strings.Replace(header, "nr_class 2", "nr_class 3", 1), "label 1 -1", "label 1 2 3", 1) + "1 2\n", "line 7: weight line has 2 values, want 3"},
	}
	for _, c := range cases {
		_, err := ReadModel(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// Tolerated: blank header lines, CRLF line ends, trailing blank lines,
	// keys in another order, a last line without newline.
	for _, text := range []string{
		"\n" + header + "1\n2\n\n\n",
		strings.ReplaceAll(header+"1 \n2 \n", "\n", "\r\n"),
		"nr_class 2\nbias -1\nlabel 1 -1\nsolver_type L2R_LR\nnr_feature 2\nw\n1\n2",
	} {
		m, err := ReadModel(strings.NewReader(text))
		if err != nil || !slices.Equal(m.W, []float64{1, 2}) {
			t.Errorf("%q: %v, %v", text, m, err)
		}
	}
}

func TestWriteModelRejectsInvalid(t *testing.T) {
	valid := func() *Model { return randomModel(41, 2, 3, 1) }
	cases := []struct {
		name string
		m    *Model
	}{
		{"nil", nil},
		{"unknown solver", func() *Model { m := valid(); m.Solver = 4; return m }()},
		{"one label", func() *Model { m := valid(); m.Labels = m.Labels[:1]; return m }()},
		{"repeated label", func() *Model { m := valid(); m.Labels[1] = m.Labels[0]; return m }()},
		{"NrW", func() *Model { m := valid(); m.NrW = 2; return m }()},
		{"weights", func() *Model { m := valid(); m.W = m.W[:3]; return m }()},
		{"NaN weight", func() *Model { m := valid(); m.W[1] = math.NaN(); return m }()},
		{"Inf bias", func() *Model { m := valid(); m.Bias = math.Inf(1); return m }()},
		{"negative NrFeature", func() *Model { m := valid(); m.NrFeature = -1; return m }()},
	}
	dir := t.TempDir()
	for _, c := range cases {
		if err := WriteModel(&bytes.Buffer{}, c.m); err == nil {
			t.Errorf("%s: WriteModel accepted an invalid model", c.name)
		}
		path := filepath.Join(dir, "m")
		if err := WriteModelFile(path, c.m); err == nil {
			t.Errorf("%s: WriteModelFile accepted an invalid model", c.name)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: WriteModelFile left a file behind", c.name)
		}
	}
}

func TestSaveLoadModel(t *testing.T) {
	m := randomModel(42, 3, 5, 1)
	path := filepath.Join(t.TempDir(), "model")
	if err := WriteModelFile(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadModelFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.W, m.W) || !slices.Equal(got.Labels, m.Labels) {
		t.Errorf("ReadModelFile(WriteModelFile(m)) = %+v, want %+v", got, m)
	}
	if _, err := ReadModelFile(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("LoadModel of a missing file succeeded")
	}
}

// FuzzReadModel checks that ReadModel never panics and that whatever it
// accepts is a valid model that survives a write–read round trip.
func FuzzReadModel(f *testing.F) {
	for _, lf := range liblinearFiles {
		data, err := os.ReadFile(filepath.Join("testdata", "liblinear", lf.name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
		f.Add(bytes.Replace(data, []byte("bias"), []byte("rho 1\nbias"), 1))
		f.Add(bytes.Replace(data, []byte("nr_class 2"), []byte("nr_class 3"), 1))
		f.Add(bytes.Replace(data, []byte(" \n"), []byte(" 1e999\n"), 1))
	}
	f.Add([]byte("solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 99999999999\nbias 1\nw\n"))
	f.Add([]byte("w\n"))
	// The cases of issue 18: a null or NaN weight, a huge feature index.
	const head = "solver_type L2R_L2LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\nnr_feature %s\nbias -1\nw\n"
	f.Add([]byte(fmt.Sprintf(head, "2") + "null \n1 \n"))
	f.Add([]byte(fmt.Sprintf(head, "2") + "NaN \n1 \n"))
	f.Add([]byte(fmt.Sprintf(head, "2000000000") + "0 \n0 \n"))
	f.Add([]byte(fmt.Sprintf(head, "1") + "-0 \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadModel(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := m.check(); err != nil {
			t.Fatalf("ReadModel accepted an invalid model: %v", err)
		}
		var buf bytes.Buffer
		if err := WriteModel(&buf, m); err != nil {
			t.Fatalf("WriteModel: %v", err)
		}
		again, err := ReadModel(&buf)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if again.Solver != m.Solver || !slices.Equal(again.Labels, m.Labels) || again.NrFeature != m.NrFeature ||
			again.Bias != m.Bias || again.NrW != m.NrW || !slices.Equal(again.W, m.W) {
			t.Fatalf("round trip changed the model: %+v → %+v", m, again)
		}
	})
}

// TestWriteModelContext: writing a model stops when its context is done,
// leaving the destination file as it was (absent here), and a cancelled
// context stops it before the weights.
func TestWriteModelContext(t *testing.T) {
	m := &Model{Solver: L2RL2LossSVCDual, Labels: []int{1, -1}, NrW: 1, NrFeature: 1 << 18, Bias: -1, W: make([]float64, 1<<18)}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var buf bytes.Buffer
	if err := WriteModelContext(ctx, &buf, m); !errors.Is(err, context.Canceled) || strings.Count(buf.String(), "\n") > 6 {
		t.Errorf("cancelled: error %v after %d lines, want context.Canceled before the weights", err, strings.Count(buf.String(), "\n"))
	}
	// Cancelled while writing: the writer cancels after 100,000 lines.
	path := filepath.Join(t.TempDir(), "m.model")
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	w := &cancelAfter{lines: 100000, cancel: cancel}
	if err := WriteModelContext(ctx, w, m); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after 131072 of 262144 weight lines") {
		t.Errorf("cancelled while writing: %v", err)
	}
	if err := WriteModelFileContext(ctx, path, m); !errors.Is(err, context.Canceled) {
		t.Errorf("WriteModelFileContext: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}

// cancelAfter counts the lines written to it and calls cancel once there
// are more than lines.
type cancelAfter struct {
	n, lines int
	cancel   func()
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if c.n += bytes.Count(p, []byte("\n")); c.n > c.lines {
		c.cancel()
	}
	return len(p), nil
}

// TestModelFileNilReaderWriter: WriteModel to a nil io.Writer and
// ReadModel or DecodeModel of a nil io.Reader are errors, not the panics
// they were.
func TestModelFileNilReaderWriter(t *testing.T) {
	m := &Model{Solver: L2RLR, Labels: []int{1, -1}, NrFeature: 1, Bias: -1, W: []float64{0.5}, NrW: 1}
	for _, c := range []struct {
		what, want string
		f          func() error
	}{
		{"WriteModel", "linear: writing the model: no writer (nil)", func() error { return WriteModel(nil, m) }},
		{"ReadModel", "no reader (nil)", func() error { _, err := ReadModel(nil); return err }},
		{"DecodeModel", "<stdin>: no reader (nil)", func() error { _, err := DecodeModel(nil, "<stdin>"); return err }},
		// A nil pointer in the interface is no reader or writer either.
		{"WriteModel, nil *bytes.Buffer", "linear: writing the model: no writer (nil)", func() error { return WriteModel((*bytes.Buffer)(nil), m) }},
		{"ReadModel, nil *bytes.Buffer", "no reader (nil)", func() error { _, err := ReadModel((*bytes.Buffer)(nil)); return err }},
		{"DecodeModel, nil *strings.Reader", "m.txt: no reader (nil)", func() error { _, err := DecodeModel((*strings.Reader)(nil), "m.txt"); return err }},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", c.what, r)
				}
			}()
			if err := c.f(); err == nil || err.Error() != c.want {
				t.Errorf("%s: error %v, want %q", c.what, err, c.want)
			}
		}()
	}
}
