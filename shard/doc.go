// Package shard splits a job of independent parts — the classes of a
// train-sources job, the cell groups of an experiment — among N processes
// without a coordinator: shard I of N takes the parts whose key k has
// k mod N = I, so the N shards together take every part exactly once. The
// key is the caller's: a class index (source.TrainAll) or a stable hash of
// a cell group (experiment.Run).
//
// A shard is written "i/n". On a cluster the index usually comes from the
// scheduler, so Parse also accepts "auto/n", taking i from the index of a
// Kubernetes Indexed Job's pod (JOB_COMPLETION_INDEX) or of a Slurm array's
// task (SLURM_ARRAY_TASK_ID):
//
//	sh, err := shard.Parse("auto/8", os.Getenv)
//	...
//	if sh.Contains(uint64(class)) {
//		// this process's part
//	}
//
// The zero Shard takes the whole job, as does any shard of N = 1.
package shard
