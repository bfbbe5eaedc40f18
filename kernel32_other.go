//go:build !amd64 || purego

package greedytl

// haveKernel32 says whether axpy4F32 has a vector implementation here; it
// has not, and the exact search keeps its float64 block (see useBlock32).
const haveKernel32 = false

// axpy4F32 is axpy4F32Go where there is no vector kernel.
func axpy4F32(n int, a0, a1, a2, a3 *float32, x *[4]float64, y *float64) {
	axpy4F32Go(n, a0, a1, a2, a3, x, y)
}

// axpyRowsF32 is axpyRowsF32Go where there is no vector kernel.
func axpyRowsF32(n, rows, ld int, z *float32, x *float64, y *float64) {
	axpyRowsF32Go(n, rows, ld, z, x, y)
}
