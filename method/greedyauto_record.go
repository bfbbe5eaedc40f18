package method

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/modelfile"
)

// AutoModel is greedytl-auto's model: the Linear model it predicts with —
// the mean of its committees, dense, since the ridge member weights every
// column that is not constant — and Committee, what the members chose,
// for inspect. Its file is a Linear model's file with the member
// "committee" (absent in files written before it was recorded).
type AutoModel struct {
	*Linear
	// Committee records what the members chose; it is nil for a model read
	// from a file written before greedytl recorded it.
	Committee *AutoCommittee
	// wide is the fit's report of the columns because of which it left
	// committees out of its mean (WideRanges; not in the file).
	wide []WideColumn
}

// AutoCommittee records greedytl-auto's committee: what each member of
// the committee fitted on the whole training sample chose, and how often
// each column was chosen over every committee averaged (the model's
// hyperparameter "fits": the whole sample's and the subsamples'). It holds
// no weight vector of its own: the combined weights are the model's.
type AutoCommittee struct {
	// Greedy holds the GreedyTL members, in the order of GreedyAuto.Gammas.
	Greedy []AutoGreedyMember `json:"greedy"`
	// Source is the source member; nil when the model has no sources.
	Source *AutoSourceMember `json:"source,omitempty"`
	// Ridge is the ridge member.
	Ridge AutoRidgeMember `json:"ridge"`
	// Tally lists every column that a GreedyTL member or the source member
	// of some committee chose, with how many committees chose it, the most
	// chosen first (then features before sources, then by index).
	Tally []AutoTally `json:"tally"`
	// Subsamples is the number of subsamples whose committees were fitted,
	// those left out of the mean included; it and LeftOut are written only
	// when a committee was left out (0 and nil otherwise: the fit averaged
	// the whole sample's committee and every subsample's, "fits" in all).
	Subsamples int `json:"subsamples,omitempty"`
	// LeftOut lists the subsamples' committees left out of the mean because
	// their conversion to the whole sample's standardisation would lose more
	// than half of float64's digits (see WideColumn), in the order of the
	// subsamples.
	LeftOut []AutoLeftOut `json:"left_out,omitempty"`
}

// AutoLeftOut is a subsample's committee that greedytl-auto left out of
// its mean: Subsample, from 1, is its place among the subsamples, and
// Columns the columns because of which, each with its shift ratio
// |μ − μ'|/s' (above 2^26), features before sources, each by index.
type AutoLeftOut struct {
	Subsample int              `json:"subsample"`
	Columns   []AutoWideColumn `json:"columns"`
}

// AutoWideColumn is a column because of which a committee was left out,
// with its shift ratio on that committee's subsample.
type AutoWideColumn struct {
	greedytl.Column
	Ratio float64 `json:"ratio"`
}

// AutoGreedyMember is a GreedyTL member of the whole sample's committee.
type AutoGreedyMember struct {
	// Gamma is the member's feature factor γ (its λ and δ are the model's
	// hyperparameters "lambda" and "delta").
	Gamma float64 `json:"gamma"`
	// Path holds the selected columns in selection order.
	Path []AutoStep `json:"path"`
}

// AutoStep is one step of a GreedyTL member's path: the greedytl.Step
// (the column added, the score and the mean regularised and leave-one-out
// errors after adding it) and the column's weight in the member, on the
// column standardised as in the model (WX, WH): the member's own weight
// times γ for a feature.
type AutoStep struct {
	greedytl.Step
	Weight float64 `json:"weight"`
}

// AutoSourceMember is the source member of the whole sample's committee:
// the line Slope·z + Intercept on the standardised score z of source
// Index, the source whose training AUC (the share of (positive, negative)
// pairs it orders right, ties counting one half) is the highest, LogME
// evidence breaking ties.
type AutoSourceMember struct {
	Index     int     `json:"index"`
	AUC       float64 `json:"auc"`
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
}

// AutoRidgeMember is the ridge member of the whole sample's committee: ridge
// regression on every standardised column, with Lambda chosen by
// leave-one-out (the model's hyperparameter "ridge_lambda").
type AutoRidgeMember struct {
	Lambda float64 `json:"lambda"`
	// Shared is true when the member serves every committee (with at least
	// as many rows as columns, or more than 500 rows); LambdaRows is then the number of rows λ was
	// chosen on when it is fewer than the training examples (0: all of
	// them).
	Shared     bool `json:"shared,omitempty"`
	LambdaRows int  `json:"lambda_rows,omitempty"`
}

// AutoTally counts the committees that chose a column: Greedy[i] of them
// selected it in GreedyTL member i, Source of them took it as the source
// member.
type AutoTally struct {
	greedytl.Column
	Greedy []int `json:"greedy"`
	Source int   `json:"source"`
}

// total returns the number of member choices t counts.
func (t AutoTally) total() int {
	n := t.Source
	for _, c := range t.Greedy {
		n += c
	}
	return n
}

// MemberSelections returns the GreedyTL members' selections, one per
// member of c.Greedy, in selection order with their path steps, for a
// model of numFeatures features and numSources sources.
func (c *AutoCommittee) MemberSelections(numFeatures, numSources int) []Selection {
	out := make([]Selection, len(c.Greedy))
	for i, g := range c.Greedy {
		s := Selection{NumFeatures: numFeatures, NumSources: numSources, Greedy: true, Columns: []SelectedColumn{}}
		for k := range g.Path {
			st := &g.Path[k]
			s.Columns = append(s.Columns, SelectedColumn{Source: st.Column.Kind == greedytl.Source, Index: st.Column.Index, Weight: st.Weight, Step: &st.Step})
		}
		out[i] = s
	}
	return out
}

// committeeRecord collects what the members of one committee chose, as
// the committee fits them.
type committeeRecord struct {
	members AutoCommittee // Tally unused
}

// greedy records the GreedyTL member gm of feature factor gamma, fitted on
// the sample whose standardisation is l's.
func (r *committeeRecord) greedy(l *Linear, gamma float64, gm *greedytl.Model) {
	g := AutoGreedyMember{Gamma: gamma, Path: make([]AutoStep, len(gm.Selected))}
	for j, c := range gm.Selected {
		g.Path[j] = AutoStep{Step: gm.Path[j], Weight: standardWeight(l, c, gm.Weights[j], gm.Scale[j])}
	}
	r.members.Greedy = append(r.members.Greedy, g)
}

// source records the source member: source best, of training AUC auc
// (chooseSource), with its line a·z + b.
func (r *committeeRecord) source(best int, auc, a, b float64) {
	r.members.Source = &AutoSourceMember{Index: best, AUC: auc, Slope: a, Intercept: b}
}

// ridge records the ridge member's λ, whether it serves every committee
// and the rows λ was chosen on (0: all of them).
func (r *committeeRecord) ridge(lambda float64, shared bool, rows int) {
	r.members.Ridge = AutoRidgeMember{Lambda: lambda, Shared: shared, LambdaRows: rows}
}

// committee returns the record of the whole sample's committee r with the
// tally t of every committee's choices.
func (r *committeeRecord) committee(t *selectionTally) *AutoCommittee {
	c := r.members
	c.Tally = t.list()
	return &c
}

// selectionTally counts, over committees, the columns their GreedyTL
// members and source member chose.
type selectionTally struct {
	members int // GreedyTL members per committee
	counts  map[greedytl.Column]*AutoTally
}

// newSelectionTally returns the tally of the committee rec.
func newSelectionTally(rec *committeeRecord) *selectionTally {
	t := &selectionTally{members: len(rec.members.Greedy), counts: map[greedytl.Column]*AutoTally{}}
	t.add(rec)
	return t
}

// at returns the count of column c, adding it when new.
func (t *selectionTally) at(c greedytl.Column) *AutoTally {
	e := t.counts[c]
	if e == nil {
		e = &AutoTally{Column: c, Greedy: make([]int, t.members)}
		t.counts[c] = e
	}
	return e
}

// add counts the choices of the committee rec (with as many GreedyTL
// members as the first).
func (t *selectionTally) add(rec *committeeRecord) {
	for i, g := range rec.members.Greedy {
		for _, s := range g.Path {
			t.at(s.Column).Greedy[i]++
		}
	}
	if s := rec.members.Source; s != nil {
		t.at(greedytl.Column{Kind: greedytl.Source, Index: s.Index}).Source++
	}
}

// list returns the counts, most chosen first, then features before
// sources, then by index.
func (t *selectionTally) list() []AutoTally {
	out := make([]AutoTally, 0, len(t.counts))
	for _, e := range t.counts {
		out = append(out, *e)
	}
	slices.SortFunc(out, compareTally)
	return out
}

// compareTally orders tallies as AutoCommittee.Tally lists them.
func compareTally(a, b AutoTally) int {
	return cmp.Or(cmp.Compare(b.total(), a.total()), compareColumns(a.Column, b.Column))
}

// Predict is Linear.Predict, and an error for a nil *AutoModel or one
// without its Linear model (the zero AutoModel).
func (m *AutoModel) Predict(d Data) ([]float64, error) {
	if m == nil {
		return nil, errors.New("method: predict: nil *AutoModel")
	}
	if m.Linear == nil {
		return nil, errors.New("method: predict: " + errAutoNoLinear)
	}
	return m.Linear.Predict(d)
}

// errAutoNoLinear is the error of a zero AutoModel, whose Linear is nil.
const errAutoNoLinear = "*AutoModel has no Linear model"

// Method, Hyperparameters, SourceWeights and Selected are Linear's, and,
// for a nil *AutoModel as for a nil *Linear, "", nil, nil and (the empty
// Selection, false): the zero values of the package's rule on nil models
// (see Model).

// Method returns the Linear model's method name ("" for a nil or zero
// *AutoModel).
func (m *AutoModel) Method() string { return m.linear().Method() }

// Hyperparameters returns a copy of the Linear model's hyperparameters
// (nil for a nil or zero *AutoModel).
func (m *AutoModel) Hyperparameters() map[string]float64 { return m.linear().Hyperparameters() }

// SourceWeights returns a copy of the Linear model's source weights (nil
// for a nil or zero *AutoModel).
func (m *AutoModel) SourceWeights() []float64 { return m.linear().SourceWeights() }

// Selected returns the Linear model's columns of non-zero weight; ok is
// false for a nil or zero *AutoModel.
func (m *AutoModel) Selected() (Selection, bool) { return m.linear().Selected() }

// linear returns m's Linear model, nil for a nil *AutoModel.
func (m *AutoModel) linear() *Linear {
	if m == nil {
		return nil
	}
	return m.Linear
}

// autoFile is the file form of an AutoModel.
type autoFile struct {
	linearFile
	Committee *AutoCommittee `json:"committee,omitempty"`
}

func (m *AutoModel) fileDocument(h modelfile.Header) (any, error) {
	if m.Linear == nil {
		return nil, errors.New(errAutoNoLinear)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	if m.Committee != nil {
		if err := m.Committee.check(m.Linear); err != nil {
			return nil, fmt.Errorf("committee: %w", err)
		}
	}
	return autoFile{linearFile: linearFile{Header: h, Linear: m.Linear}, Committee: m.Committee}, nil
}

// decodeAutoModel decodes a greedytl-auto model file: a Linear model's
// file with an optional "committee" member, which must agree with the
// model (its columns in range, its counts at most the model's "fits", its
// member settings those of the hyperparameters).
func decodeAutoModel(doc json.RawMessage) (*AutoModel, error) {
	f := autoFile{linearFile: linearFile{Linear: new(Linear)}}
	if err := decodeStrict(doc, &f); err != nil {
		return nil, err
	}
	l, err := f.linearFile.model()
	if err != nil {
		return nil, err
	}
	if f.Committee != nil {
		if err := f.Committee.check(l); err != nil {
			return nil, fmt.Errorf("committee: %w", err)
		}
	}
	return &AutoModel{Linear: l, Committee: f.Committee}, nil
}

// check returns an error when c does not describe a committee of the model
// l: a column out of range or repeated, a number out of its range, member
// settings that differ from l's hyperparameters, a count above l's "fits".
func (c *AutoCommittee) check(l *Linear) error {
	inRange := func(col greedytl.Column) error {
		n := l.X.Len()
		if col.Kind == greedytl.Source {
			n = l.H.Len()
		}
		if col.Kind != greedytl.Feature && col.Kind != greedytl.Source || col.Index < 0 || col.Index >= n {
			return fmt.Errorf("%v is out of range: the model has %d features and %d sources", col, l.X.Len(), l.H.Len())
		}
		return nil
	}
	finite := func(what string, v ...float64) error {
		return checkFiniteSlice(what, v)
	}
	hyper := func(key string, v float64) error {
		if h, ok := l.Hyper[key]; ok && h != v {
			return fmt.Errorf("%v differs from the hyperparameter %s = %v", v, key, h)
		}
		return nil
	}
	if len(c.Greedy) == 0 {
		return fmt.Errorf("no GreedyTL member")
	}
	for i, g := range c.Greedy {
		if !(g.Gamma >= 0 && !math.IsInf(g.Gamma, 1)) {
			return fmt.Errorf("greedy[%d]: gamma = %v, want ≥ 0 and finite", i, g.Gamma)
		}
		seen := make(map[greedytl.Column]bool, len(g.Path))
		for k, s := range g.Path {
			if err := inRange(s.Column); err != nil {
				return fmt.Errorf("greedy[%d]: path[%d]: %w", i, k, err)
			}
			if seen[s.Column] {
				return fmt.Errorf("greedy[%d]: path[%d]: %v selected twice", i, k, s.Column)
			}
			seen[s.Column] = true
			if err := finite(fmt.Sprintf("greedy[%d]: path[%d]: (score, reg_error, loo_error, weight)", i, k), s.Score, s.RegError, s.LOOError, s.Weight); err != nil {
				return err
			}
		}
	}
	members := len(c.Greedy) + 1
	if s := c.Source; s != nil {
		members++
		if err := inRange(greedytl.Column{Kind: greedytl.Source, Index: s.Index}); err != nil {
			return fmt.Errorf("source: %w", err)
		}
		if !(s.AUC >= 0 && s.AUC <= 1) {
			return fmt.Errorf("source: auc = %v, want in [0, 1]", s.AUC)
		}
		if err := finite("source: (slope, intercept)", s.Slope, s.Intercept); err != nil {
			return err
		}
		if err := hyper("source", float64(s.Index)); err != nil {
			return fmt.Errorf("source: index %w", err)
		}
	} else if l.H.Len() > 0 {
		return fmt.Errorf("no source member, but the model has %d sources", l.H.Len())
	}
	if r := c.Ridge.Lambda; !inputcheck.PositiveFinite(r) {
		return fmt.Errorf("ridge: lambda = %v, want > 0 and finite", r)
	}
	if err := hyper("ridge_lambda", c.Ridge.Lambda); err != nil {
		return fmt.Errorf("ridge: lambda %w", err)
	}
	if err := hyper("members", float64(members)); err != nil {
		return fmt.Errorf("%d members: %w", members, err)
	}
	fits, ok := l.Hyper["fits"]
	if !ok {
		fits = 1
	}
	if err := c.checkLeftOut(fits, inRange); err != nil {
		return err
	}
	seen := make(map[greedytl.Column]bool, len(c.Tally))
	for k, t := range c.Tally {
		if err := inRange(t.Column); err != nil {
			return fmt.Errorf("tally[%d]: %w", k, err)
		}
		if seen[t.Column] {
			return fmt.Errorf("tally[%d]: %v counted twice", k, t.Column)
		}
		seen[t.Column] = true
		if len(t.Greedy) != len(c.Greedy) {
			return fmt.Errorf("tally[%d]: %d GreedyTL counts for %d GreedyTL members", k, len(t.Greedy), len(c.Greedy))
		}
		for _, n := range append([]int{t.Source}, t.Greedy...) {
			if n < 0 || float64(n) > fits {
				return fmt.Errorf("tally[%d]: count %d, want 0 to the %v fits", k, n, fits)
			}
		}
		if t.Source > 0 && t.Kind != greedytl.Source {
			return fmt.Errorf("tally[%d]: %v counted as the source member", k, t.Column)
		}
		if t.total() == 0 {
			return fmt.Errorf("tally[%d]: %v is counted 0 times", k, t.Column)
		}
		if k > 0 && compareTally(c.Tally[k-1], t) > 0 {
			return fmt.Errorf("tally[%d]: %v is out of order (most chosen first)", k, t.Column)
		}
	}
	return nil
}

// checkLeftOut returns an error when c's Subsamples and LeftOut do not
// describe the committees left out of a mean over fits committees:
// Subsamples given without LeftOut or the reverse, other than fits − 1
// plus the committees left out, a subsample out of 1…Subsamples or out of
// order, a committee without columns, a column out of range (inRange's
// error) or out of order, a ratio not above 2^26 or not finite.
func (c *AutoCommittee) checkLeftOut(fits float64, inRange func(greedytl.Column) error) error {
	if c.Subsamples == 0 && len(c.LeftOut) == 0 {
		return nil
	}
	if len(c.LeftOut) == 0 || float64(c.Subsamples) != fits-1+float64(len(c.LeftOut)) {
		return fmt.Errorf("subsamples = %d with %d committees left out, want the %v fits less the whole sample's plus those left out (and at least one left out)", c.Subsamples, len(c.LeftOut), fits)
	}
	for k, l := range c.LeftOut {
		if l.Subsample < 1 || l.Subsample > c.Subsamples || k > 0 && l.Subsample <= c.LeftOut[k-1].Subsample {
			return fmt.Errorf("left_out[%d]: subsample %d, want 1 to %d, increasing", k, l.Subsample, c.Subsamples)
		}
		if len(l.Columns) == 0 {
			return fmt.Errorf("left_out[%d]: no column", k)
		}
		for i, w := range l.Columns {
			if err := inRange(w.Column); err != nil {
				return fmt.Errorf("left_out[%d]: columns[%d]: %w", k, i, err)
			}
			if i > 0 && compareColumns(l.Columns[i-1].Column, w.Column) >= 0 {
				return fmt.Errorf("left_out[%d]: columns[%d]: %v is out of order (features before sources, by index)", k, i, w.Column)
			}
			if !(w.Ratio > maxShiftRatio) || math.IsInf(w.Ratio, 1) {
				return fmt.Errorf("left_out[%d]: columns[%d]: ratio = %v, want above 2^26 and finite", k, i, w.Ratio)
			}
		}
	}
	return nil
}
