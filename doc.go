// Package greedytl implements GreedyTL, the greedy hypothesis transfer
// learning algorithm of Kuzborskij, Orabona and Caputo ("Scalable greedy
// algorithms for transfer learning"), and its randomised variant
// GreedyTL-59.
//
// A target task has few labelled examples (typically 12–30), with features
// X (m×d) and labels y ∈ {−1, +1}ᵐ. Source hypotheses h_1, …, h_n, trained
// elsewhere, score the same examples: H[i][j] = h_j(x_i). GreedyTL selects
// a small subset S of the candidate columns Z = [X, H] (N = d + n of them)
// and fits a ridge regression on it:
//
//	model, err := greedytl.Fit(ctx, X, H, y, greedytl.DefaultOptions())
//	scores, err := model.Predict(Xtest, Htest) // classify by sign
//
// The command's default method, greedytl-auto, every baseline of the paper
// and the multi-class methods (greedytl-nway for three or more classes) are
// in package method, by the names greedytl fit --method takes:
// method.New("greedytl-auto") and method.NewMulti("greedytl-nway"); package
// dataset reads the command's files (ReadMatrix, ReadLabels, ReadClasses).
//
// # Standardisation
//
// Every candidate column is standardised with its training mean and
// population standard deviation (dividing by m); feature columns are then
// multiplied by Options.FeatureFactor γ (1 by default; γ = 0 leaves only the
// sources). A column whose standard deviation is at most 1e-12 times the
// magnitude of its mean (a column of zeros included) is constant on the
// training set and is never selected; the statistics are computed so that
// they neither overflow nor underflow, so a column is standardised alike
// at any magnitude, subnormal values included (package standardize owns this rule, for every
// method). The model stores each selected
// column's mean and divisor, and Predict standardises test examples with
// them; a score that overflows is an error naming the row and the column,
// never a NaN or ±Inf. There is no intercept: the columns are centred, so the decision
// threshold 0 sits at the training mean.
//
// # Contexts and errors
//
// The fits of this module (Fit here, method.Method.Fit for every method,
// and the solvers below them: linear, lssvm, hinge, sparsecode) take a
// context and honour it: each checks it between the steps of its work —
// greedy steps, solver iterations, λ or C values, blocks of columns — and
// returns its error (wrapped, naming the fit; errors.Is finds
// context.Canceled or context.DeadlineExceeded); Fit, every method's Fit
// and linear.Train check it once more when they have finished, so that
// they never return a model after their context is done. On the
// problems of the paper's protocol the checks are at most a few
// milliseconds of work apart; what runs between two checks is one dense
// matrix product or factorisation (ridge regression's m×m Gram matrix of
// N columns, O(m²N), and its eigendecomposition, O(m³); an LS-SVM
// system's Cholesky factorisation, or its inversion, O(m³)), which grows
// with the problem. A nil context is a caller's bug, as in the standard library
// (package context: "Do not pass a nil Context"): the fit panics at once,
// saying so. That is the only panic of the fits and of Predict (here and
// in package method): bad data (nil, empty or mismatched matrices, labels,
// non-finite values) and inconsistent models (a nil *Model, a Model built
// by hand whose fields disagree) are errors.
//
// Fit's errors begin "greedytl.Fit: " and Model.Predict's
// "greedytl.Model.Predict: " (the package's name is also the command's and
// a method's, so the entry point names itself); the training sample is
// checked as every method of package method checks it (package
// internal/validate), and a NaN or ±Inf input is named as
// inputcheck.NonFiniteError names it: "greedytl.Fit: X row 3 column 7 is
// NaN" (docs/conventions.md, "Errors").
//
// # Objective
//
// docs/design.md in the repository explains the objective, the exact update
// and its proof, GreedyTL-59 and the protocol at more length.
//
// For a subset S, with Z_S the standardised selected columns and
// K_S = Z_S Z_Sᵀ (m×m), the ridge problem min_w ‖Z_S w − y‖² + λ‖w‖² has
//
//	score            s(S) = yᵀK_S(K_S + λI)⁻¹y = b_Sᵀ(C_S + λI)⁻¹b_S   (C = ZᵀZ, b = Zᵀy)
//	regularised error e(S) = ‖y‖² − s(S) = λ yᵀ(K_S + λI)⁻¹y
//	weights          w_S = Z_Sᵀ(K_S + λI)⁻¹y
//
// Starting from S = ∅, each step adds the column that maximises s(S ∪ {i})
// (ties go to the lowest candidate index: features in column order, then
// sources in column order). The rule holds among columns whose
// standardised values are bitwise equal (exact duplicates: a column given
// twice), whose computed scores are then bitwise equal too: the lowest
// index wins in Fit's exact and sampled searches and in Gram.Fit. Columns
// equal only up to rounding once standardised (a one-hot pair x and
// 1 − x, a copy in other units, a negated copy) tie in exact arithmetic
// but are chosen by their computed scores, which can differ by rounding,
// and differently in Fit, Gram.Fit and the sampled search: the three may
// pick different members of such a group (with predictions equal up to
// rounding). The loop stops, without adding it, when the
// best column would lower the mean regularised error e(S)/m by less than
// Options.Delta (1e-4, the paper's rule), when Options.MaxK columns are
// selected, or when no candidate is left.
//
// Along the path Fit records, per step, s(S), e(S)/m and the
// class-balanced mean squared leave-one-out residual of the ridge fit on S
// (Step.LOOError). Example i is predicted by ridge refitted on the other
// examples with the selected columns re-centred on them (not rescaled):
// the columns were centred with every example, so the left-out row is
// minus the sum of the others, and a fit that nearly interpolates them
// would otherwise predict y_i − Σ_{j≠i} y_j, which on a balanced sample is
// y_i itself. That refit is ridge with an unpenalised intercept, shifted by
// the mean of the other labels, so its prediction has a closed form, O(m)
// a step given (K_S + λI)⁻¹. Options.StopAtMinLOO keeps the prefix of the
// path with the lowest LOO error, and Options.AutoLambda picks λ from
// 1e-4, 1e-3, …, 1e4 by the same criterion.
//
// # Algorithms and complexity
//
// The exact search (Options.Sample = 0) keeps G = (K_S + λI)⁻¹ and, for
// every candidate, c_i = 1 + z_iᵀGz_i and t_i = z_iᵀGy. Adding column i
// raises the score by exactly λ t_i²/c_i, and after a step that adds z
// (g = Gz, c = 1 + zᵀg) one product p = Zᵀg updates all of them:
// c_i −= p_i²/c and t_i −= p_i t_z/c, where t_z = zᵀGy. A step therefore
// costs one pass over the standardised candidates (stored once, as an m×N
// block) plus O(N) for the scan and the work of g: O(k·N·m) for k steps,
// against O(k·N·m²) for the paper's Algorithm 1 — and it selects the same
// columns.
//
// G is kept in the cheaper of two forms for the shape, chosen step by step
// (docs/design.md §3, "Primal and dual forms"). A path starts in the primal
// form, G = I/λ − UᵀU with U the (k+1)×m matrix of the steps'
// Sherman–Morrison vectors (one row per selected column, and one for the
// constant vector, below): g costs O(k·m) and the path O(k·m + k²) memory;
// every 16 steps U and Gy are recomputed from a Cholesky factorisation of
// the (k+1)×(k+1) cross-products of the selected columns plus λI
// (O(k²·m)). It moves once to the dual form, G as an m×m matrix (g in
// O(m²); refreshed every 16 steps from a Cholesky factorisation of
// K_S + λI, O(m³)), when a step costs fewer multiply–adds there: for the
// exact search from k = 19 at m = 20 and about 0.75·m for large m, so a
// path with k ≪ m never leaves the primal form. The final weights are
// recomputed from a fresh factorisation, in the primal form when k < m.
// Memory is the m×N block of float64 plus a few N-vectors: about 230 MB
// for N = 10⁶, m = 20 (on top of the caller's X and H). On a machine with
// AVX2 and FMA (amd64, not in the purego build), once the float64 block
// would exceed 4 MB with at least 256 rows (and every standardised value
// fits float32), the block is stored in float32, and each step's
// candidates are screened with bounds on its rounding and the few it
// cannot rule out scored from the path (docs/design.md §3, "Rows beyond
// the cache"): the same selections at half the memory traffic. Elsewhere
// the block stays float64. (Both searches actually keep
// (K_S + λI + β11ᵀ)⁻¹, which differs from G only along the constant
// vector 1: every centred column is orthogonal to 1, so the scores are
// G's, while the leave-one-out error reads G's part orthogonal to 1 off it
// without the cancellation that G's eigenvalue 1/λ along 1 would cause
// for small λ.)
//
// The randomised search (Options.Sample = r > 0; r = 59 is the paper's
// GreedyTL-59) scores, at each step, only r candidates drawn uniformly
// without replacement from the unselected non-constant ones, directly from
// G: in the primal form from U, O(k·m) each (z_iᵀGz_i =
// z_iᵀz_i/λ − ‖Uz_i‖²), so O(r·k·m) per step; in the dual form in
// m(m+1)/2 + m multiply–adds each (G is symmetric), O(r·m²) per step.
// Either way the step is independent of N. With r = 59 a path moves to the
// dual form from k = 10 at m = 20 and about 0.75·m for large m. It reads and standardises a column only when first
// drawing it (so it checks only those columns for NaN and ±Inf; a column
// laid out contiguously, as in the transpose of an N×m matrix passed via
// its T method, is read fastest). When at most r candidates remain it
// scores them all, and so with r ≥ N it selects what the exact search
// selects (but for the members of a group of columns equal only up to
// rounding, above). Draws are seeded by Options.Seed: the same seed gives
// the same model.
//
// A Gram (NewGram) serves many exact fits of one sample and of subsets of
// its rows (Gram.Subset), as greedytl-auto's committees need: it computes
// the N×N cross-products of the sample's columns once (O(N²·m)), a
// subset's by removing the rows it leaves out, and Gram.Fit runs the
// exact search in covariance form, O(N·k + m·k) a step instead of O(N·m),
// with Fit's selections (but within a group of columns equal only up to
// rounding, above) and, up to rounding, its weights and path
// (docs/design.md §3, "Shared cross-products"). It pays when N is at most a small multiple
// of m and the paths are long: greedytl-auto uses it for N ≤ m, and for
// m < N ≤ 2m only when the whole sample's GreedyTL members, fitted first,
// reach N/16 + 1 steps.
//
// # OpenBLAS
//
// The default build is pure Go. Built with the tag openblas (go build
// -tags openblas; needs cgo and OpenBLAS, Debian package libopenblas-dev),
// the randomised search scores each step's r candidates with one
// symmetric matrix product U = Z_r Ĝ instead of its scalar loops. The
// package does not choose gonum's BLAS, which serves the whole program:
// the greedytl command, built with the tag, routes it to OpenBLAS
// (package internal/openblas; lapack64 and mat included), and so do the
// package's tests under the tag; a program that imports the package sets
// it with blas64.Use. Given Ĝ, it selects exactly what the scalar loops
// select: the product's gains come with rounding-error bounds, and the
// candidates within them of the best (equal columns among them) are
// scored again by the scalar loops, so ties still go to the lowest index.
// (Ĝ itself is refreshed through LAPACK, and so rounds differently in the
// two builds: near ties, not exact ones, may go differently.) The exact
// search's products Zᵀg stay in Go: they are memory-bound, and OpenBLAS
// does not give equal columns bitwise equal results, which its tie rule
// needs. When fits run in parallel, set OPENBLAS_NUM_THREADS=1 so that
// OpenBLAS's own threads do not oversubscribe the cores. The gain is
// small, a few per cent for GreedyTL-59 at m = 20: the product is a
// fraction of a step, and the rest of it (drawing and standardising
// columns, updating Ĝ) is unchanged.
//
// # Source files
//
// The API: options.go (Options, DefaultOptions), settings.go (the settings'
// keys and rules: Options.Set, MethodName, Hyperparameters),
// fit.go (Fit, AutoLambda), gram.go (Gram: shared cross-products and the
// search in covariance form), model.go (Model, Step, Predict), column.go
// (Kind, Column), json.go (GreedyTL's model files: WriteJSON, Write, ReadModel,
// DecodeFile; the header they share with every method is package
// modelfile's). The search: engine.go (the engine
// interface and the main loop), path.go (Ĝ and a in the primal or the dual
// form, the record of each step, leave-one-out), exact.go and sample.go (the
// exact and randomised engines), exact32.go and kernel32* (the exact
// search's float32 block beyond the cache, and its product), prune.go (the
// randomised engine's bound on a candidate's gain), batch.go (the
// randomised engine's batched scoring), errors.go (the engines' shared
// errors). The inputs: input.go (X, H and y, checked by package
// internal/validate), inputmatrix.go (column access to X and H),
// colstats.go and moments*.go (column statistics and standardisation, with
// package standardize's rule). The vector kernels: moments_amd64.s and
// score_amd64.s (AVX) and kernel32_amd64.s (AVX2 and FMA), with their Go
// fallbacks in vec_other.go and kernel32_other.go (other architectures, or
// the build tag purego). openblas.go switches on batched
// scoring in the openblas build.
//
// # Model files
//
// Model.WriteJSON writes a versioned, self-describing JSON document (format
// "greedytl-model", version 2) and ReadModel reads it back exactly,
// validating every field; it reads version 1 files too. The file names the
// method by the canonical spec of its options (Options.MethodName: for
// example "greedytl:sample=59"), records the hyperparameters by their one
// key each (SettingKeys: γ is "gamma" everywhere) and the build that wrote
// it. Its header, the members every method's file starts with, and the one
// check of its format and version belong to package modelfile; package
// method writes and reads its GreedyTL variants' files through Model.Write
// and DecodeFile.
package greedytl
