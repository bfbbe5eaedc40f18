package report

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/source"
)

// synth describes a synthetic run: every method of the paper on a grid of
// classes in semantic groups, with accuracies and source weights that have
// a known structure (sources of the target's own group weigh most).
type synth struct {
	dataset   string
	classes   int
	groupSize int // 0: no groups
	negatives []int
	positives []int
	splits    int
	noise     []int
	methods   []string
	failEvery int // every failEvery-th cell fails (0: none)
	longNames bool
	seed      uint64
}

func (s synth) className(c int) string {
	if s.longNames {
		return fmt.Sprintf("intent_%03d_with_a_long_name", c)
	}
	return fmt.Sprintf("class_%02d", c)
}

func (s synth) groupName(c int) string {
	if s.longNames {
		return fmt.Sprintf("domain_%c_kitchen_and_dining", 'A'+c/s.groupSize)
	}
	return fmt.Sprintf("group %c", 'A'+c/s.groupSize)
}

// records generates the run's records.
func (s synth) records() []experiment.Record {
	rng := rand.New(rand.NewPCG(s.seed, s.seed))
	var recs []experiment.Record
	base := map[string]float64{}
	for i, m := range s.methods {
		base[m] = 0.78 - 0.012*float64(i)
	}
	cell := 0
	for t := range s.classes {
		if slices.Contains(s.negatives, t) {
			continue
		}
		targetEffect := 0.04 * rng.NormFloat64()
		for _, p := range s.positives {
			for _, n := range s.noise {
				for split := range s.splits {
					splitEffect := 0.01 * float64(split%3-1)
					for _, m := range s.methods {
						if n > 0 && !selectsFeatures(m) {
							continue
						}
						cell++
						r := experiment.Record{
							Dataset: s.dataset, Target: s.className(t), TargetIdx: t,
							Positives: p, Negatives: 10, Noise: n, Split: split, Method: m,
							TestPositives: 50, TestNegatives: 50, Features: -1,
						}
						if s.failEvery > 0 && cell%s.failEvery == 0 {
							r.Error = "synthetic failure"
							recs = append(recs, r)
							continue
						}
						noisePenalty := 0.0
						if m == "l1-logistic" || m == "elastic-net" || m == "rls-srcfeat" {
							noisePenalty = 0.03 * math.Log10(1+float64(n))
						}
						acc := base[m] + 0.025*math.Log(float64(p)) + targetEffect + splitEffect - noisePenalty + 0.01*rng.NormFloat64()
						r.BalancedAccuracy = min(1, max(0, acc))
						r.FitSeconds = 0.001 * float64(p) * (1 + 0.1*rng.Float64())
						if m == "greedytl" {
							r.FitSeconds *= 30
						}
						s.addWeights(&r, rng)
						recs = append(recs, r)
					}
				}
			}
		}
	}
	return recs
}

// addWeights gives the weight-recording methods weights on sources of the
// target's group (GreedyTL sparse, RLS dense).
func (s synth) addWeights(r *experiment.Record, rng *rand.Rand) {
	if !slices.Contains(weightMethods(), r.Method) {
		return
	}
	for c := range s.classes {
		if c == r.TargetIdx || slices.Contains(s.negatives, c) {
			continue
		}
		same := s.groupSize > 0 && c/s.groupSize == r.TargetIdx/s.groupSize ||
			s.groupSize == 0 && c%3 == r.TargetIdx%3
		var w float64
		switch {
		case r.Method == "rls-srcfeat" && same:
			w = 0.3 + 0.1*rng.Float64()
		case r.Method == "rls-srcfeat":
			w = 0.05 * rng.NormFloat64()
		case same && rng.Float64() < 0.6:
			w = 0.5 + 0.5*rng.Float64()
		}
		if w != 0 {
			r.Sources = append(r.Sources, c)
			r.SourceNames = append(r.SourceNames, s.className(c))
			r.Weights = append(r.Weights, w)
		}
	}
}

// write writes the run into a new directory and returns it: the records
// split over shards files, and run.json.
func (s synth) write(t testing.TB, shards int) string {
	t.Helper()
	dir := t.TempDir()
	recs := s.records()
	var classes, groups []string
	for c := range s.classes {
		classes = append(classes, s.className(c))
		if s.groupSize > 0 {
			groups = append(groups, s.groupName(c))
		}
	}
	var targets []string
	for c := range s.classes {
		if !slices.Contains(s.negatives, c) {
			targets = append(targets, s.className(c))
		}
	}
	if s.groupSize == 0 {
		groups = nil
	}
	m := experiment.Manifest{
		Dataset: experiment.DatasetInfo{Name: s.dataset, Features: 100}, Classes: classes, Groups: groups,
		Negatives: &source.Negatives{Classes: s.negatives}, Sources: source.ID{Count: s.classes - len(s.negatives)},
		Targets: targets, Positives: s.positives, Splits: s.splits, Noise: s.noise, Methods: s.methods, Seed: s.seed,
	}
	// A run of this greedytl: its identity in run.json and in every record.
	b := runJSON(t, m, true)
	id := runID(t, b)
	for i := range recs {
		recs[i].RunID = id
	}
	writeFile(t, filepath.Join(dir, "run.json"), string(b))
	for i := range shards {
		name := "results.jsonl"
		if shards > 1 {
			name = fmt.Sprintf("results-shard-%d-of-%d.jsonl", i, shards)
		}
		var part []experiment.Record
		for j := i; j < len(recs); j += shards {
			part = append(part, recs[j])
		}
		writeFile(t, filepath.Join(dir, name), jsonl(t, part))
	}
	return dir
}

// runJSON returns the run.json of a run with m's settings (its format,
// version and greedytl version filled in) and, with identity, its
// run_id; without, it is the run.json of a run made before records
// carried their run.
func runJSON(t testing.TB, m experiment.Manifest, identity bool) []byte {
	t.Helper()
	m.Format, m.Version, m.GreedytlVersion = experiment.ManifestFormat, experiment.ManifestVersion, "test"
	if m.Negatives == nil {
		m.Negatives = &source.Negatives{}
	}
	if identity {
		m.RunID = m.ID()
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runID returns the run_id of the run.json b.
func runID(t testing.TB, b []byte) string {
	t.Helper()
	var m experiment.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m.RunID
}

func jsonl(t testing.TB, recs []experiment.Record) string {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// paperMethods are the 14 methods of the paper, in its order.
func paperMethods() []string {
	// The registry's binary methods, without the methods that go beyond the paper.
	beyond := []string{"greedytl-auto", "logme-source", "stacked-logistic"}
	return slices.DeleteFunc(method.Names(), func(m string) bool { return slices.Contains(beyond, m) })
}
