// Package method puts GreedyTL and the paper's baselines behind one
// interface, so that the experiment protocol, the CLI and the conformance
// test treat them alike.
//
// A Method fits a Model on a labelled target sample Data{X, H, Y}: X (m × d)
// holds the target features, H (m × n) the source hypotheses' scores on the
// same examples, Y the labels ±1; X or H may be absent (nil or empty).
// Methods are found by name in a registry (Names, Lookup, New); Names lists
// them in the paper's order:
//
//	greedytl      GreedyTL, exact search (λ = 1, δ = 1e-4, γ = 1)
//	greedytl-59   GreedyTL-59: 59 random candidates a step, seeded by Extra.Seed
//	greedytl-sp   GreedyTL preferring sources: standardised features scaled by γ = 0.5
//	greedytl-auto recommended: the mean of greedytl, greedytl-sp, one source and rls-srcfeat, bagged over the larger class (the negatives on a tie)
//	forward-reg   forward regression: the greedy selection with λ → 0, at most m−1 columns
//	no-transfer   ridge regression on X alone
//	rls-srcfeat   ridge regression on [X, H]
//	average-kt    ridge regression on X biased towards the average source
//	best-source   ORACLE: the best single rescaled source on held-out labels
//	multikt-l2, multikt-l1, dam, l1-logistic, elastic-net, dictionary
//
// and then the practitioner's modern alternatives: logme-source (the source
// with the highest LogME evidence on the training examples, rescaled) and
// stacked-logistic (L2 logistic on [X, H], C by stratified cross-validation).
//
// # Shared conventions
//
// Registration. A method's registration holds its identity and
// capabilities: its name and description, what it fits (Capabilities:
// binary, native multi-class, whether it selects features, as the methods
// of the noise study do) and its place in the registry's one order (Names
// and MultiNames, the paper's order). Presentation, the labels, colours and
// line styles of tables and figures, is package report's style table.
//
// Standardisation. Every method standardises the columns of X and H with the
// training mean and population standard deviation (package standardize,
// the one standardiser of the module) but greedytl-nway, which centres
// with the training mean and divides by standard deviations shrunk toward
// one scale per block (standardize.FitModerated; docs/design.md §1); test
// inputs use the training statistics. Columns constant on the training
// sample, or too small to standardise, have scale 0 and standardise to
// zeros, in training and at prediction alike: they carry no information. A
// score that overflows is an error naming the row and the column, never a
// NaN or ±Inf.
//
// Hyperparameters. Unless a method says otherwise its hyperparameters are
// chosen by leave-one-out (LOO) on the training sample over the paper's
// grids (λ, C ∈ {1e-4, …, 1e4}; τ ∈ {1e-3, …, 1e3}), in closed form where one
// exists and by refitting otherwise, with one rule for all: the lowest
// class-balanced LOO 0-1 error of the LOO predictions' signs (the mean of the
// two classes' error rates, a score of 0 counting as negative); ties broken
// by the class-balanced mean squared LOO residual (the log-loss for logistic
// models), equal within a relative 1e-9; then by the larger regularisation.
// Class balance matters with 2 positives against 10 negatives: an
// all-negative model scores 1/2, not 1/6, and does not win by default.
// Model.Hyperparameters reports what was chosen.
//
// Inputs. Fit does not modify its inputs or the method, is deterministic
// under Extra.Seed, and returns an error, never a model holding NaN, for
// non-finite inputs, labels other than ±1 or of one class only, and
// inconsistent shapes (nil, empty or mismatched matrices and labels, in
// the training sample and in the Extra members a method needs). Predict
// checks the column counts against training (a method that ignores H
// still checks it), rejects non-finite inputs, and returns an error for a
// nil or inconsistent model (a Linear built by hand whose fields
// disagree).
//
// Contexts. Every method's Fit, and every MultiMethod's FitMulti, follows
// the greedytl package's rule ("Contexts and errors"): it checks its
// context every few milliseconds of work and, once more, when it has
// finished, so that a fit that outlives its context returns the context's
// error, never a model; a nil context panics. (Every Fit begins with
// startFit and defers endFit, and every FitMulti runs its work through
// fitMultiChecked, which hold these checks.)
//
// Solvers that stop short. A fit whose iterative solver stops before its
// stopping rule holds — at its iteration cap, or unable to progress (the
// logistic baselines' solvers of package linear, multinomial-logistic's
// and greedytl-nway's L-BFGS) — keeps the model the solver reached and
// says so: the model implements ConvergenceReporter, whose NotConverged
// lists per solver how many of the fit's runs stopped, whether the final
// fit's did and, for a one-vs-rest model, the classes (nil when every run
// converged). The report does not change the model and is not in its file.
//
// # The GreedyTL family and the ridge baselines
//
// greedytl, greedytl-59 and greedytl-sp run the root package's greedytl.Fit
// with fixed options (see GreedyTL); their models wrap a *greedytl.Model,
// with the selected columns and the path, which the model returns from a
// GreedyModel() *greedytl.Model method (reach it by an interface assertion);
// Model.Selected lists the selected columns of every model alike.
// They select features only when there are no sources, sources only when
// there are no features; constant columns are never selected, a duplicated
// column at most once; every column constant is an error.
//
// forward-reg is the same selection "without regularisation": λ = 1e-8·m,
// 1e-8 of a standardised column's squared norm m, which changes the
// least-squares weights by a negligible relative amount while keeping
// K_S + λI invertible when a duplicated or collinear column is considered
// (λ = 0 would make it singular). Centred columns span at most m−1
// dimensions, so it stops at m−1 columns at the latest (δ = 1e-4 as
// GreedyTL).
//
// no-transfer, rls-srcfeat and average-kt are ridge regression on
// standardised columns without intercept, GreedyTL's predictor form: the
// threshold 0 sits at the training mean (an unpenalised intercept would
// add ȳ = −2/3 with 2 positives against 10 negatives and favour the
// majority class), and rls-srcfeat is exactly GreedyTL with every column
// selected. λ ∈ {1e-4, …, 1e4} is chosen by the rule above on the
// closed-form LOO residuals (linear.RidgeLOOPath), which, like GreedyTL's
// path, keep the standardisation of the whole sample. Constant columns get
// weight 0 (only constant features: no-transfer predicts 0, the negative
// class), duplicated columns share their weight, a single positive is an
// ordinary input.
//
//   - no-transfer uses X only and is an error without features.
//   - rls-srcfeat regresses on [X, H]; with either part absent, on the other.
//   - average-kt solves min_w ‖Z_X w + h̄ − y‖² + λ‖w‖², h̄ the mean of all n
//     standardised sources (source weights 1/n), and predicts Z_X w + h̄.
//     With no sources it is no-transfer; with no features it predicts h̄ and
//     has no hyperparameter.
//   - best-source is an oracle kept for reference: it reads Extra.Oracle
//     (labelled held-out data, in the protocol the test set). Each source is
//     rescaled on the training set by class-balanced least squares
//     (y ≈ a·h + b, each class half the weight, so the threshold sits midway
//     between the class means), scored on the oracle by balanced accuracy,
//     and the best kept (lowest index on ties; hyperparameter "source").
//     It is an error without sources or without a valid Extra.Oracle.
//
// # Layout
//
// method.go holds Data, Method, Model and the registry; spec.go the specs;
// selection.go Model.Selected; loo.go the leave-one-out selection rule;
// convergence.go the reports of solvers that stopped short; lbfgs.go L-BFGS;
// one file per family of methods (greedy.go, greedyauto.go, ridge.go,
// multikt.go, dam.go, logistic.go, dictionary.go, logme.go, stacked.go);
// linearmodel.go the linear models; modelfile.go a model's file (Write,
// Read); multi.go the multi-class interface, multinative.go, multinomial.go
// and multiovr.go the multi-class methods, multifile.go their files. What is
// not a method lives elsewhere: standardisation in package standardize, the
// grids in grid, LS-SVMs and weighted ridge in lssvm, MultiKT's hinge-loss
// descent in hinge, projections onto norm balls in ball, OMP and K-SVD in
// sparsecode.
//
// # Model files
//
// Every file starts with the header of package modelfile, the one
// definition of the model file's members, format and version,
//
//	{"format": "greedytl-model", "version": 2, "method": "no-transfer",
//	 "hyperparameters": {"lambda": 10}, "build": {…}, …}
//
// followed by the method's own members. Write writes a binary model, with
// the sources directory its source scores are computed from and its label
// names (FileInfo) in the header's "sources" and "labels"; WriteMulti a
// multi-class one (docs/design.md §10). Read reads either: modelfile.Read
// checks the format, the version and the header (the one place that
// does), and Read dispatches on "method" to the registered method's
// decoder; it reads version 1 files too. The GreedyTL methods' files are
// the root package's (greedytl.Model.Write, greedytl.DecodeFile): their
// "method" is the canonical spec of their options
// (greedytl.Options.MethodName, the one function from options to a
// model's identity), so that a file always names what made it and always
// reads back; Read also reads files the root package wrote. The linear
// baselines' files hold a Linear model.
//
// A typical use:
//
//	m, err := method.New("greedytl")
//	…
//	model, err := m.Fit(ctx, method.Data{X: X, H: H, Y: y}, method.Extra{Seed: 1})
//	…
//	scores, err := model.Predict(method.Data{X: Xtest, H: Htest})
package method
