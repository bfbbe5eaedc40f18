// Package experiment runs the paper's leave-one-class-out protocol
// (docs/design.md §6) over a grid of cells, resumably and in shards, and merges
// the shards' results.
//
// # The grid
//
// A dataset folder's classes are split into a negative pool (named
// classes, such as CLINC150's "oos", or a random fifth of the classes)
// and the rest; the pool's examples are split 90%/10% into source and
// target negatives (source.PlanNegatives), and every other class c gets a
// source h_c, a linear SVM of c against the source negatives
// (source.TrainAll). Every class with enough examples that is not a
// negative class is a target. A cell is
//
//	(target t, positives n₊, noise D, split s, method)
//
// and its record (Record) holds the method's class-balanced accuracy on
// the split's test set. The training set is n₊ examples of t and
// TrainNegatives target negatives; the test set up to MaxTestPositives
// further examples of t and MaxTestNegatives further target negatives
// (the counts are recorded) — or, with Config.Protocol ProtocolSkewed, the
// paper's setting for skewed data sets (SUN09: n₊ = 1), every other
// example of t and every other target negative. The sources are all h_c but t's own; D
// independent N(0,1) dimensions are appended to the features of both
// sets. Transductive methods also see the test inputs, the oracle
// best-source the labelled test set; every other method sees the
// training set only.
//
// With Config.Protocol ProtocolNWay (N-way few-shot, docs/design.md §6) a
// cell is an episode,
//
//	(ways W, shots S, episode e, method)
//
// W distinct classes of the pool (the classes with a source), S training
// and Config.TestPerClass test examples of each, drawn by a stream of
// (seed, W, S, e) alone; H holds the scores of the sources of every other
// class; the method is a multi-class learner (method.NewMulti) and its
// record holds its accuracy and balanced accuracy (Record, Ways > 0).
//
// Everything is seeded by Config.Seed through streams labelled by the
// cell: a split depends only on (seed, t, n₊, s), so every method and
// every noise level is evaluated on the same examples; the noise on
// (seed, t, n₊, s, D); a method's own seed on the whole cell. The same seed
// gives the same records — all but fit_seconds — on any number of
// workers, shards or restarts.
//
// # Running
//
// Run works through the cells on a pool of workers, a group (t, n₊, D, s)
// at a time: the group's data are built once and every method runs on
// them. Before the first cell, Run reads the features of only the rows
// that the groups still to run use — those of the run's shard whose cells
// the results file does not hold yet (their splits are drawn to find the
// rows, and again when each group is built) — and scores every source on
// those rows once. A run directory holds
//
//	RUN/run.json        the Manifest: dataset (name, path, digest), classes,
//	                    groups, negative plan, sources digest, targets,
//	                    positives, splits, noise, methods, seed, version,
//	                    and run_id, a digest of those settings
//	RUN/results.jsonl   one Record per line, appended as cells finish
//	                    (results-shard-I-of-N.jsonl for shard I of N),
//	                    each with the run_id of its run
//	RUN/sources/        the sources, when Run trained them
//
// The results file is the one file not written atomically: it is an
// append-only log, one write per line, synced every few seconds. A run
// that is killed or cancelled loses only the cells in flight; run again
// with the same settings it skips the cells done and cuts off a partial
// last line. A record of a fit whose iterative solver stopped before its
// stopping rule held carries the model's report (Record.NotConverged,
// "not_converged"), which reports mark; the records of fits whose runs
// all converged have no such member. So does a record of a greedytl-auto
// fit that left subsamples' committees out of its mean (Record.WideRange,
// "wide_range"), absent when it left none out. A run directory with other settings is refused with the
// setting that differs, and so is a record that is malformed (a member
// missing, a null, an impossible value) or of another run (its run_id).
//
// # Scaling out
//
// With Config.Shard = {I, N}, a process runs only the groups whose key
// hashes (FNV-1a) to I modulo N: N processes with the same settings and
// their own run directories cover the grid exactly once. shard.Parse reads
// "i/n", or "auto/n" with the index of a Kubernetes Indexed Job
// (JOB_COMPLETION_INDEX) or a Slurm array (SLURM_ARRAY_TASK_ID). Merge
// checks that the shards are of one run, dedupes identical records,
// reports missing cells and fails on conflicting ones, and writes one
// results file. docs/cluster has recipes for Kubernetes and Slurm.
//
// A directory without run.json that holds the results file a run or a
// merge would write is not a run directory, and both refuse it (a run
// resumes one whose file has complete lines, as the records of a run whose
// run.json was lost, each checked to be of this run), leaving it as it was;
// so is a sources directory (its sources.json, and no run.json). A run
// that read its sources from a directory, resumed without Config.Sources,
// is refused before it trains any, naming that directory, when the
// sources it would train could not be the same (that directory's were
// trained with other settings).
//
// One process at a time writes a run directory: Run (and Merge writing a
// directory) hold an flock(2) lock on RUN/.lock, which the kernel releases
// when the process dies, and a second process fails naming the holder's
// pid and host; Merge writing a results file outside a run directory
// holds DIR/.FILE.lock beside it the same way. ReadRuns is the one reader of run directories, for Merge
// and for reports (package report): strict by default, tolerant on
// request, with each method's coverage of its grid.
//
//	cfg := experiment.DefaultConfig()
//	cfg.Data, cfg.Out, cfg.Sources = folder, "runs/coil100", "sources/coil100"
//	sum, err := experiment.Run(ctx, cfg)
//	…
//	rep, err := experiment.Merge([]string{"runs/shard-0", "runs/shard-1"}, "runs/merged")
package experiment
