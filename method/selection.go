package method

import (
	"cmp"
	"math"
	"slices"

	"github.com/greedytl/greedytl"
)

// Selection describes which input columns a model uses and with what
// weight, for inspect and the result files.
type Selection struct {
	// NumFeatures and NumSources are the numbers of columns of X and H the
	// model was trained on.
	NumFeatures, NumSources int
	// Greedy reports whether Columns is in selection order (the greedy
	// methods) rather than by decreasing |Weight| (the linear baselines).
	Greedy bool
	// Columns are the selected columns: for a greedy method every selected
	// column, for a linear model those of non-zero weight.
	Columns []SelectedColumn
}

// SelectedColumn is one column of a Selection.
type SelectedColumn struct {
	Source bool // a column of H (a source), else of X (a feature)
	Index  int  // its index in X or H
	Weight float64
	// Step is the greedy path after the column was added (greedy methods
	// only; nil otherwise).
	Step *greedytl.Step
}

// Kind returns "source" or "feature".
func (c SelectedColumn) Kind() string {
	if c.Source {
		return "source"
	}
	return "feature"
}

// Features returns the number of feature columns of non-zero weight.
func (s Selection) Features() int {
	n := 0
	for _, c := range s.Columns {
		if !c.Source && c.Weight != 0 {
			n++
		}
	}
	return n
}

// Selected returns the columns of the greedy selection, in selection order,
// with their path steps.
func (g *greedyModel) Selected() (Selection, bool) {
	m := g.m
	s := Selection{NumFeatures: m.NumFeatures, NumSources: m.NumSources, Greedy: true}
	for i, col := range m.Selected {
		c := SelectedColumn{Source: col.Kind == greedytl.Source, Index: col.Index, Weight: m.Weights[i]}
		if i < len(m.Path) {
			st := m.Path[i] // a copy: Selected's columns are the caller's
			c.Step = &st
		}
		s.Columns = append(s.Columns, c)
	}
	return s, true
}

// Selected returns the columns of non-zero weight, by decreasing |weight|
// (features first on ties, then by index); ok is false for a nil *Linear.
func (l *Linear) Selected() (Selection, bool) {
	if l == nil {
		return Selection{}, false
	}
	s := Selection{NumFeatures: len(l.WX), NumSources: len(l.WH)}
	for _, part := range []struct {
		source bool
		w      []float64
	}{{false, l.WX}, {true, l.WH}} {
		for j, w := range part.w {
			if w != 0 {
				s.Columns = append(s.Columns, SelectedColumn{Source: part.source, Index: j, Weight: w})
			}
		}
	}
	slices.SortStableFunc(s.Columns, func(a, b SelectedColumn) int { return cmp.Compare(math.Abs(b.Weight), math.Abs(a.Weight)) })
	return s, true
}

// Selected reports that the model has no per-column weights: it classifies
// sparse codes, not the input columns.
func (dm *dictionaryModel) Selected() (Selection, bool) {
	return Selection{NumFeatures: dm.x.Len(), NumSources: dm.h.Len()}, false
}
