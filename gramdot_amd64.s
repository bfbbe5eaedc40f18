//go:build !purego

#include "textflag.h"

// func floatsDot4AVX(n int, x, y0, y1, y2, y3 *float64, out *[4]float64)
//
// out[q] = x·y_q, q = 0, …, 3, each summed as gonum's DotUnitary (SSE2)
// sums: lane l of the accumulator Y_q holds the products of the elements
// i ≡ l mod 4 below n rounded down to a multiple of 4 (VMULPD, then
// VADDPD: no fused multiply–add); the remaining elements' products are
// added to lane 0 in turn; the result is (lane 0 + lane 2) + (lane 1 +
// lane 3).
TEXT ·floatsDot4AVX(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y0+16(FP), R8
	MOVQ y1+24(FP), R9
	MOVQ y2+32(FP), R10
	MOVQ y3+40(FP), R11
	MOVQ out+48(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-4, DX
	JZ   halves

loop:
	VMOVUPD (SI)(AX*8), Y4
	VMULPD  (R8)(AX*8), Y4, Y5
	VADDPD  Y5, Y0, Y0
	VMULPD  (R9)(AX*8), Y4, Y6
	VADDPD  Y6, Y1, Y1
	VMULPD  (R10)(AX*8), Y4, Y7
	VADDPD  Y7, Y2, Y2
	VMULPD  (R11)(AX*8), Y4, Y8
	VADDPD  Y8, Y3, Y3
	ADDQ    $4, AX
	CMPQ    AX, DX
	JLT     loop

halves:
	// Lanes 2 and 3 to X10–X13 before the scalar tail, whose VEX
	// instructions clear the upper halves of Y0–Y3.
	VEXTRACTF128 $1, Y0, X10
	VEXTRACTF128 $1, Y1, X11
	VEXTRACTF128 $1, Y2, X12
	VEXTRACTF128 $1, Y3, X13
	CMPQ         AX, CX
	JGE          reduce

tail:
	VMOVSD (SI)(AX*8), X4
	VMULSD (R8)(AX*8), X4, X5
	VADDSD X5, X0, X0
	VMULSD (R9)(AX*8), X4, X6
	VADDSD X6, X1, X1
	VMULSD (R10)(AX*8), X4, X7
	VADDSD X7, X2, X2
	VMULSD (R11)(AX*8), X4, X8
	VADDSD X8, X3, X3
	INCQ   AX
	CMPQ   AX, CX
	JLT    tail

reduce:
	// (s0 + s2, s1 + s3), then (s0 + s2) + (s1 + s3).
	VADDPD      X10, X0, X0
	VADDPD      X11, X1, X1
	VADDPD      X12, X2, X2
	VADDPD      X13, X3, X3
	VPERMILPD   $1, X0, X4
	VPERMILPD   $1, X1, X5
	VPERMILPD   $1, X2, X6
	VPERMILPD   $1, X3, X7
	VADDSD      X4, X0, X0
	VADDSD      X5, X1, X1
	VADDSD      X6, X2, X2
	VADDSD      X7, X3, X3
	VMOVSD      X0, (DI)
	VMOVSD      X1, 8(DI)
	VMOVSD      X2, 16(DI)
	VMOVSD      X3, 24(DI)
	VZEROUPPER
	RET
