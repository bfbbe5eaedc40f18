//go:build !purego

#include "textflag.h"

// BLOCKARGS loads the block arguments rows, stride and m of moments4AVX and
// scale4AVX: SI = rows, BX = 8·stride (bytes from a row to the next), CX =
// m.
#define BLOCKARGS \
	MOVQ rows+0(FP), SI \
	MOVQ stride+8(FP), BX \
	SHLQ $3, BX \
	MOVQ m+16(FP), CX

// RESTART clears the four accumulators Y0–Y3 and starts over at the first
// row: R8 = SI, AX = 0.
#define RESTART \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	MOVQ   SI, R8 \
	XORQ   AX, AX

// func moments4AVX(rows *float64, stride, m int, invN float64, out *[8]float64)
//
// For the four adjacent columns of the m×4 block whose row i starts at
// rows + 8·i·stride (m ≥ 1): out[0:4] = ((s0 + s1) + (s2 + s3))·invN, the
// means, with s_r the sum of rows i ≡ r (mod 4) below m − m%4 (and, for
// s0, every row from there on), in row order; out[4:8] the same sums of
// the squared deviations from the means, each square rounded before its
// addition (no fused multiply–add). Each lane does what moments4Go does
// for its column (AVX).
TEXT ·moments4AVX(SB), NOSPLIT, $0-40
	BLOCKARGS
	VBROADCASTSD invN+24(FP), Y15
	MOVQ out+32(FP), DI
	MOVQ CX, DX
	ANDQ $-4, DX

	// Pass 1: the sums.
	RESTART

sum4:
	CMPQ AX, DX
	JGE  sumtail
	VADDPD (R8), Y0, Y0
	ADDQ   BX, R8
	VADDPD (R8), Y1, Y1
	ADDQ   BX, R8
	VADDPD (R8), Y2, Y2
	ADDQ   BX, R8
	VADDPD (R8), Y3, Y3
	ADDQ   BX, R8
	ADDQ   $4, AX
	JMP    sum4

sumtail:
	CMPQ AX, CX
	JGE  sumdone
	VADDPD (R8), Y0, Y0
	ADDQ   BX, R8
	INCQ   AX
	JMP    sumtail

sumdone:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VMULPD Y15, Y0, Y14
	VMOVUPD Y14, (DI)

	// Pass 2: the squared deviations.
	RESTART

sq4:
	CMPQ AX, DX
	JGE  sqtail
	VMOVUPD (R8), Y4
	ADDQ    BX, R8
	VMOVUPD (R8), Y5
	ADDQ    BX, R8
	VMOVUPD (R8), Y6
	ADDQ    BX, R8
	VMOVUPD (R8), Y7
	ADDQ    BX, R8
	VSUBPD  Y14, Y4, Y4
	VSUBPD  Y14, Y5, Y5
	VSUBPD  Y14, Y6, Y6
	VSUBPD  Y14, Y7, Y7
	VMULPD  Y4, Y4, Y4
	VMULPD  Y5, Y5, Y5
	VMULPD  Y6, Y6, Y6
	VMULPD  Y7, Y7, Y7
	VADDPD  Y4, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	ADDQ    $4, AX
	JMP     sq4

sqtail:
	CMPQ AX, CX
	JGE  sqdone
	VMOVUPD (R8), Y4
	ADDQ    BX, R8
	VSUBPD  Y14, Y4, Y4
	VMULPD  Y4, Y4, Y4
	VADDPD  Y4, Y0, Y0
	INCQ    AX
	JMP     sqtail

sqdone:
	VADDPD  Y1, Y0, Y0
	VADDPD  Y3, Y2, Y2
	VADDPD  Y2, Y0, Y0
	VMOVUPD Y0, 32(DI)
	VZEROUPPER
	RET

// func scale4AVX(rows *float64, stride, m int, mf *[8]float64, dst *float64)
//
// dst[q·m + i] = (rows[i·stride + q] − mf[q])·mf[4+q] for q < 4, i < m:
// the four columns of the block standardised and stored column after
// column (AVX).
TEXT ·scale4AVX(SB), NOSPLIT, $0-40
	BLOCKARGS
	MOVQ    mf+24(FP), AX
	VMOVUPD (AX), Y14
	VMOVUPD 32(AX), Y15
	MOVQ    dst+32(FP), DI
	MOVQ    CX, DX
	SHLQ    $3, DX
	LEAQ    (DI)(DX*1), R9
	LEAQ    (R9)(DX*1), R10
	LEAQ    (R10)(DX*1), R11
	XORQ    AX, AX

scale:
	CMPQ         AX, CX
	JGE          scaledone
	VMOVUPD      (SI), Y0
	VSUBPD       Y14, Y0, Y0
	VMULPD       Y15, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMOVLPD      X0, (DI)(AX*8)
	VMOVHPD      X0, (R9)(AX*8)
	VMOVLPD      X1, (R10)(AX*8)
	VMOVHPD      X1, (R11)(AX*8)
	ADDQ         BX, SI
	INCQ         AX
	JMP          scale

scaledone:
	VZEROUPPER
	RET
