package method

import (
	"slices"
	"sync/atomic"

	"github.com/greedytl/greedytl/source"
)

// NotConverged is what a fit reports of an iterative solver some of whose
// runs stopped before their stopping rule held — at their cap on iterations,
// or where they could make no further progress short of their tolerance — so
// that the numbers those runs returned are their last iterate, not the
// minimiser the method states. A fit reports it without changing its model
// (the model is the one it would be without the report); model files do not
// record it; the records of the experiment protocols do, in this type's
// JSON form (package experiment, Record.NotConverged):
//
//	{"solver": "…", "stopped": 3, "runs": 46, "final": true, "classes": ["a"]}
//
// with "final" and "classes" left out when false and empty.
type NotConverged struct {
	// Solver names the solver and its stopping rule, e.g. "L-BFGS (to a
	// gradient tolerance, at most 1000 iterations)".
	Solver string `json:"solver"`
	// Stopped runs of Solver, of Runs in the fit (the runs that chose a
	// hyperparameter by cross-validation or leave-one-out included), did
	// not converge.
	Stopped int `json:"stopped"`
	Runs    int `json:"runs"`
	// Final reports whether a run that gave the model its weights is among
	// them; when false, only runs that chose a hyperparameter are.
	Final bool `json:"final,omitempty"`
	// Classes are the classes whose binary fits the runs belong to, for a
	// model fitted one class against the rest (OneVsRest): only those with a
	// run that did not converge, in the model's order. Nil for a model
	// fitted as a whole.
	Classes []string `json:"classes,omitempty"`
}

// ConvergenceReporter is implemented by the models of the methods that fit
// with iterative solvers stopped by a tolerance (the logistic baselines,
// multinomial-logistic, greedytl-nway, and models of several classes built
// from them). NotConverged returns one entry per solver with runs that did
// not converge (NotConverged), nil when every run converged, and nil for a
// model read from a file.
type ConvergenceReporter interface {
	NotConverged() []NotConverged
}

// WarnNotConverged is the code of the warning that a fit's NotConverged
// report gives (greedytl fit and report, in --json "warnings"): a word that
// programs match, which stays when a message is reworded. The Python
// wrapper issues the warnings of this code as GreedyTLConvergenceWarning.
// It is source.WarnNotConverged, the code of the sources' own warning, so
// that a program matches both alike.
const WarnNotConverged = source.WarnNotConverged

// convergence holds a fitted model's NotConverged report; the models of
// the methods whose solvers can stop short embed it.
type convergence struct {
	notConverged []NotConverged
}

// NotConverged returns a copy of the fit's report (see ConvergenceReporter).
func (c *convergence) NotConverged() []NotConverged { return cloneNotConverged(c.notConverged) }

// cloneNotConverged returns a deep copy of r.
func cloneNotConverged(r []NotConverged) []NotConverged {
	if r == nil {
		return nil
	}
	out := slices.Clone(r)
	for i := range out {
		out[i].Classes = slices.Clone(out[i].Classes)
	}
	return out
}

// solverRuns counts a fit's runs of one solver and those that did not
// converge. It is safe for concurrent use (leave-one-out folds run in
// parallel).
type solverRuns struct {
	solver        string
	runs, stopped atomic.Int64
}

// add counts one run.
func (s *solverRuns) add(converged bool) {
	s.runs.Add(1)
	if !converged {
		s.stopped.Add(1)
	}
}

// report returns the fit's report: nil when every run converged, else one
// entry, Final set unless the model's own run converged (finalConverged).
func (s *solverRuns) report(finalConverged bool) []NotConverged {
	stopped := int(s.stopped.Load())
	if stopped == 0 {
		return nil
	}
	return []NotConverged{{Solver: s.solver, Stopped: stopped, Runs: int(s.runs.Load()), Final: !finalConverged}}
}

// mergeNotConverged returns the reports of several fits whose models make
// one model (an ensemble's members; with classes, the binary models of a
// one-vs-rest model, classes[i] the class of reports[i]) as one: an entry
// per solver, in order of first appearance, its counts summed, Final when
// any is, and the classes of the entries merged (in order). It returns nil
// when no report has an entry.
func mergeNotConverged(reports [][]NotConverged, classes []string) []NotConverged {
	var out []NotConverged
	for i, r := range reports {
		for _, e := range r {
			k := slices.IndexFunc(out, func(o NotConverged) bool { return o.Solver == e.Solver })
			if k < 0 {
				out = append(out, NotConverged{Solver: e.Solver})
				k = len(out) - 1
			}
			o := &out[k]
			o.Stopped += e.Stopped
			o.Runs += e.Runs
			o.Final = o.Final || e.Final
			if classes != nil {
				o.Classes = append(o.Classes, classes[i])
			} else {
				for _, c := range e.Classes {
					if !slices.Contains(o.Classes, c) {
						o.Classes = append(o.Classes, c)
					}
				}
			}
		}
	}
	return out
}

// mergedReports returns the reports of models (notConvergedOf) as one
// (mergeNotConverged, with classes).
func mergedReports[M any](models []M, classes []string) []NotConverged {
	reports := make([][]NotConverged, len(models))
	for i, m := range models {
		reports[i] = notConvergedOf(m)
	}
	return mergeNotConverged(reports, classes)
}

// notConvergedOf returns m's report, nil when m reports none.
func notConvergedOf(m any) []NotConverged {
	if r, ok := m.(ConvergenceReporter); ok {
		return r.NotConverged()
	}
	return nil
}
