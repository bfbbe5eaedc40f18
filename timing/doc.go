// Package timing measures how long GreedyTL takes to train, the code behind
// the CLI's "greedytl bench".
//
// PaperTable reproduces the paper's Table "Training time in seconds for
// transferring to a single target class": m = 12, 15 and 20 training
// examples (2, 5 and 10 positives against 10 negatives) and N = 1899, 4995
// and 4492 candidate columns (the paper's Imagenet SIFT-BOW, Imagenet
// DECAF7 and SUN-397 Caffe-7 rows), for exact GreedyTL and GreedyTL-59,
// each cell on fresh random problems (standard normal columns, labels with
// the given class sizes in random order) with the paper's stopping rule
// δ = 1e-4 and λ = 1. On such pure-noise problems the δ rule may run many
// steps; Row.Steps reports how many. Every row carries the paper's mean
// time for the same cell, so the two can be compared side by side.
//
// Scaling times both methods for N = 10³, 10⁴, 10⁵ and 10⁶ at m = 20 with
// a fixed 60 steps (one random problem per size, shared by all runs),
// showing the exact search's linear growth in N and the sampled search's
// independence of it.
//
// Rows times both methods over the number of training examples, m = 200
// and 2,000 at N = 1,000 candidates and m = 200, 2,000 and 20,000 at
// N = 5,000, with a fixed 60 steps, showing that a fit grows linearly in m
// (the primal form of the search, docs/design.md §3); at N = 1,000 it also
// times the recommended methods greedytl-auto and greedytl-nway.
//
// Times are the wall-clock seconds and the process's CPU seconds (user and
// system time of all its threads) of greedytl.Fit (for greedytl-auto and
// greedytl-nway, of the method's Fit, whose members run in parallel),
// standardisation included and data generation excluded, called from the
// calling goroutine, the median and the least of Options.Repeats runs. The
// runs of the scaling and rows tables are interleaved: repetition r of
// every cell of a table before repetition r+1 of any, so that a machine
// whose speed drifts moves every cell alike. The paper's table, whose fits
// take a millisecond or less, runs each cell's repetitions in a row after
// one untimed warm-up fit: the steady state of a process fitting one model
// after another, as go test -bench measures it (interleaved, each fit
// would follow other cells' fits that displaced its data from the caches
// and left their own sizes of recycled buffers: up to half as slow again
// at m = 20).
package timing
