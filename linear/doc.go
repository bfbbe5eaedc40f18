// Package linear trains the linear models greedytl needs: the source SVMs of
// the paper's protocol, logistic regressions with L2, L1 and elastic-net
// penalties, and ridge regression with closed-form leave-one-out. Where
// liblinear (Fan, Chang, Hsieh, Wang and Lin, JMLR 2008) has the learner, the
// package follows liblinear 2.3's semantics: the same objectives, solvers,
// stopping rules, defaults, label handling and model files, checked against
// the liblinear tools by the package's parity tests.
//
// # Problems and labels
//
// A Problem holds sparse rows X (sparse.FromDense converts dense data), one
// label per row, and a bias as liblinear's -B: with Bias > 0 every row is
// extended by a constant feature of value Bias, whose weight is regularised
// like the others. Bias ≤ 0, 0 included, means no bias feature (the model
// records Bias −1). liblinear differs at 0: it appends the feature for every
// Bias ≥ 0, so its -B 0 adds a feature of zeros, whose weight is 0 (and
// its L1 solvers, which visit that coordinate too, can stop at other
// weights). Train accepts any two integer labels, as liblinear does, and
// records them in Model.Labels in order of first appearance — except that
// −1/+1 labels always give [1 -1], as in liblinear ≥ 2.0 — and the weights
// are those of the binary problem in which Labels[0] is the positive class
// (y_i = +1). Model files therefore interoperate with liblinear's in both
// directions.
//
// # Objectives and stopping rules
//
// With y_i = ±1, C_i = C·WeightPos for y_i = +1 and C·WeightNeg for
// y_i = −1 (liblinear -c, -w1, -w-1), l rows of which #pos are positive and
// #neg negative, and ε = Params.Eps (liblinear -e; 0 selects the default
// shown):
//
//	L2RLR (-s 0), trust-region Newton (TRON) with preconditioned CG:
//	    min_w ½||w||² + Σ_i C_i log(1 + exp(−y_i wᵀx_i))
//	    stop when ||∇f(w)||₂ ≤ ε·max(min(#pos, #neg), 1)/l·||∇f(0)||₂   (ε = 0.01)
//
//	L2RL2LossSVCDual (-s 1), dual coordinate descent with shrinking:
//	    min_w ½||w||² + Σ_i C_i max(0, 1 − y_i wᵀx_i)²
//	    dual: min_α ½αᵀ(Q + D)α − Σα_i, α ≥ 0, Q_ij = y_i y_j x_iᵀx_j, D_ii = 1/(2C_i)
//	    stop when max_i PG_i − min_i PG_i ≤ ε over all i   (ε = 0.1)
//
//	L2RL2LossSVC (-s 2), TRON:
//	    min_w ½||w||² + Σ_i C_i max(0, 1 − y_i wᵀx_i)²
//	    stop as -s 0   (ε = 0.01)
//
//	L2RL1LossSVCDual (-s 3), dual coordinate descent with shrinking:
//	    min_w ½||w||² + Σ_i C_i max(0, 1 − y_i wᵀx_i)
//	    dual: min_α ½αᵀQα − Σα_i, 0 ≤ α_i ≤ C_i
//	    stop as -s 1   (ε = 0.1)
//
//	L1RL2LossSVC (-s 5), coordinate descent with a Newton step and line
//	search per coordinate, and shrinking:
//	    min_w ||w||₁ + Σ_i C_i max(0, 1 − y_i wᵀx_i)²
//	    stop when a sweep's Σ_j |∇^S_j f(w)| ≤ ε·max(min(#pos, #neg), 1)/l
//	    times the first sweep's   (ε = 0.01)
//
//	L1RLR (-s 6), newGLMNET:
//	    min_w ||w||₁ + Σ_i C_i log(1 + exp(−y_i wᵀx_i))
//	    stop when ||∇^S f(w)||₁ ≤ ε·max(min(#pos, #neg), 1)/l·||∇^S f(0)||₁   (ε = 0.01)
//
//	L2RLRDual (-s 7), dual coordinate descent with a Newton method per coordinate:
//	    min_w ½||w||² + Σ_i C_i log(1 + exp(−y_i wᵀx_i))
//	    dual: min_α ½αᵀQα + Σ α_i log α_i + (C_i − α_i) log(C_i − α_i), 0 < α_i < C_i
//	    stop when the largest sub-problem gradient of a sweep is < ε   (ε = 0.1)
//
//	ElasticNetLR (greedytl's; scikit-learn's elastic-net objective):
//	    min_w r||w||₁ + (1−r)/2·||w||² + Σ_i C_i log(1 + exp(−y_i wᵀx_i)),  r = L1Ratio
//	    stop on the duality gap (see elasticnet.go)
//
//	Ridge regression (not a Solver: a regressor with its own API, FitRidge
//	and RidgeLOOPath): min_{w,b} Σ_i (y_i − wᵀx_i − b)² + λ||w||², with
//	exact leave-one-out residuals
//
// PG_i is the projected gradient of the dual at coordinate i; the dual
// solvers visit the coordinates in a random order drawn from Params.Seed,
// so a fit is reproducible. MaxIter caps the outer iterations (default 1000
// for -s 0, 1, 2, 3 and 7); reaching it is not an error but leaves
// Model.Converged false, where liblinear prints a warning. A solver that
// stops short of it unable to progress (TRON's objective overflowing, a
// line search finding no decrease) leaves Model.Stuck true as well, which
// liblinear reports as the cap. TRON (-s 0, -s 2) stopped at machine
// precision short of Eps (a step's actual and predicted decreases both
// at most 1e-12 of the objective) leaves Model.Converged true and
// Model.Precision true, where liblinear prints "actred and prered too
// small". PrimalObjective
// evaluates each objective, so that solutions can be compared across
// solvers and tools.
//
// # Models and model files
//
// A Model predicts like liblinear-predict (Predict) and scores examples for
// GreedyTL (Scores): the score is the decision value oriented so that
// positive favours the greater of the two labels, that is the decision
// value itself for every model trained on ±1 labels. WriteModel and
// ReadModel use liblinear's text format — liblinear-predict reads greedytl's
// files and ReadModel reads liblinear's, multi-class ones included — and
// SaveModel writes a file atomically.
//
// # Cross-validation and the choice of C
//
// CrossValidate returns the decision values of a stratified, seeded k-fold
// cross-validation, training the folds in parallel; CrossValidateStops
// also says how each fold's solver stopped (FoldStop: converged, at the
// cap, stuck, or at machine precision), for a caller that warns of folds
// stopped short as liblinear-train -v does; LeaveOneOut is CrossValidate's
// one-example-per-fold form. SelectC picks the C of a grid with the best
// cross-validation accuracy (SelectCBy takes another Metric, such as
// metric.BalancedAccuracy for imbalanced classes), warm-starting each fold
// along the ascending grid; ties go to the smaller C. A fold whose training
// rows hold one class predicts that class, as liblinear does. The paper selects the
// source SVMs' C by 5-fold cross-validation over {1e-4, 1e-3, …, 1e4}:
//
//	grid := []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4}
//	c, _, err := linear.SelectC(ctx, prob, linear.Params{Solver: linear.L2RL2LossSVCDual}, grid, 5, seed)
//	...
//	model, err := linear.Train(ctx, prob, linear.Params{Solver: linear.L2RL2LossSVCDual, C: c})
package linear
