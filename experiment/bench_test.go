package experiment

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/shareddata"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// The COIL-100 benchmarks' shared state: the dataset and its 80 sources
// (a fifth of the classes held out, seed 1), trained once per test binary
// into a directory removed by TestMain, or read from GREEDYTL_COIL_SOURCES
// (a directory from "greedytl train-sources --data coil100/hog").
var coil struct {
	once    sync.Once
	f       *dataset.Folder
	sources string
	err     error
	tmp     string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if coil.tmp != "" {
		os.RemoveAll(coil.tmp)
	}
	os.Exit(code)
}

// coilSetup returns COIL-100 hog and its sources directory, skipping the
// benchmark when the shared data are absent.
func coilSetup(b *testing.B) (*dataset.Folder, string) {
	dir := filepath.Dir(shareddata.Path(b, "coil100/hog/features.npy"))
	coil.once.Do(func() {
		if coil.f, coil.err = dataset.LoadFolder(dir); coil.err != nil {
			return
		}
		if coil.sources = os.Getenv("GREEDYTL_COIL_SOURCES"); coil.sources != "" {
			return
		}
		var neg *source.Negatives
		if neg, coil.err = source.PlanNegatives(coil.f, nil, source.DefaultNegativeFraction, 1); coil.err != nil {
			return
		}
		if coil.tmp, coil.err = os.MkdirTemp("", "greedytl-coil-sources-"); coil.err != nil {
			return
		}
		coil.sources = coil.tmp
		_, coil.err = source.TrainAll(context.Background(), coil.f, neg, coil.sources, source.DefaultTrainConfig(), source.RunOptions{})
	})
	if coil.err != nil {
		b.Fatal(coil.err)
	}
	return coil.f, coil.sources
}

// BenchmarkCOIL100Fit measures one method's fit (and prediction) on the
// cells of COIL-100 hog: 4 targets × {2, 5, 10} positives, split 0 — the
// per-cell cost behind a full run's time (79 sources, 800 features). It
// reports the process's CPU time per cell too ("cpu-ms/op"), which unlike
// ns/op does not grow when other processes compete for the cores.
func BenchmarkCOIL100Fit(b *testing.B) {
	f, src := coilSetup(b)
	cfg := DefaultConfig()
	cfg.Data, cfg.Sources, cfg.Out = f, src, b.TempDir()
	ix, err := source.ReadIndex(src)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range ix.Sources[:4] {
		cfg.Targets = append(cfg.Targets, e.Name)
	}
	r, _ := loadRunner(b, &cfg, func(*source.Negatives) ([]string, error) { return cfg.Targets, nil })
	var data []*groupData
	var groups []group
	for _, g := range r.grid.groups(shard.Shard{}) {
		if g.Split == 0 {
			groups = append(groups, g)
			data = append(data, r.build(g))
		}
	}
	for _, name := range paperMethods() {
		b.Run(name, func(b *testing.B) {
			k := 0
			start := processCPU()
			for b.Loop() {
				rec, err := r.fit(context.Background(), groups[k%len(groups)], data[k%len(groups)], name)
				if err != nil || rec.Error != "" {
					b.Fatalf("%v: %v %s", groups[k%len(groups)], err, rec.Error)
				}
				k++
			}
			if cpu := processCPU() - start; cpu > 0 {
				b.ReportMetric(cpu.Seconds()*1e3/float64(k), "cpu-ms/op")
			}
		})
	}
}

// BenchmarkCOIL100Run runs a slice of the full COIL-100 hog grid — 2
// targets × {2, 5, 10} positives × 1 split × every method — end to end, on
// GOMAXPROCS workers, with the sources trained beforehand.
func BenchmarkCOIL100Run(b *testing.B) {
	f, src := coilSetup(b)
	ix, err := source.ReadIndex(src)
	if err != nil {
		b.Fatal(err)
	}
	cells := 0
	start := processCPU()
	for b.Loop() {
		cfg := DefaultConfig()
		cfg.Data, cfg.Sources, cfg.Out, cfg.Methods = f, src, b.TempDir(), paperMethods()
		cfg.Targets, cfg.Splits = []string{ix.Sources[0].Name, ix.Sources[1].Name}, 1
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Failed > 0 {
			b.Fatalf("%d cells failed", sum.Failed)
		}
		cells += sum.Finished
	}
	b.ReportMetric(float64(cells)/b.Elapsed().Seconds(), "cells/s")
	if cpu := processCPU() - start; cpu > 0 {
		b.ReportMetric(cpu.Seconds()*1e3/float64(cells), "cpu-ms/cell")
	}
}
