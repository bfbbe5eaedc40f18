//go:build !purego

package greedytl

import "golang.org/x/sys/cpu"

// haveKernel32 says whether axpy4F32 runs on this machine (AVX2 and FMA3).
var haveKernel32 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// axpy4F32 sets y[i] = fma(x[3], a3[i], fma(x[2], a2[i], fma(x[1], a1[i],
// fma(x[0], a0[i], y[i])))) for i < n, a multiple of 16 (kernel32_amd64.s).
//
//go:noescape
func axpy4F32(n int, a0, a1, a2, a3 *float32, x *[4]float64, y *float64)

// axpyRowsF32 adds rows 0, …, rows−1 of the row-major float32 block z (ld
// floats apart), weighted by x, to y[:n], four rows at a time, each
// element with axpy4F32's fused multiply–adds (kernel32_amd64.s); rows is
// a multiple of 4, n any.
//
//go:noescape
func axpyRowsF32(n, rows, ld int, z *float32, x *float64, y *float64)
