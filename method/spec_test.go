package method

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in, canonical string
		want          Spec
	}{
		{"greedytl", "greedytl", Spec{Name: "greedytl"}},
		{"greedytl-sp:gamma=0.25", "greedytl-sp:gamma=0.25", Spec{"greedytl-sp", map[string]float64{"gamma": 0.25}}},
		{"greedytl-sp:gamma=.25", "greedytl-sp:gamma=0.25", Spec{"greedytl-sp", map[string]float64{"gamma": 0.25}}},
		{"greedytl:lambda=1e1,delta=0.001", "greedytl:delta=0.001,lambda=10", Spec{"greedytl", map[string]float64{"lambda": 10, "delta": 1e-3}}},
		{"greedytl:stop_at_min_loo=true,max_k=5", "greedytl:max_k=5,stop_at_min_loo=1", Spec{"greedytl", map[string]float64{"stop_at_min_loo": 1, "max_k": 5}}},
		{"greedytl:stop_at_min_loo=false", "greedytl:stop_at_min_loo=0", Spec{"greedytl", map[string]float64{"stop_at_min_loo": 0}}},
		{"greedytl-59:sample=30", "greedytl-59:sample=30", Spec{"greedytl-59", map[string]float64{"sample": 30}}},
		{"x:a=-0,b=1e-300,c=123456789012", "x:a=-0,b=1e-300,c=1.23456789012e+11", Spec{"x", map[string]float64{"a": 0, "b": 1e-300, "c": 123456789012}}},
		// key=auto is auto_key=1, as --lambda auto is (modelfile.IsAuto).
		{"greedytl:lambda=auto", "greedytl:auto_lambda=1", Spec{"greedytl", map[string]float64{"auto_lambda": 1}}},
		{"greedytl:delta=0.1,lambda=AUTO", "greedytl:auto_lambda=1,delta=0.1", Spec{"greedytl", map[string]float64{"auto_lambda": 1, "delta": 0.1}}},
	} {
		got, err := ParseSpec(tc.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tc.in, err)
			continue
		}
		if got.Name != tc.want.Name || !maps.Equal(got.Params, tc.want.Params) {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		if s := got.String(); s != tc.canonical {
			t.Errorf("ParseSpec(%q).String() = %q, want %q", tc.in, s, tc.canonical)
		}
		again, err := ParseSpec(got.String())
		if err != nil || again.String() != got.String() || !maps.Equal(again.Params, got.Params) {
			t.Errorf("the canonical form %q does not parse back to itself: %+v, %v", got.String(), again, err)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{"", "empty method name"},
		{":gamma=1", "empty method name"},
		{"greedytl:", "no settings after the colon"},
		{"greedytl:gamma", `"gamma" is not key=value`},
		{"greedytl:=1", "has no key"},
		{"greedytl:gamma=1,", `"" is not key=value`},
		{"greedytl:gamma=1,gamma=2", "gamma is set twice"},
		{"greedytl:gamma=abc", `value "abc" is not a number`},
		{"greedytl:gamma=", `value "" is not a number`},
		{"greedytl:gamma=NaN", "not finite"},
		{"greedytl:gamma=-Inf", "not finite"},
		{"greedytl:lambda=1e400", `method: spec "greedytl:lambda=1e400": lambda: value "1e400" is beyond the largest float64`},
		// Read as λ = 10 and δ = 0 before (ParseFloat's syntax).
		{"greedytl:lambda=1_0", `method: spec "greedytl:lambda=1_0": lambda: value "1_0" is not a number`},
		{"greedytl:delta=1e-400", `method: spec "greedytl:delta=1e-400": delta: value "1e-400" is not zero but rounds to 0 in float64`},
		{"greedytl=1", "after a colon"},
		{"greedytl,greedytl-sp", "after a colon"},
		{"greedytl:a b=1", "colon or a blank"},
		{"greedytl:a=1:b=2", `value "1:b=2" is not a number`},
		{"greedytl:lambda=auto,auto_lambda=1", "auto_lambda is set twice"},
		{"greedytl:lambda=autox", `value "autox" is not a number`},
		// A whole-number setting reads what --sample and --max-k read
		// (decimal digits): 0x1p1 read as 2, 2.0 and 1e1 as whole numbers.
		{"greedytl:sample=0x1p1", `method: spec "greedytl:sample=0x1p1": sample=0x1p1: want a whole number in decimal digits (as --sample reads one)`},
		{"greedytl:max_k=2.0", `max_k=2.0: want a whole number in decimal digits (as --max-k reads one)`},
		{"greedytl-59:sample=1e1", `sample=1e1: want a whole number in decimal digits`},
		{"greedytl:sample=true", `sample=true: want a whole number in decimal digits`},
	} {
		_, err := ParseSpec(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseSpec(%q): error %v, want one containing %q", tc.in, err, tc.msg)
		}
	}
}

// FuzzParseSpec checks that whatever parses has a canonical form that
// parses back to the same spec and is its own canonical form.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"greedytl", "greedytl-sp:gamma=0.25", "a:b=1,c=-2e-3", "x:y=true", "x:", ":", "a:b=1,,c=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseSpec(s)
		if err != nil {
			return
		}
		c := spec.String()
		again, err := ParseSpec(c)
		if err != nil {
			t.Fatalf("canonical form %q of %q: %v", c, s, err)
		}
		if again.Name != spec.Name || !maps.Equal(again.Params, spec.Params) || again.String() != c {
			t.Fatalf("%q → %q → %+v", s, c, again)
		}
	})
}

// A spec sets the options of the GreedyTL methods; the method's and its
// models' name is the canonical spec.
func TestNewSpecGreedy(t *testing.T) {
	def := greedytl.DefaultOptions()
	with := func(f func(*greedytl.Options)) greedytl.Options {
		o := def
		f(&o)
		return o
	}
	for _, tc := range []struct {
		spec, name string
		opts       greedytl.Options
	}{
		{"greedytl", "greedytl", def},
		{"greedytl-sp", "greedytl-sp", with(func(o *greedytl.Options) { o.FeatureFactor = spFeatureFactor })},
		{"greedytl-sp:gamma=.25", "greedytl-sp:gamma=0.25", with(func(o *greedytl.Options) { o.FeatureFactor = 0.25 })},
		{"greedytl-sp:gamma=0", "greedytl-sp:gamma=0", with(func(o *greedytl.Options) { o.FeatureFactor = 0 })},
		{"greedytl:lambda=10", "greedytl:lambda=10", with(func(o *greedytl.Options) { o.Lambda = 10 })},
		{"greedytl:delta=0", "greedytl:delta=0", with(func(o *greedytl.Options) { o.Delta = 0 })},
		{"greedytl:max_k=3,gamma=2", "greedytl:gamma=2,max_k=3", with(func(o *greedytl.Options) { o.MaxK, o.FeatureFactor = 3, 2 })},
		{"greedytl:stop_at_min_loo=true", "greedytl:stop_at_min_loo=1", with(func(o *greedytl.Options) { o.StopAtMinLOO = true })},
		{"greedytl-59:sample=30", "greedytl-59:sample=30", with(func(o *greedytl.Options) { o.Sample = 30 })},
		{"greedytl-59:lambda=0.5", "greedytl-59:lambda=0.5", with(func(o *greedytl.Options) { o.Sample, o.Lambda = 59, 0.5 })},
		{"greedytl-sp:gamma=0.25,lambda=100", "greedytl-sp:gamma=0.25,lambda=100", with(func(o *greedytl.Options) { o.FeatureFactor, o.Lambda = 0.25, 100 })},
		// Relative to the registration named, even with another's options
		// (see CanonicalSpec): the root package's name for the model.
		{"greedytl:sample=59", "greedytl:sample=59", with(func(o *greedytl.Options) { o.Sample = 59 })},
		{"greedytl-sp:gamma=1", "greedytl-sp:gamma=1", def},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			meth, err := New(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			g, ok := meth.(*GreedyTL)
			if !ok {
				t.Fatalf("New(%q) is a %T", tc.spec, meth)
			}
			if g.Name() != tc.name || g.Options != tc.opts {
				t.Errorf("New(%q) = %q with %+v, want %q with %+v", tc.spec, g.Name(), g.Options, tc.name, tc.opts)
			}
			if c, err := CanonicalSpec(tc.spec); c != tc.name || err != nil {
				t.Errorf("CanonicalSpec(%q) = %q, %v", tc.spec, c, err)
			}
			if r, err := Lookup(tc.spec); err != nil || r.Name != strings.Split(tc.spec, ":")[0] {
				t.Errorf("Lookup(%q) = %q, %v", tc.spec, r.Name, err)
			}
			// The fit is greedytl.Fit with these options.
			c := newConformanceCase(5, 16, 4, 6, 10)
			model, err := meth.Fit(context.Background(), c.train, c.extra)
			if err != nil {
				t.Fatal(err)
			}
			o := tc.opts
			o.Seed = c.extra.Seed
			want, err := greedytl.Fit(context.Background(), c.train.X, c.train.H, c.train.Y, o)
			if err != nil {
				t.Fatal(err)
			}
			got := rootModel(t, model)
			if !slices.Equal(got.Selected, want.Selected) || !slices.Equal(got.Weights, want.Weights) {
				t.Errorf("selected %v weights %v, greedytl.Fit gives %v %v", got.Selected, got.Weights, want.Selected, want.Weights)
			}
			if model.Method() != tc.name {
				t.Errorf("model.Method() = %q, want %q", model.Method(), tc.name)
			}
			if hp := model.Hyperparameters(); !maps.Equal(hp, want.Options.Hyperparameters()) {
				t.Errorf("hyperparameters %v, want %v", hp, want.Options.Hyperparameters())
			}

			// The model file records the spec and reads back.
			var buf bytes.Buffer
			if err := WriteModel(&buf, model); err != nil {
				t.Fatal(err)
			}
			var head struct{ Method string }
			if err := json.Unmarshal(buf.Bytes(), &head); err != nil || head.Method != tc.name {
				t.Errorf("the file's method is %q (%v), want %q", head.Method, err, tc.name)
			}
			read, err := ReadModel(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if read.Method() != tc.name {
				t.Errorf("read model's Method() = %q", read.Method())
			}
			f, _ := model.Predict(c.test)
			if fr, err := read.Predict(c.test); err != nil || !slices.Equal(f, fr) {
				t.Errorf("the model read back predicts differently (%v)", err)
			}
			var buf2 bytes.Buffer
			if err := WriteModel(&buf2, read); err != nil || !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
				t.Errorf("rewriting the read model gave a different file (%v)", err)
			}
		})
	}
}

func TestNewSpecErrors(t *testing.T) {
	for _, tc := range []struct{ spec, msg string }{
		{"greedytl:alpha=1", `unknown key "alpha"`},
		{"greedytl:alpha=1", "lambda"}, // the message lists the keys
		{"greedytl:lambda=0", "lambda must be positive"},
		{"greedytl:lambda=-1", "lambda must be positive"},
		{"greedytl:delta=-1e-9", "delta must be ≥ 0"},
		{"greedytl-sp:gamma=-0.5", "gamma (the feature factor) must be ≥ 0"},
		{"greedytl:max_k=1.5", "max_k must be a whole number"},
		{"greedytl:max_k=-1", "max_k must be a whole number"},
		{"greedytl-59:sample=-3", "sample must be a whole number"},
		{"greedytl:stop_at_min_loo=2", "stop_at_min_loo must be true or false"},
		{"no-transfer:lambda=1", "no-transfer takes no settings"},
		{"forward-reg:delta=0.1", "forward-reg takes no settings"},
		{"greedytl-auto:gamma=1", "greedytl-auto takes single_fit"},
		{"lasso:alpha=1", `unknown method "lasso"`},
		{"greedytl:lambda", "not key=value"},
		{"greedytl:gamma=auto", `spec "greedytl:gamma=auto": "auto_gamma" (gamma=auto): GreedyTL chooses only lambda itself (lambda=auto)`},
		// auto_C named with its spelling key=auto, by every method, since
		// the user may have typed either.
		{"l1-logistic:C=auto", `spec "l1-logistic:C=auto": unknown key "auto_C" (C=auto); l1-logistic takes exact=0 or exact=1`},
		{"l1-logistic:auto_C=1", `spec "l1-logistic:auto_C=1": unknown key "auto_C" (C=auto); l1-logistic takes exact=0 or exact=1`},
		{"greedytl:C=auto", `spec "greedytl:C=auto": unknown key "auto_C" (C=auto); GreedyTL takes auto_lambda, delta`},
		{"l1-logistic:auto_auto_x=1", `spec "l1-logistic:auto_auto_x=1": unknown key "auto_auto_x"; l1-logistic takes`},
		{"l1-logistic:Cs=1", `spec "l1-logistic:Cs=1": unknown key "Cs"; l1-logistic takes exact=0 or exact=1`},
		{"greedytl:auto_lambda=auto", `spec "greedytl:auto_lambda=auto": auto_lambda=auto: write lambda=auto or auto_lambda=1`},
		{"no-transfer:lambda=auto", `no-transfer takes no settings (spec "no-transfer:lambda=auto")`},
		{"greedytl:lambda=auto,lambda=2", "lambda and auto_lambda=true exclude each other"},
		// A native multi-class method fits two classes too, through
		// NewMulti: the message says so, not "three or more classes".
		{"nearest-mean", "nearest-mean is a multi-class method: it fits class labels, two classes or more, through NewMulti, not ±1 labels through New (binary methods: greedytl,"},
	} {
		if _, err := New(tc.spec); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("New(%q): error %v, want one containing %q", tc.spec, err, tc.msg)
		}
		if _, err := Lookup(tc.spec); err == nil {
			t.Errorf("Lookup(%q): no error", tc.spec)
		}
		if _, err := CanonicalSpec(tc.spec); err == nil {
			t.Errorf("CanonicalSpec(%q): no error", tc.spec)
		}
	}
}

// ReadModel checks that a spec-named file's options are the spec's, and
// rejects specs of methods without settings.
func TestReadModelSpecMismatch(t *testing.T) {
	c := newConformanceCase(6, 16, 4, 6, 10)
	file := writeString(t, mustFit(t, "greedytl-sp:gamma=0.25", c))
	for _, tc := range []struct{ from, to, msg string }{
		{`"greedytl-sp:gamma=0.25"`, `"greedytl-sp:gamma=0.5"`, `does not match the options, which make "greedytl-sp:gamma=0.25"`},
		{`"greedytl-sp:gamma=0.25"`, `"greedytl-sp:lambda=2"`, "does not match the options"},
		{`"greedytl-sp:gamma=0.25"`, `"greedytl-sp:gamma=0.25,max_k=2"`, "does not match the options"},
		{`"greedytl-sp:gamma=0.25"`, `"greedytl-sp"`, "does not match the options"},
		{`"greedytl-sp:gamma=0.25"`, `"greedytl-sp:beta=0.25"`, `unknown key "beta"`},
		{`"greedytl-sp:gamma=0.25"`, `"forward-reg:gamma=0.25"`, "forward-reg takes no settings"},
		{`"greedytl-sp:gamma=0.25"`, `"greedytl-sp:gamma"`, "not key=value"},
	} {
		bad := strings.Replace(file, tc.from, tc.to, 1)
		if bad == file {
			t.Fatalf("%s not found in the file", tc.from)
		}
		if _, err := ReadModel(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("method %s: error %v, want one containing %q", tc.to, err, tc.msg)
		}
	}
}

func TestRegisterRejectsSpecCharacters(t *testing.T) {
	for _, name := range []string{"a:b", "a=b", "a,b"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
					delete(registry, name)
				}
			}()
			Register(Registration{Name: name, New: func() Method { return noTransfer{} },
				Decode: func(json.RawMessage) (Model, error) { return nil, nil }})
		}()
	}
}

// configure panics when a Configure hook names its method wrongly: the
// name is what the result files record.
func TestConfigureMustNameTheSpec(t *testing.T) {
	r := Registration{Name: "zz-bad", Configure: func(Spec) (Method, error) { return noTransfer{}, nil }}
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	_, _ = configure(r, Spec{Name: "zz-bad", Params: map[string]float64{"k": 1}}, "zz-bad:k=1")
}

// TestWholeSettingsRead: the whole-number settings read decimal digits
// with a sign, as the CLI's flags do, and the form a model's name wrote
// of a large one before (1e+06, which old files and run manifests hold),
// so that every canonical spec, old or new, reads back; a method named
// with one is that number, and its name writes it in decimal digits, as a
// user may type it (not 1e+06, which ParseSpec refuses as 1e6).
func TestWholeSettingsRead(t *testing.T) {
	for spec, want := range map[string]float64{
		"greedytl:sample=59":              59,
		"greedytl:sample=+7":              7,
		"greedytl:sample=007":             7,
		"greedytl:max_k=0":                0,
		"greedytl:max_k=1e+06":            1e6,
		"greedytl:max_k=1000000":          1e6,
		"greedytl:sample=2.147483647e+09": 2147483647,
	} {
		m, err := New(spec)
		if err != nil {
			t.Errorf("New(%q): %v", spec, err)
			continue
		}
		s, err := ParseSpec(m.Name())
		if err != nil {
			t.Errorf("%q names its method %q, which does not parse: %v", spec, m.Name(), err)
			continue
		}
		for _, v := range s.Params {
			if v != want {
				t.Errorf("%q: method %q, setting %v, want %v", spec, m.Name(), v, want)
			}
		}
		if _, text, set := strings.Cut(m.Name(), "="); set && text != strconv.FormatFloat(want, 'f', -1, 64) {
			t.Errorf("%q names its method %q, want the setting in decimal digits", spec, m.Name())
		}
	}
}

// TestUnknownMethodError: New, NewMulti and Lookup refuse an unregistered
// name with an *UnknownMethodError (errors.As), which a caller names by
// where the name came from (fit's --method), their messages unchanged:
// New's and Lookup's list the binary methods, NewMulti's every method.
func TestUnknownMethodError(t *testing.T) {
	binary := `method: unknown method "nope" (known: ` + strings.Join(Names(), ", ") + ")"
	multi := `method: unknown method "nope" (known: ` + strings.Join(MultiNames(), ", ") + ")"
	_, errNew := New("nope:lambda=1")
	_, errMulti := NewMulti("nope")
	_, errLookup := Lookup("nope")
	for _, tc := range []struct {
		name  string
		err   error
		want  string
		known []string
	}{{"New", errNew, binary, Names()}, {"NewMulti", errMulti, multi, MultiNames()}, {"Lookup", errLookup, binary, Names()}} {
		var u *UnknownMethodError
		if tc.err == nil || tc.err.Error() != tc.want || !errors.As(tc.err, &u) || u.Name != "nope" || !slices.Equal(u.Known, tc.known) {
			t.Errorf("%s: %v, want %q as an *UnknownMethodError", tc.name, tc.err, tc.want)
		}
	}
}
