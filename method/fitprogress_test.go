package method

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/cputime"
)

// progressLog records the calls of an Extra.Progress: each (done, total),
// and whether two calls ever overlapped. Its callback takes no lock of its
// own, so that calls from two goroutines that the fit does not serialise
// are a data race (go test -race) as well as an overlap.
type progressLog struct {
	calls   [][2]int
	inside  atomic.Int32
	overlap atomic.Bool
	// onCall, if set, is called inside each call with done.
	onCall func(done int)
}

func (p *progressLog) progress(done, total int) {
	if p.inside.Add(1) != 1 {
		p.overlap.Store(true)
	}
	time.Sleep(100 * time.Microsecond) // a window for an overlapping call
	p.calls = append(p.calls, [2]int{done, total})
	if p.onCall != nil {
		p.onCall(done)
	}
	p.inside.Add(-1)
}

// check reports whether the calls are a fit's whole progress: at least
// one, done increasing from its first call up to total in the last, total
// the same in every call and the number of calls want.
func (p *progressLog) check(t *testing.T, what string, wantCalls int) {
	t.Helper()
	if p.overlap.Load() {
		t.Errorf("%s: two progress calls overlapped", what)
	}
	if len(p.calls) != wantCalls {
		t.Errorf("%s: %d progress calls %v, want %d", what, len(p.calls), p.calls, wantCalls)
	}
	if len(p.calls) == 0 {
		return
	}
	total := p.calls[0][1]
	for i, c := range p.calls {
		if c[1] != total || c[0] < 1 || (i > 0 && c[0] <= p.calls[i-1][0]) {
			t.Errorf("%s: progress calls %v: call %d is not increasing, or not of total %d", what, p.calls, i, total)
			break
		}
	}
	if last := p.calls[len(p.calls)-1]; last[0] != total {
		t.Errorf("%s: progress ends at %d of %d", what, last[0], total)
	}
}

// autoItems is greedytl-auto's number of progress calls on labels y
// (GreedyAuto.Fit's doc): the whole sample's ridge member and committee,
// and one committee a subsample — none with at most 3 examples of the
// larger class (the negatives on a tie), one a left-out example of up to
// 10, and 10 beyond.
func autoItems(y []float64, single bool) int {
	pos, neg := 0, 0
	for _, v := range y {
		if v > 0 {
			pos++
		} else {
			neg++
		}
	}
	larger := max(pos, neg)
	switch {
	case single || larger <= 3:
		return 2
	case larger <= 10:
		return 2 + larger
	}
	return 12
}

// greedytl-auto reports its progress once for the ridge member and once a
// committee, from 1 to its total in order, never two calls at once (on
// several cores too: m·N = 132,000 spreads the committees over workers,
// go test -race), its total the ridge member's units and each
// committee's (autoUnits), and the model is the same bit for bit with or
// without the callback.
func TestGreedyAutoProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	big := clusteredProblem(rng, 300, 400, 40)
	small := clusteredProblem(rng, 30, 60, 8)
	few := clusteredProblem(rng, 8, 20, 4)
	copy(few.Y, []float64{1, 1, -1, -1, -1, -1, -1, -1}) // 6 negatives: 6 subsamples
	three := clusteredProblem(rng, 5, 20, 4)
	copy(three.Y, []float64{1, 1, -1, -1, -1})
	for _, tc := range []struct {
		name   string
		train  Data
		single bool
	}{{"m=300", big, false}, {"m=30", small, false}, {"m=8", few, false}, {"m=5", three, false}, {"single_fit", small, true}} {
		a := newGreedyAuto()
		a.SingleFit = tc.single
		var log progressLog
		with, err := a.Fit(context.Background(), tc.train, Extra{Progress: log.progress})
		if err != nil {
			t.Fatal(err)
		}
		items := autoItems(tc.train.Y, tc.single)
		log.check(t, tc.name, items)
		m, d := tc.train.X.Dims()
		_, n := tc.train.H.Dims()
		ridge := a.autoUnits(m, d, n, unbaggedRidge(m, d+n), sharedGram(m, d+n) && d+n <= m)
		if want := ridge + (items-1)*autoCommitteeUnits; len(log.calls) > 0 && log.calls[0][1] != want {
			t.Errorf("%s: total %d, want %d", tc.name, log.calls[0][1], want)
		}
		without, err := a.Fit(context.Background(), tc.train, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		sameModelFile(t, tc.name, with, without)
	}
}

// sameModelFile fails unless the binary models a and b write the same
// file.
func sameModelFile(t *testing.T, what string, a, b Model) {
	t.Helper()
	var fa, fb bytes.Buffer
	if err := Write(&fa, a, FileInfo{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&fb, b, FileInfo{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fa.Bytes(), fb.Bytes()) {
		t.Errorf("%s: the model with a progress callback differs from the one without", what)
	}
}

// A greedytl-auto fit cancelled from its progress reports nothing more:
// the calls stop at the one that cancelled, on one core and on several
// (the other workers' committees finish unreported), and Fit returns the
// context's error.
func TestGreedyAutoProgressStopsWhenCancelled(t *testing.T) {
	for _, m := range []int{30, 300} {
		train := clusteredProblem(rand.New(rand.NewPCG(25, uint64(m))), m, 400, 40)
		ctx, cancel := context.WithCancel(context.Background())
		var log progressLog
		log.onCall = func(int) {
			if len(log.calls) == 2 { // the second call (a unit may count several)
				cancel()
			}
		}
		_, err := newGreedyAuto().Fit(ctx, train, Extra{Progress: log.progress})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("m=%d: cancelled fit returned %v, want context.Canceled", m, err)
		}
		if len(log.calls) != 2 {
			t.Errorf("m=%d: progress calls %v, want 2 (none after the cancel)", m, log.calls)
		}
	}
}

// greedytl-nway reports its progress once a fold of each member's
// cross-validation of C and once for each member's final fit (which may
// count as several units: done then jumps), from its first call to its
// total in order, one call at a time, and the model is the same bit for
// bit with or without the callback: with one member (no sources) or two,
// with every class of 1 example (no cross-validation), 3 (3 folds) and
// 30 (5 folds on 20 a class).
func TestNWayProgress(t *testing.T) {
	mm, err := NewMulti("greedytl-nway")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		shots, n, members, folds int
	}{{1, 6, 2, 0}, {3, 6, 2, 3}, {3, 0, 1, 3}, {30, 6, 2, 5}} {
		name := fmt.Sprintf("%d shots, %d sources", tc.shots, tc.n)
		train, y, _, _ := multiProblem(25, 4, tc.shots, 1, 12, max(tc.n, 1))
		if tc.n == 0 {
			train.H = nil
		}
		var log progressLog
		with, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 3, Progress: log.progress})
		if err != nil {
			t.Fatal(err)
		}
		log.check(t, name, tc.members*(tc.folds+1))
		without, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var fa, fb bytes.Buffer
		if err := WriteMulti(&fa, with, FileInfo{}); err != nil {
			t.Fatal(err)
		}
		if err := WriteMulti(&fb, without, FileInfo{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fa.Bytes(), fb.Bytes()) {
			t.Errorf("%s: the model with a progress callback differs from the one without", name)
		}
	}
}

// A greedytl-nway fit cancelled from its progress reports nothing more
// and returns the context's error.
func TestNWayProgressStopsWhenCancelled(t *testing.T) {
	mm, err := NewMulti("greedytl-nway")
	if err != nil {
		t.Fatal(err)
	}
	train, y, _, _ := multiProblem(25, 4, 5, 1, 12, 6)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := progressLog{onCall: func(done int) {
		if done >= 3 {
			cancel()
		}
	}}
	if _, err := mm.FitMulti(ctx, train, y, Extra{Seed: 3, Progress: log.progress}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fit returned %v, want context.Canceled", err)
	}
	if len(log.calls) != 3 {
		t.Errorf("progress calls %v, want 3 (none after the cancel)", log.calls)
	}
}

// TestGreedyAutoProgressFollowsWork: on one core, where greedytl-auto's
// ridge member takes a large share of the fit (m = 800 > ridgeLambdaRows:
// its dual solve on every row, N = 1,280), each progress call's fraction
// done is within 0.2 of the fit's CPU time spent by then, and the fractions
// increase. The ridge member counted as one unit, as a committee: its call
// said 1/12 of the fit done where about half of its time was spent.
func TestGreedyAutoProgressFollowsWork(t *testing.T) {
	if testing.Short() {
		t.Skip("a fit of seconds")
	}
	if _, ok := cputime.Process(); !ok {
		// Every reading 0: each call's share of the CPU time is NaN, and
		// the check against the work done could not fail.
		t.Skip("the process's CPU time cannot be read here (internal/cputime: Unix only)")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	train := clusteredProblem(rand.New(rand.NewPCG(29, 3)), 800, 1200, 80)
	var fracs []float64
	var cpu []time.Duration
	start := processCPU()
	if _, err := newGreedyAuto().Fit(context.Background(), train, Extra{Progress: func(done, total int) {
		cpu = append(cpu, processCPU()-start)
		fracs = append(fracs, float64(done)/float64(total))
	}}); err != nil {
		t.Fatal(err)
	}
	end := processCPU() - start
	if len(fracs) != 12 {
		t.Fatalf("%d progress calls, want 12", len(fracs))
	}
	for i, f := range fracs {
		spent := cpu[i].Seconds() / end.Seconds()
		t.Logf("call %d: %.3f done, %.3f of the CPU time spent", i+1, f, spent)
		if i > 0 && f <= fracs[i-1] {
			t.Errorf("call %d: %.3f done after %.3f", i+1, f, fracs[i-1])
		}
		if math.Abs(f-spent) > 0.2 {
			t.Errorf("call %d: %.3f done where %.3f of the fit's CPU time was spent", i+1, f, spent)
		}
	}
}
