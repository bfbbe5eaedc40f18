package report

import "math"

// merge is one step of an agglomerative clustering: clusters a and b (ids:
// 0…n−1 are the points, n+i the cluster made by step i) joined at height.
type merge struct {
	a, b   int
	height float64
}

// averageLinkage clusters the rows of points (Euclidean distance, average
// linkage: the distance between two clusters is the mean distance between
// their members) and returns the merges and the dendrogram's leaf order.
// Ties are broken towards the pair with the smallest ids; in the leaf order
// the part holding the smallest point comes first. It takes O(n²) memory
// and O(n³) time, fine for the thousand classes of a large run.
func averageLinkage(points [][]float64) ([]merge, []int) {
	n := len(points)
	if n == 0 {
		return nil, nil
	}
	// d[i][j] for live clusters, indexed by slot; slot i starts as point i
	// and holds the merged cluster after its merge.
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range i {
			var s float64
			for k := range points[i] {
				diff := points[i][k] - points[j][k]
				s += diff * diff
			}
			d[i][j] = math.Sqrt(s)
			d[j][i] = d[i][j]
		}
	}
	size := make([]int, n)
	id := make([]int, n)       // slot → cluster id
	leaves := make([][]int, n) // slot → leaf order of its cluster
	alive := make([]bool, n)
	for i := range n {
		size[i], id[i], alive[i], leaves[i] = 1, i, true, []int{i}
	}
	merges := make([]merge, 0, n-1)
	for step := range n - 1 {
		bi, bj, best := -1, -1, math.Inf(1)
		for i := range n {
			if !alive[i] {
				continue
			}
			for j := i + 1; j < n; j++ {
				if !alive[j] {
					continue
				}
				if v := d[i][j]; v < best || (v == best && lessPair(id, i, j, bi, bj)) {
					bi, bj, best = i, j, v
				}
			}
		}
		a, b := id[bi], id[bj]
		if a > b {
			a, b = b, a
		}
		merges = append(merges, merge{a, b, best})
		// Lance–Williams update for average linkage, into slot bi.
		ni, nj := float64(size[bi]), float64(size[bj])
		for k := range n {
			if alive[k] && k != bi && k != bj {
				v := (ni*d[bi][k] + nj*d[bj][k]) / (ni + nj)
				d[bi][k], d[k][bi] = v, v
			}
		}
		first, second := leaves[bi], leaves[bj]
		if minInt(second) < minInt(first) {
			first, second = second, first
		}
		leaves[bi] = append(append([]int(nil), first...), second...)
		size[bi] += size[bj]
		id[bi] = n + step
		alive[bj], leaves[bj] = false, nil
	}
	for i := range n {
		if alive[i] {
			return merges, leaves[i]
		}
	}
	panic("unreachable")
}

// lessPair reports whether the slot pair (i, j) has smaller cluster ids than
// (bi, bj), for a deterministic choice among equal distances.
func lessPair(id []int, i, j, bi, bj int) bool {
	if bi < 0 {
		return true
	}
	a1, b1 := min(id[i], id[j]), max(id[i], id[j])
	a2, b2 := min(id[bi], id[bj]), max(id[bi], id[bj])
	return a1 < a2 || (a1 == a2 && b1 < b2)
}

func minInt(xs []int) int {
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}
