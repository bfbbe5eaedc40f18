// Package source holds the source hypotheses of hypothesis transfer
// learning: linear classifiers h_j(x) = w_jᵀx + b_j, their scores on target
// examples, and the paper's recipe for training them.
//
// # Scoring
//
// A Set is an ordered set of linear sources, built from liblinear models
// (NewSet), liblinear model files (ReadModelFiles: files of liblinear-train or
// greedytl train) or a sources directory (LoadDir). Set.Scores computes the
// m × n score matrix H = X·W + 1bᵀ of m examples under n sources with one
// matrix product, W being the sources' weight vectors stacked once into a
// d × n matrix; Set.ScoresCSR does the same for sparse rows. H is the input
// GreedyTL's candidate matrix [X, H] needs. Set.Subset keeps only the
// sources a target model selected, which is all prediction needs. A source's
// score is positive for its own class: it is the decision value oriented
// towards the greater of its model's two labels (linear.Model.Scores).
//
//	set, err := source.LoadDir("coil100-sources")
//	...
//	H, err := set.Scores(X) // X: m × d target features
//
// # Training sources
//
// The leave-one-class-out protocol (docs/design.md §6) holds some classes out as a
// surrogate negative class; PlanNegatives draws them (named classes, or a
// fraction of the classes, by default C/5) and splits their pooled
// examples 90%/10% into source negatives and target negatives. TrainOne
// trains the source of one class: a liblinear-style linear SVM (default
// L2-regularised squared hinge, -s 1, with a bias feature, -B 1) of the
// class's examples against the source negatives, C chosen by 5-fold
// stratified cross-validation over {1e-4, …, 1e4} by balanced accuracy,
// then refitted on all the examples. TrainAll trains every class on a
// worker pool and writes a sources directory:
//
//	OUT/sources.json            the Index: data digest, classes, negative
//	                            plan (with the target negatives' rows),
//	                            settings and one Entry {name, class, file,
//	                            C, cv_score, ...} per source
//	OUT/models/<c>-<name>.model each source's liblinear model file, which
//	                            liblinear-predict reads, named by its class
//	                            index and name ("models/1-obj2.model")
//	OUT/models/<c>-<name>.json  its sidecar record (Info, job fingerprint)
//
// TrainAll holds its directory for the run (or, for a shard, its part of
// it) and refuses a directory whose index is another job's (ErrOtherJob).
// It is resumable (finished classes are kept and skipped on restart;
// damaged ones are retrained), shardable across processes or machines by
// class (RunOptions.Shard, see package shard), and deterministic: the same
// data, plan and TrainConfig give byte-identical model files and index
// however the work is interrupted, scheduled or sharded.
//
// ReadIndex reads a directory's index, whose Negatives.Target rows are the
// target negatives of the experiments; Index.CheckData confirms first that
// a dataset folder is the one the sources were trained on, and Index.Load
// reads its models (refusing a directory that is incomplete, such as a
// shard's part of the sources). Index.ID identifies the sources (by one digest,
// Index.Identity) wherever a result computed from them is recorded: in a
// model file fitted with them and in an experiment's run.json;
// Index.Differences says how a recorded ID differs from a directory's.
package source
