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
