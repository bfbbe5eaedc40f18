//go:build !purego

#include "textflag.h"

// BLOCKARGS loads the block arguments rows, stride and m of moments4AVX and
// standardize4AVX: SI = rows, BX = 8·stride (bytes from a row to the next), CX =
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

// MOMENTS computes, for the four adjacent columns of the block (SI, BX,
// CX as BLOCKARGS leaves them; Y15 = invN broadcast), Y14 = the means
// ((s0 + s1) + (s2 + s3))·invN, with s_r the sum of rows i ≡ r (mod 4)
// below m − m%4 (and, for s0, every row from there on), in row order, and
// Y0 = the same sums of the squared deviations from the means, each
// square rounded before its addition (no fused multiply–add): each lane
// does what moments4Go does for its column. DX = m − m%4 afterwards. Used
// once per function (its labels are the function's).
#define MOMENTS \
	MOVQ CX, DX \
	ANDQ $-4, DX \
	RESTART \
sum4: \
	CMPQ AX, DX \
	JGE  sumtail \
	VADDPD (R8), Y0, Y0 \
	ADDQ   BX, R8 \
	VADDPD (R8), Y1, Y1 \
	ADDQ   BX, R8 \
	VADDPD (R8), Y2, Y2 \
	ADDQ   BX, R8 \
	VADDPD (R8), Y3, Y3 \
	ADDQ   BX, R8 \
	ADDQ   $4, AX \
	JMP    sum4 \
sumtail: \
	CMPQ AX, CX \
	JGE  sumdone \
	VADDPD (R8), Y0, Y0 \
	ADDQ   BX, R8 \
	INCQ   AX \
	JMP    sumtail \
sumdone: \
	VADDPD Y1, Y0, Y0 \
	VADDPD Y3, Y2, Y2 \
	VADDPD Y2, Y0, Y0 \
	VMULPD Y15, Y0, Y14 \
	RESTART \
sq4: \
	CMPQ AX, DX \
	JGE  sqtail \
	VMOVUPD (R8), Y4 \
	ADDQ    BX, R8 \
	VMOVUPD (R8), Y5 \
	ADDQ    BX, R8 \
	VMOVUPD (R8), Y6 \
	ADDQ    BX, R8 \
	VMOVUPD (R8), Y7 \
	ADDQ    BX, R8 \
	VSUBPD  Y14, Y4, Y4 \
	VSUBPD  Y14, Y5, Y5 \
	VSUBPD  Y14, Y6, Y6 \
	VSUBPD  Y14, Y7, Y7 \
	VMULPD  Y4, Y4, Y4 \
	VMULPD  Y5, Y5, Y5 \
	VMULPD  Y6, Y6, Y6 \
	VMULPD  Y7, Y7, Y7 \
	VADDPD  Y4, Y0, Y0 \
	VADDPD  Y5, Y1, Y1 \
	VADDPD  Y6, Y2, Y2 \
	VADDPD  Y7, Y3, Y3 \
	ADDQ    $4, AX \
	JMP     sq4 \
sqtail: \
	CMPQ AX, CX \
	JGE  sqdone \
	VMOVUPD (R8), Y4 \
	ADDQ    BX, R8 \
	VSUBPD  Y14, Y4, Y4 \
	VMULPD  Y4, Y4, Y4 \
	VADDPD  Y4, Y0, Y0 \
	INCQ    AX \
	JMP     sqtail \
sqdone: \
	VADDPD Y1, Y0, Y0 \
	VADDPD Y3, Y2, Y2 \
	VADDPD Y2, Y0, Y0

// func moments4AVX(rows *float64, stride, m int, invN float64, out *[8]float64)
//
// For the four adjacent columns of the m×4 block whose row i starts at
// rows + 8·i·stride (m ≥ 1): out[0:4] = the means and out[4:8] the sums of
// the squared deviations from them, as MOMENTS computes them (AVX).
TEXT ·moments4AVX(SB), NOSPLIT, $0-40
	BLOCKARGS
	VBROADCASTSD invN+24(FP), Y15
	MOVQ         out+32(FP), DI
	MOMENTS
	VMOVUPD      Y14, (DI)
	VMOVUPD      Y0, 32(DI)
	VZEROUPPER
	RET

// func standardize4AVX(rows *float64, stride, m int, invN, gamma float64, dst *float64, out *[12]float64) bool
//
// For the four adjacent columns of the m×4 block whose row i starts at
// rows + 8·i·stride (m ≥ 1) and γ > 0, what standardize4Go computes: the
// means (MOMENTS) to out[0:4]; std = √(ss·invN); the divisors std (γ = 1)
// or std/γ to out[4:8] and the factors 1/std or γ/std to out[8:12]; true
// when every lane has a finite mean, tiny ≤ ss < +Inf, std >
// ConstTol·|mean|, a non-zero divisor and a finite factor, and then
// dst[q·m + i] = (rows[i·stride + q] − mean_q)·f_q, the rows taken four at
// a time and transposed in registers so that each column gets whole
// vector stores (AVX).
TEXT ·standardize4AVX(SB), NOSPLIT, $0-57
	BLOCKARGS
	VBROADCASTSD invN+24(FP), Y15
	MOMENTS
	MOVQ         out+48(FP), DI
	VMOVUPD      Y14, (DI)

	// std, the divisors and the factors.
	VMULPD       Y15, Y0, Y1
	VSQRTPD      Y1, Y1
	VBROADCASTSD gamma+32(FP), Y8
	VMOVSD       gamma+32(FP), X9
	VUCOMISD     ·standardize4Consts+24(SB), X9
	JNE          general
	JPS          general
	VMOVAPD      Y1, Y9
	VBROADCASTSD ·standardize4Consts+24(SB), Y10
	VDIVPD       Y1, Y10, Y13
	JMP          check

general:
	VDIVPD Y8, Y1, Y9
	VDIVPD Y1, Y8, Y13

check:
	VMOVUPD Y9, 32(DI)
	VMOVUPD Y13, 64(DI)

	// The plain route, lane by lane (ordered comparisons: NaN fails).
	VBROADCASTSD ·absMask(SB), Y2
	VANDPD       Y2, Y14, Y3                  // |mean|
	VBROADCASTSD ·standardize4Consts+0(SB), Y4
	VCMPPD       $0x11, Y4, Y3, Y5            // |mean| < +Inf
	VBROADCASTSD ·standardize4Consts+8(SB), Y6
	VCMPPD       $0x1d, Y6, Y0, Y7            // ss ≥ tiny
	VANDPD       Y7, Y5, Y5
	VCMPPD       $0x11, Y4, Y0, Y7            // ss < +Inf
	VANDPD       Y7, Y5, Y5
	VBROADCASTSD ·standardize4Consts+16(SB), Y6
	VMULPD       Y6, Y3, Y3                   // ConstTol·|mean|
	VCMPPD       $0x1e, Y3, Y1, Y7            // std > ConstTol·|mean|
	VANDPD       Y7, Y5, Y5
	VXORPD       Y6, Y6, Y6
	VCMPPD       $0x0c, Y6, Y9, Y7            // divisor ≠ 0
	VANDPD       Y7, Y5, Y5
	VCMPPD       $0x11, Y4, Y13, Y7           // factor < +Inf
	VANDPD       Y7, Y5, Y5
	VMOVMSKPD    Y5, AX
	CMPQ         AX, $15
	JNE          notplain

	// dst: four rows at a time, transposed into four column pieces.
	MOVQ dst+40(FP), DI
	MOVQ CX, R12
	SHLQ $3, R12
	LEAQ (DI)(R12*1), R9
	LEAQ (R9)(R12*1), R10
	LEAQ (R10)(R12*1), R11
	MOVQ SI, R8
	XORQ AX, AX

rows4:
	CMPQ       AX, DX
	JGE        rowtail
	VMOVUPD    (R8), Y0
	ADDQ       BX, R8
	VMOVUPD    (R8), Y1
	ADDQ       BX, R8
	VMOVUPD    (R8), Y2
	ADDQ       BX, R8
	VMOVUPD    (R8), Y3
	ADDQ       BX, R8
	VSUBPD     Y14, Y0, Y0
	VSUBPD     Y14, Y1, Y1
	VSUBPD     Y14, Y2, Y2
	VSUBPD     Y14, Y3, Y3
	VMULPD     Y13, Y0, Y0
	VMULPD     Y13, Y1, Y1
	VMULPD     Y13, Y2, Y2
	VMULPD     Y13, Y3, Y3
	VUNPCKLPD  Y1, Y0, Y4                     // r0c0 r1c0 r0c2 r1c2
	VUNPCKHPD  Y1, Y0, Y5                     // r0c1 r1c1 r0c3 r1c3
	VUNPCKLPD  Y3, Y2, Y6                     // r2c0 r3c0 r2c2 r3c2
	VUNPCKHPD  Y3, Y2, Y7                     // r2c1 r3c1 r2c3 r3c3
	VPERM2F128 $0x20, Y6, Y4, Y0              // column 0
	VPERM2F128 $0x20, Y7, Y5, Y1              // column 1
	VPERM2F128 $0x31, Y6, Y4, Y2              // column 2
	VPERM2F128 $0x31, Y7, Y5, Y3              // column 3
	VMOVUPD    Y0, (DI)(AX*8)
	VMOVUPD    Y1, (R9)(AX*8)
	VMOVUPD    Y2, (R10)(AX*8)
	VMOVUPD    Y3, (R11)(AX*8)
	ADDQ       $4, AX
	JMP        rows4

rowtail:
	CMPQ         AX, CX
	JGE          plain
	VMOVUPD      (R8), Y0
	VSUBPD       Y14, Y0, Y0
	VMULPD       Y13, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMOVLPD      X0, (DI)(AX*8)
	VMOVHPD      X0, (R9)(AX*8)
	VMOVLPD      X1, (R10)(AX*8)
	VMOVHPD      X1, (R11)(AX*8)
	ADDQ         BX, R8
	INCQ         AX
	JMP          rowtail

plain:
	MOVB $1, ret+56(FP)
	VZEROUPPER
	RET

notplain:
	MOVB $0, ret+56(FP)
	VZEROUPPER
	RET

