//go:build !purego

#include "textflag.h"

// ROW adds X times sixteen float32 values of row A, from column SI on,
// widened to float64, to the accumulators Y4–Y7.
#define ROW(A, X) \
	VCVTPS2PD (A)(SI*4), Y8 \
	VCVTPS2PD 16(A)(SI*4), Y9 \
	VCVTPS2PD 32(A)(SI*4), Y10 \
	VCVTPS2PD 48(A)(SI*4), Y11 \
	VFMADD231PD Y8, X, Y4 \
	VFMADD231PD Y9, X, Y5 \
	VFMADD231PD Y10, X, Y6 \
	VFMADD231PD Y11, X, Y7

// func axpy4F32(n int, a0, a1, a2, a3 *float32, x *[4]float64, y *float64)
//
// y[i] = fma(x3, a3[i], fma(x2, a2[i], fma(x1, a1[i], fma(x0, a0[i], y[i]))))
// for i < n, n a multiple of 16, each a[i] widened to float64 exactly
// (AVX2 and FMA3). Every element gets the same sequence of operations.
TEXT ·axpy4F32(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ a0+8(FP), R8
	MOVQ a1+16(FP), R9
	MOVQ a2+24(FP), R10
	MOVQ a3+32(FP), R11
	MOVQ x+40(FP), AX
	MOVQ y+48(FP), DI
	VBROADCASTSD 0(AX), Y0
	VBROADCASTSD 8(AX), Y1
	VBROADCASTSD 16(AX), Y2
	VBROADCASTSD 24(AX), Y3
	XORQ SI, SI

loop16:
	CMPQ SI, CX
	JGE  done
	VMOVUPD (DI)(SI*8), Y4
	VMOVUPD 32(DI)(SI*8), Y5
	VMOVUPD 64(DI)(SI*8), Y6
	VMOVUPD 96(DI)(SI*8), Y7
	ROW(R8, Y0)
	ROW(R9, Y1)
	ROW(R10, Y2)
	ROW(R11, Y3)
	VMOVUPD Y4, (DI)(SI*8)
	VMOVUPD Y5, 32(DI)(SI*8)
	VMOVUPD Y6, 64(DI)(SI*8)
	VMOVUPD Y7, 96(DI)(SI*8)
	ADDQ $16, SI
	JMP  loop16

done:
	VZEROUPPER
	RET
