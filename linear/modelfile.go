package linear

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/bom"
	"github.com/greedytl/greedytl/internal/number"
	"github.com/greedytl/greedytl/internal/typednil"
)

// WriteModel writes m to w in liblinear's model file format, which
// liblinear-predict reads:
//
//	solver_type L2R_L2LOSS_SVC_DUAL
//	nr_class 2
//	label 1 -1
//	nr_feature 13
//	bias 1
//	w
//	0.12
//	...
//
// one line per feature (then one for the bias feature) holding its NrW
// weights, each printed with C's "%.17g " (so they round-trip exactly),
// trailing space included. Solvers liblinear lacks are written under their
// greedytl names, which liblinear does not read. WriteModel returns an error
// for an inconsistent model (see ReadModel for the invariants), for a nil
// w and for a failed write.
func WriteModel(w io.Writer, m *Model) error {
	return WriteModelContext(context.Background(), w, m)
}

// WriteModelContext is WriteModel, stopping with ctx's error (wrapped)
// when ctx is done while it writes the weights: a model of many features
// can take long to write.
func WriteModelContext(ctx context.Context, w io.Writer, m *Model) error {
	if err := m.check(); err != nil {
		return err
	}
	if typednil.Is(w) {
		return errors.New("linear: writing the model: no writer (nil)")
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "solver_type %s\n", m.Solver)
	fmt.Fprintf(bw, "nr_class %d\n", len(m.Labels))
	bw.WriteString("label")
	for _, l := range m.Labels {
		fmt.Fprintf(bw, " %d", l)
	}
	bw.WriteString("\n")
	fmt.Fprintf(bw, "nr_feature %d\n", m.NrFeature)
	fmt.Fprintf(bw, "bias %s\n", formatG17(m.Bias))
	bw.WriteString("w\n")
	var buf []byte
	for r := 0; r < len(m.W)/m.NrW; r++ {
		if r%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("linear: writing the model stopped after %d of %d weight lines: %w", r, len(m.W)/m.NrW, err)
			}
		}
		buf = buf[:0]
		for _, v := range m.W[r*m.NrW : (r+1)*m.NrW] {
			buf = strconv.AppendFloat(buf, v, 'g', 17, 64)
			buf = append(buf, ' ')
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err // a full disk: stop at once
		}
	}
	return bw.Flush()
}

// formatG17 formats v as C's printf("%.17g") does for finite values, which
// is what Go's 'g' format with precision 17 produces.
func formatG17(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }

// WriteModelFile writes m to the file path in liblinear's format
// (WriteModel), atomically: a reader never sees a partial file.
func WriteModelFile(path string, m *Model) error {
	return WriteModelFileContext(context.Background(), path, m)
}

// WriteModelFileContext is WriteModelFile, stopping as WriteModelContext
// does when ctx is done; the file is then left as it was.
func WriteModelFileContext(ctx context.Context, path string, m *Model) error {
	if err := m.check(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return WriteModelContext(ctx, w, m) })
}

// ReadModelFile reads the liblinear model file at path (ReadModel); its
// errors name the file and the line ("path:line: …").
func ReadModelFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readModel(f, path)
}

// check verifies the invariants of a model: a named solver, at least two
// distinct labels, NrW = 1 for two labels and NrW = len(Labels) otherwise,
// NrFeature ≥ 0, len(W) = (NrFeature + 1 if Bias ≥ 0)·NrW, finite weights
// and bias.
func (m *Model) check() error {
	if m == nil {
		return errors.New("linear: nil model")
	}
	if _, ok := solverNames[m.Solver]; !ok {
		return fmt.Errorf("linear: model has unknown solver %d", int(m.Solver))
	}
	if len(m.Labels) < 2 {
		return fmt.Errorf("linear: model has %d labels, want at least 2", len(m.Labels))
	}
	seen := make(map[int]bool, len(m.Labels))
	for _, l := range m.Labels {
		if seen[l] {
			return fmt.Errorf("linear: model has label %d twice", l)
		}
		seen[l] = true
	}
	if want := nrW(len(m.Labels)); m.NrW != want {
		return fmt.Errorf("linear: model of %d classes has NrW = %d, want %d", len(m.Labels), m.NrW, want)
	}
	if m.NrFeature < 0 {
		return fmt.Errorf("linear: model has NrFeature = %d", m.NrFeature)
	}
	if math.IsNaN(m.Bias) || math.IsInf(m.Bias, 0) {
		return fmt.Errorf("linear: model bias %v is not finite", m.Bias)
	}
	rows := m.NrFeature
	if m.hasBias() {
		rows++
	}
	if len(m.W) != rows*m.NrW {
		return fmt.Errorf("linear: model has %d weights, want %d×%d", len(m.W), rows, m.NrW)
	}
	for j, v := range m.W {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("linear: model weight %d is %v", j, v)
		}
	}
	return nil
}

// nrW is liblinear's number of decision functions for k classes.
func nrW(k int) int {
	if k == 2 {
		return 1
	}
	return k
}

// Limits that keep a corrupt header from overflowing the size arithmetic
// (greedytl version --json reports them, for readers of model files in
// other languages).
const (
	// MaxModelFeatures is the largest nr_feature ReadModel accepts.
	MaxModelFeatures = min(1<<40, math.MaxInt)
	// MaxModelClasses is the largest nr_class ReadModel accepts.
	MaxModelClasses = 1 << 20
)

// ReadModel reads a liblinear model file (of liblinear 1.x to 2.4x) from r;
// its errors give the line number ("line 7: …"; ReadModelFile's also name
// the file). Multi-class files are read with all their NrW columns. The header keys may come in
// any order before the "w" line, blank header lines are skipped, and each
// weight line must hold exactly NrW numbers.
//
// It returns an error for solvers greedytl does not know (regression,
// Crammer–Singer and one-class models, which also carry a "rho" line),
// missing, repeated or unknown keys, malformed numbers, non-finite weights,
// fewer than two or repeated labels, missing or extra weight lines, and a
// nil r.
// The model reports Converged = true (files do not record convergence).
func ReadModel(r io.Reader) (*Model, error) { return readModel(r, "") }

// DecodeModel is ReadModel naming name in its errors as ReadModelFile
// names its path ("name:line: …"): for a model file already open (read
// once, as a pipe must be), or standard input named as the caller names it.
func DecodeModel(r io.Reader, name string) (*Model, error) { return readModel(r, name) }

// readModel is ReadModel, naming the file name in its errors when name is
// not empty: the header, then the weights it announces.
func readModel(r io.Reader, name string) (*Model, error) {
	if typednil.Is(r) {
		if name != "" {
			return nil, fmt.Errorf("%s: no reader (nil)", name)
		}
		return nil, errors.New("no reader (nil)")
	}
	mr := &modelReader{br: bom.Skip(r), name: name}
	m := &Model{Converged: true}
	nrClass, err := mr.header(m)
	if err != nil {
		return nil, err
	}
	m.NrW = nrW(nrClass)
	if err := mr.weights(m); err != nil {
		return nil, err
	}
	return m, nil
}

// modelReader reads a liblinear model file line by line, keeping the line
// number for its errors.
type modelReader struct {
	br   *bufio.Reader
	name string
	line int
}

// at returns the position for an error: "name:line", or "line N".
func (mr *modelReader) at() string {
	if mr.name == "" {
		return fmt.Sprintf("line %d", mr.line)
	}
	return fmt.Sprintf("%s:%d", mr.name, mr.line)
}

// fail returns an error at the current line.
func (mr *modelReader) fail(format string, args ...any) error {
	return fmt.Errorf("%s: %s", mr.at(), fmt.Sprintf(format, args...))
}

// next returns the fields of the next line and whether it was the last
// (eof); at the end of the input it returns no fields, eof true and
// ended true.
func (mr *modelReader) next() (fields []string, eof, ended bool, err error) {
	text, err := mr.br.ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, false, false, fmt.Errorf("%s: %w", mr.at(), err)
	}
	if text == "" && err == io.EOF {
		return nil, true, true, nil
	}
	mr.line++
	return strings.Fields(text), err == io.EOF, false, nil
}

// header reads the header up to the "w" line into m and returns nr_class.
func (mr *modelReader) header(m *Model) (nrClass int, err error) {
	nrClass = -1
	seen := map[string]bool{}
	for {
		f, eof, ended, err := mr.next()
		if err != nil {
			return 0, err
		}
		if ended {
			return 0, fmt.Errorf("%s: file ends before the \"w\" line", mr.at())
		}
		if len(f) == 0 {
			if eof {
				return 0, mr.fail("file ends before the \"w\" line")
			}
			continue
		}
		key, args := f[0], f[1:]
		if seen[key] {
			return 0, mr.fail("key %q appears twice", key)
		}
		seen[key] = true
		if key == "w" {
			if len(args) != 0 {
				return 0, mr.fail("unexpected %q after \"w\"", strings.Join(args, " "))
			}
			break
		}
		if err := mr.headerKey(m, key, args, &nrClass); err != nil {
			return 0, err
		}
		if eof {
			return 0, mr.fail("file ends before the \"w\" line")
		}
	}
	for _, k := range []string{"solver_type", "nr_class", "label", "nr_feature", "bias"} {
		if !seen[k] {
			return 0, mr.fail("header lacks %q", k)
		}
	}
	return nrClass, nil
}

// headerKey sets the header key's value (args) in m, or in nrClass.
func (mr *modelReader) headerKey(m *Model, key string, args []string, nrClass *int) error {
	if key == "rho" {
		return mr.fail("one-class models (key \"rho\") are not supported")
	}
	if key != "label" && len(args) != 1 {
		return mr.fail("key %q wants one value, has %d", key, len(args))
	}
	switch key {
	case "solver_type":
		s, err := ParseSolver(args[0])
		if err != nil {
			return mr.fail("solver_type %q is not a classifier greedytl knows", args[0])
		}
		m.Solver = s
	case "nr_class":
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 2 || n > MaxModelClasses {
			return mr.fail("nr_class %q, want an integer in [2, %d]", args[0], MaxModelClasses)
		}
		*nrClass = n
	case "label":
		if *nrClass < 0 {
			return mr.fail("\"label\" before \"nr_class\"")
		}
		if len(args) != *nrClass {
			return mr.fail("%d labels for nr_class %d", len(args), *nrClass)
		}
		m.Labels = make([]int, len(args))
		dup := make(map[int]bool, len(args))
		for i, a := range args {
			v, err := strconv.ParseInt(a, 10, 32)
			if err != nil {
				return mr.fail("label %q is not a 32-bit integer", a)
			}
			if dup[int(v)] {
				return mr.fail("label %d appears twice", v)
			}
			dup[int(v)] = true
			m.Labels[i] = int(v)
		}
	case "nr_feature":
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 || n > MaxModelFeatures {
			return mr.fail("nr_feature %q, want an integer in [0, %d]", args[0], MaxModelFeatures)
		}
		m.NrFeature = n
	case "bias":
		b, err := number.Parse(args[0])
		if err != nil || math.IsNaN(b) || math.IsInf(b, 0) {
			return mr.fail("bias %q is not a finite number", args[0])
		}
		m.Bias = b
	default:
		return mr.fail("unknown key %q", key)
	}
	return nil
}

// weights reads the weight lines that m's header announces (NrW values a
// line, one line per feature and one for the bias) into m.W.
func (mr *modelReader) weights(m *Model) error {
	rows := m.NrFeature
	if m.hasBias() {
		rows++
	}
	m.W = make([]float64, 0, min(rows*m.NrW, 1<<16))
	for {
		f, eof, ended, err := mr.next()
		if err != nil {
			return err
		}
		if ended {
			break
		}
		switch {
		case len(f) == 0:
			// Blank lines may only trail the weights.
		case len(m.W) == rows*m.NrW:
			return mr.fail("extra data after the %d weight lines", rows)
		case len(f) != m.NrW:
			return mr.fail("weight line has %d values, want %d", len(f), m.NrW)
		default:
			for _, a := range f {
				v, perr := number.Parse(a)
				if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return mr.fail("weight %q is not a finite number", a)
				}
				m.W = append(m.W, v)
			}
		}
		if len(f) == 0 && len(m.W) < rows*m.NrW && !eof {
			return mr.fail("blank line inside the weights")
		}
		if eof {
			break
		}
	}
	if len(m.W) != rows*m.NrW {
		return fmt.Errorf("%s: file ends after %d of %d weight lines", mr.at(), len(m.W)/m.NrW, rows)
	}
	return nil
}
