package experiment

import (
	"slices"
	"testing"
)

// TestDrawEpisodeTakesAClassWhole: a class of exactly the shots plus the
// test examples per class — as many as choosePool requires, no more — is
// drawn whole, every row once, its training and test rows apart; it does
// not panic as a class of too few.
func TestDrawEpisodeTakesAClassWhole(t *testing.T) {
	const test = 4
	for _, shots := range []int{1, 3} {
		rowsOf := func(c int) []int { // exactly shots + test rows
			rows := make([]int, shots+test)
			for k := range rows {
				rows[k] = 100*c + k
			}
			return rows
		}
		g := group{Ways: 3, Positives: shots, Split: 2}
		ep := drawEpisode(5, g, []int{1, 2, 3, 4}, rowsOf, test)
		for k, c := range ep.classes {
			all := slices.Sorted(slices.Values(slices.Concat(ep.train[k], ep.test[k])))
			if len(ep.train[k]) != shots || len(ep.test[k]) != test || !slices.Equal(all, rowsOf(c)) {
				t.Errorf("%d shots: class %d: training rows %v, test rows %v, want %d and %d making up %v", shots, c, ep.train[k], ep.test[k], shots, test, rowsOf(c))
			}
		}
	}
}

// TestDrawEpisodeDrawsTheWholePool: the episodes' classes are drawn from
// the whole pool, not always its first classes: over 60 episodes of 2 ways
// from a pool of 10, every class of the pool is drawn, and each in both
// positions of an episode.
func TestDrawEpisodeDrawsTheWholePool(t *testing.T) {
	pool := []int{3, 4, 5, 7, 8, 9, 11, 12, 13, 14}
	rowsOf := func(c int) []int { return []int{10 * c, 10*c + 1, 10*c + 2} }
	first, second := map[int]int{}, map[int]int{}
	for e := range 60 {
		ep := drawEpisode(7, group{Ways: 2, Positives: 1, Split: e}, pool, rowsOf, 2)
		first[ep.classes[0]]++
		second[ep.classes[1]]++
	}
	for _, c := range pool {
		if first[c] == 0 || second[c] == 0 {
			t.Errorf("class %d: drawn first in %d and second in %d of 60 episodes, want both some", c, first[c], second[c])
		}
	}
}

// TestNoiseColumnsOfEachLevel: a group's noise columns are N(0,1) draws of
// their own for each noise level — the columns of 3 dimensions are not the
// first 3 of 7's — the same for the same group, train rows then test rows.
func TestNoiseColumnsOfEachLevel(t *testing.T) {
	g := group{Target: 2, Positives: 5, Split: 1}
	g.Noise = 3
	a3, b3 := noiseColumns(1, g, 15, 60)
	again, _ := noiseColumns(1, g, 15, 60)
	g.Noise = 7
	a7, _ := noiseColumns(1, g, 15, 60)
	if r, c := a3.Dims(); r != 15 || c != 3 {
		t.Fatalf("train noise %d×%d, want 15×3", r, c)
	}
	if r, c := b3.Dims(); r != 60 || c != 3 {
		t.Fatalf("test noise %d×%d, want 60×3", r, c)
	}
	if !slices.Equal(a3.RawMatrix().Data, again.RawMatrix().Data) {
		t.Error("the same group drew other noise")
	}
	same := 0
	for i := range 15 {
		for j := range 3 {
			if a3.At(i, j) == a7.At(i, j) {
				same++
			}
		}
	}
	if same > 0 {
		t.Errorf("%d of the 45 values of 3 noise dimensions are those of 7's", same)
	}
	var s, ss float64
	for _, v := range b3.RawMatrix().Data {
		s, ss = s+v, ss+v*v
	}
	if m, v := s/180, ss/180-(s/180)*(s/180); m < -0.3 || m > 0.3 || v < 0.7 || v > 1.3 {
		t.Errorf("test noise: mean %.3g, variance %.3g of 180 N(0,1) draws", m, v)
	}
	if a, _ := noiseColumns(1, group{Target: 2, Positives: 5, Split: 1}, 15, 60); a != nil {
		t.Error("noise 0: columns drawn")
	}
}
