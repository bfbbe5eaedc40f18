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

// AXPY16 adds to y's sixteen float64 values from column SI on (DI) the
// rows R8–R11 times Y0–Y3 (ROW, in that order), each element's operations
// in one sequence: the step of axpy4F32's and axpyRowsF32's 16-column loops.
#define AXPY16 \
	VMOVUPD (DI)(SI*8), Y4 \
	VMOVUPD 32(DI)(SI*8), Y5 \
	VMOVUPD 64(DI)(SI*8), Y6 \
	VMOVUPD 96(DI)(SI*8), Y7 \
	ROW(R8, Y0) \
	ROW(R9, Y1) \
	ROW(R10, Y2) \
	ROW(R11, Y3) \
	VMOVUPD Y4, (DI)(SI*8) \
	VMOVUPD Y5, 32(DI)(SI*8) \
	VMOVUPD Y6, 64(DI)(SI*8) \
	VMOVUPD Y7, 96(DI)(SI*8)

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
	AXPY16
	ADDQ $16, SI
	JMP  loop16

done:
	VZEROUPPER
	RET

// func axpyRowsF32(n, rows, ld int, z *float32, x *float64, y *float64)
//
// For l = 0, 4, …, rows−4 in turn: y[i] = fma(x[l+3], z[(l+3)·ld+i],
// fma(x[l+2], …, fma(x[l], z[l·ld+i], y[i]))) for i < n (any n; rows a
// multiple of 4): axpy4F32 over whole rows, its tail columns with the same
// fused multiply–adds four and then one at a time (AVX2 and FMA3). Each
// group asks for the cache lines of the next group's rows at the columns
// it reads (the block streams from memory, and each row starts a new page,
// where the hardware's prefetcher stops; a prefetch never faults, past the
// block's end included). R15 is scratch: the function reads no global.
TEXT ·axpyRowsF32(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ rows+8(FP), BX
	MOVQ ld+16(FP), DX
	SHLQ $2, DX
	MOVQ z+24(FP), R8
	MOVQ x+32(FP), AX
	MOVQ y+40(FP), DI
	MOVQ CX, R12
	ANDQ $-16, R12
	MOVQ CX, R13
	ANDQ $-4, R13

group:
	CMPQ BX, $4
	JLT  rdone
	LEAQ (R8)(DX*1), R9
	LEAQ (R9)(DX*1), R10
	LEAQ (R10)(DX*1), R11
	VBROADCASTSD 0(AX), Y0
	VBROADCASTSD 8(AX), Y1
	VBROADCASTSD 16(AX), Y2
	VBROADCASTSD 24(AX), Y3
	XORQ SI, SI

r16:
	CMPQ SI, R12
	JGE  r4
	LEAQ (R8)(SI*4), R15
	PREFETCHT0 (R15)(DX*4)
	LEAQ (R9)(SI*4), R15
	PREFETCHT0 (R15)(DX*4)
	LEAQ (R10)(SI*4), R15
	PREFETCHT0 (R15)(DX*4)
	LEAQ (R11)(SI*4), R15
	PREFETCHT0 (R15)(DX*4)
	AXPY16
	ADDQ $16, SI
	JMP  r16

r4:
	CMPQ SI, R13
	JGE  r1
	VMOVUPD (DI)(SI*8), Y4
	VCVTPS2PD (R8)(SI*4), Y8
	VFMADD231PD Y8, Y0, Y4
	VCVTPS2PD (R9)(SI*4), Y9
	VFMADD231PD Y9, Y1, Y4
	VCVTPS2PD (R10)(SI*4), Y10
	VFMADD231PD Y10, Y2, Y4
	VCVTPS2PD (R11)(SI*4), Y11
	VFMADD231PD Y11, Y3, Y4
	VMOVUPD Y4, (DI)(SI*8)
	ADDQ $4, SI
	JMP  r4

r1:
	CMPQ SI, CX
	JGE  rnext
	VMOVSD (DI)(SI*8), X4
	VCVTSS2SD (R8)(SI*4), X8, X8
	VFMADD231SD X8, X0, X4
	VCVTSS2SD (R9)(SI*4), X9, X9
	VFMADD231SD X9, X1, X4
	VCVTSS2SD (R10)(SI*4), X10, X10
	VFMADD231SD X10, X2, X4
	VCVTSS2SD (R11)(SI*4), X11, X11
	VFMADD231SD X11, X3, X4
	VMOVSD X4, (DI)(SI*8)
	INCQ SI
	JMP  r1

rnext:
	LEAQ (R11)(DX*1), R8
	ADDQ $32, AX
	SUBQ $4, BX
	JMP  group

rdone:
	VZEROUPPER
	RET
