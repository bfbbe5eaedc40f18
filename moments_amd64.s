//go:build !purego

#include "textflag.h"

// BLOCKARGS loads the block arguments rows, stride and m of moments4AVX:
// SI = rows, BX = 8·stride (bytes from a row to the next), CX = m.
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

// PAIRRESTART is RESTART for two groups: it also clears the second
// group's accumulators Y4–Y7.
#define PAIRRESTART \
	RESTART \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y5, Y5, Y5 \
	VXORPD Y6, Y6, Y6 \
	VXORPD Y7, Y7, Y7

// PAIRSUM adds the row at R8 (first group) and R8 + R11 (second group)
// to the accumulators a and b, and moves R8 to the next row.
#define PAIRSUM(a, b) \
	VADDPD (R8), a, a \
	VADDPD (R8)(R11*1), b, b \
	ADDQ   BX, R8

// PAIRSQ adds the squared deviations of the row at R8 (first group) and
// R8 + R11 (second group) from the means Y14 and Y13 to the accumulators
// a and b, each square rounded before its addition, and moves R8 to the
// next row. Y8 and Y9 are scratch.
#define PAIRSQ(a, b) \
	VMOVUPD (R8), Y8 \
	VMOVUPD (R8)(R11*1), Y9 \
	ADDQ    BX, R8 \
	VSUBPD  Y14, Y8, Y8 \
	VSUBPD  Y13, Y9, Y9 \
	VMULPD  Y8, Y8, Y8 \
	VMULPD  Y9, Y9, Y9 \
	VADDPD  Y8, a, a \
	VADDPD  Y9, b, b

// PAIRMOMENTS is MOMENTS for two groups of four columns, the second
// R11 bytes after the first (SI, BX, CX as BLOCKARGS leaves them; Y15 =
// invN broadcast): Y14 and Y13 = the means of the first and second
// group, Y0 and Y4 = their sums of squared deviations, each lane as
// moments4Go computes it for its column; the two groups' sums form
// independent chains. DX = m − m%4 afterwards. Used once per function.
#define PAIRMOMENTS \
	MOVQ   CX, DX \
	ANDQ   $-4, DX \
	PAIRRESTART \
psum4: \
	CMPQ   AX, DX \
	JGE    psumtail \
	PAIRSUM(Y0, Y4) \
	PAIRSUM(Y1, Y5) \
	PAIRSUM(Y2, Y6) \
	PAIRSUM(Y3, Y7) \
	ADDQ   $4, AX \
	JMP    psum4 \
psumtail: \
	CMPQ   AX, CX \
	JGE    psumdone \
	PAIRSUM(Y0, Y4) \
	INCQ   AX \
	JMP    psumtail \
psumdone: \
	VADDPD Y1, Y0, Y0 \
	VADDPD Y3, Y2, Y2 \
	VADDPD Y2, Y0, Y0 \
	VMULPD Y15, Y0, Y14 \
	VADDPD Y5, Y4, Y4 \
	VADDPD Y7, Y6, Y6 \
	VADDPD Y6, Y4, Y4 \
	VMULPD Y15, Y4, Y13 \
	PAIRRESTART \
psq4: \
	CMPQ    AX, DX \
	JGE     psqtail \
	PAIRSQ(Y0, Y4) \
	PAIRSQ(Y1, Y5) \
	PAIRSQ(Y2, Y6) \
	PAIRSQ(Y3, Y7) \
	ADDQ    $4, AX \
	JMP     psq4 \
psqtail: \
	CMPQ    AX, CX \
	JGE     psqdone \
	PAIRSQ(Y0, Y4) \
	INCQ    AX \
	JMP     psqtail \
psqdone: \
	VADDPD Y1, Y0, Y0 \
	VADDPD Y3, Y2, Y2 \
	VADDPD Y2, Y0, Y0 \
	VADDPD Y5, Y4, Y4 \
	VADDPD Y7, Y6, Y6 \
	VADDPD Y6, Y4, Y4

// PLAIN sets the bits of reg to the lanes (columns) of one group that
// take standardize4Go's plain route, from its means, sums of squares,
// standard deviations, divisors and factors (ordered comparisons: NaN
// fails): |mean| < +Inf, ss < +Inf, factor < +Inf, ss ≥ tiny, std >
// ConstTol·|mean| and divisor ≠ 0. Y8–Y11 are scratch.
#define PLAIN(mean, ss, std, scale, f, reg) \
	VBROADCASTSD ·absMask(SB), Y8 \
	VANDPD       Y8, mean, Y8 \
	VBROADCASTSD ·standardizeConsts+0(SB), Y9 \
	VCMPPD       $0x11, Y9, Y8, Y10 \
	VCMPPD       $0x11, Y9, ss, Y11 \
	VANDPD       Y11, Y10, Y10 \
	VCMPPD       $0x11, Y9, f, Y11 \
	VANDPD       Y11, Y10, Y10 \
	VBROADCASTSD ·standardizeConsts+8(SB), Y9 \
	VCMPPD       $0x1d, Y9, ss, Y11 \
	VANDPD       Y11, Y10, Y10 \
	VBROADCASTSD ·standardizeConsts+16(SB), Y9 \
	VMULPD       Y9, Y8, Y8 \
	VCMPPD       $0x1e, Y8, std, Y11 \
	VANDPD       Y11, Y10, Y10 \
	VXORPD       Y9, Y9, Y9 \
	VCMPPD       $0x0c, Y9, scale, Y11 \
	VANDPD       Y11, Y10, Y10 \
	VMOVMSKPD    Y10, reg

// func standardizePairAVX(r0, r1 *float64, stride, m int, invN, gamma float64, d0, d1 *float64, out *[24]float64) int
//
// What standardizePairGo computes, for γ > 0: for group g (the four
// adjacent columns of the m×4 block whose row i starts at rg + 8·i·stride,
// m ≥ 1), the means (PAIRMOMENTS) to out[12g:12g+4]; std = √(ss·invN); the
// divisors std (γ = 1) or std/γ to out[12g+4:12g+8] and the factors 1/std
// or γ/std to out[12g+8:12g+12]; bit g of the result when every lane of
// the group takes the plain route (PLAIN), and then dg[q·m + i] = (rg[i·
// stride + q] − mean_q)·f_q, the rows taken four at a time and transposed
// in registers so that each column gets whole vector stores (AVX). The
// two groups' arithmetic interleaves, so that the one's latencies hide
// the other's.
TEXT ·standardizePairAVX(SB), NOSPLIT, $0-80
	MOVQ         r0+0(FP), SI
	MOVQ         r1+8(FP), R11
	SUBQ         SI, R11
	MOVQ         stride+16(FP), BX
	SHLQ         $3, BX
	MOVQ         m+24(FP), CX
	VBROADCASTSD invN+32(FP), Y15
	PAIRMOMENTS

	// std, the divisors and the factors: std in Y1 and Y5, divisors in
	// Y2 and Y6, factors in Y3 and Y7.
	VMULPD       Y15, Y0, Y1
	VSQRTPD      Y1, Y1
	VMULPD       Y15, Y4, Y5
	VSQRTPD      Y5, Y5
	VMOVSD       gamma+40(FP), X8
	VUCOMISD     ·standardizeConsts+24(SB), X8
	JNE          general
	JPS          general
	VMOVAPD      Y1, Y2
	VMOVAPD      Y5, Y6
	VBROADCASTSD ·standardizeConsts+24(SB), Y8
	VDIVPD       Y1, Y8, Y3
	VDIVPD       Y5, Y8, Y7
	JMP          check

general:
	VBROADCASTSD gamma+40(FP), Y8
	VDIVPD       Y8, Y1, Y2
	VDIVPD       Y1, Y8, Y3
	VDIVPD       Y8, Y5, Y6
	VDIVPD       Y5, Y8, Y7

check:
	MOVQ    out+64(FP), DI
	VMOVUPD Y14, (DI)
	VMOVUPD Y2, 32(DI)
	VMOVUPD Y3, 64(DI)
	VMOVUPD Y13, 96(DI)
	VMOVUPD Y6, 128(DI)
	VMOVUPD Y7, 160(DI)
	PLAIN(Y14, Y0, Y1, Y2, Y3, R12)
	PLAIN(Y13, Y4, Y5, Y6, Y7, R13)
	XORQ    AX, AX
	CMPQ    R12, $15
	JNE     plain1
	ORQ     $1, AX

plain1:
	CMPQ R13, $15
	JNE  plaindone
	ORQ  $2, AX

plaindone:
	MOVQ AX, ret+72(FP)
	MOVQ AX, R13
	MOVQ DI, R12
	MOVQ d0+48(FP), DI

	// The plain groups' values: group 0 from SI to d0, then group 1 from
	// r1 to d1 (SI, DI); R12 points to the group's means (its factors 64
	// bytes on), the low bit of R13 says whether it is plain.
group:
	TESTQ   $1, R13
	JZ      nextgroup
	VMOVUPD (R12), Y14
	VMOVUPD 64(R12), Y13
	MOVQ    CX, R8
	SHLQ    $3, R8
	LEAQ    (DI)(R8*1), R9
	LEAQ    (R9)(R8*1), R10
	MOVQ    R10, AX
	ADDQ    R8, AX
	MOVQ    AX, R11
	MOVQ    SI, R8
	XORQ    AX, AX

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
	JGE          nextgroup
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

nextgroup:
	MOVQ out+64(FP), AX
	CMPQ R12, AX
	JNE  pairdone
	ADDQ $96, R12
	SHRQ $1, R13
	MOVQ r1+8(FP), SI
	MOVQ d1+56(FP), DI
	JMP  group

pairdone:
	VZEROUPPER
	RET

// func gatherColumnsAsm(data *float64, stride, m int, js *int, nc int, block *float64, w int)
//
// block[i·w + k] = data[i·stride + js[k]] for i < m, k < nc (m, nc ≥ 1):
// what gatherColumnsGo does, copying the values' bits, four columns an
// iteration.
TEXT ·gatherColumnsAsm(SB), NOSPLIT, $0-56
	MOVQ data+0(FP), SI
	MOVQ stride+8(FP), BX
	SHLQ $3, BX
	MOVQ m+16(FP), CX
	MOVQ js+24(FP), R8
	MOVQ nc+32(FP), DX
	MOVQ block+40(FP), DI
	MOVQ w+48(FP), R9
	SHLQ $3, R9
	MOVQ DX, R10
	ANDQ $-4, R10

	// Row after row (m ≥ 1, nc ≥ 1): the columns four at a time, then
	// the rest one at a time.
grow:
	MOVQ $0, AX
	CMPQ R10, $0
	JEQ  gcol1

gcol4:
	MOVQ (R8)(AX*8), R11
	MOVQ 8(R8)(AX*8), R12
	MOVQ (SI)(R11*8), R11
	MOVQ (SI)(R12*8), R12
	MOVQ R11, (DI)(AX*8)
	MOVQ R12, 8(DI)(AX*8)
	MOVQ 16(R8)(AX*8), R11
	MOVQ 24(R8)(AX*8), R12
	MOVQ (SI)(R11*8), R11
	MOVQ (SI)(R12*8), R12
	MOVQ R11, 16(DI)(AX*8)
	MOVQ R12, 24(DI)(AX*8)
	ADDQ $4, AX
	CMPQ AX, R10
	JLT  gcol4

gcol1:
	CMPQ AX, DX
	JGE  growdone
	MOVQ (R8)(AX*8), R11
	MOVQ (SI)(R11*8), R11
	MOVQ R11, (DI)(AX*8)
	INCQ AX
	JMP  gcol1

growdone:
	ADDQ BX, SI
	ADDQ R9, DI
	DECQ CX
	JNZ  grow
	RET

// ROWSARGS sets up sumRowsAVX and sqDevRowsAVX once SI = rows, BX =
// stride, CX = m, R12 = w and DI = acc are loaded: BX = 8·stride, R12 =
// 8·w (the bytes of a row's run, and from one phase's accumulators to the
// next'), R11 = 8·(w − w mod 16) (the part taken sixteen columns at a
// time), R13 = m − m%4, R14 = 0, AX = 0 (the row).
#define ROWSARGS \
	SHLQ $3, BX \
	SHLQ $3, R12 \
	MOVQ R12, R11 \
	ANDQ $-128, R11 \
	MOVQ CX, R13 \
	ANDQ $-4, R13 \
	XORQ R14, R14 \
	XORQ AX, AX

// PHASE sets R9 to the accumulators of row AX's phase: DI + R12·(AX mod
// 4) below row R13, DI from there on. R10 is scratch.
#define PHASE \
	MOVQ   AX, R10 \
	ANDQ   $3, R10 \
	CMPQ   AX, R13 \
	CMOVQGE R14, R10 \
	IMULQ  R12, R10 \
	LEAQ   (DI)(R10*1), R9

// func sumRowsAVX(rows *float64, stride, m, w int, acc *float64)
//
// What sumRowsGo does, for w a positive multiple of four (AVX): each
// row's run added to its phase's accumulators (acc + v), sixteen columns
// at a time, then four.
TEXT ·sumRowsAVX(SB), NOSPLIT, $0-40
	MOVQ rows+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ m+16(FP), CX
	MOVQ w+24(FP), R12
	MOVQ acc+32(FP), DI
	ROWSARGS

srow:
	CMPQ AX, CX
	JGE  sdone
	PHASE
	XORQ R10, R10

s16:
	CMPQ    R10, R11
	JGE     s4
	VMOVUPD (R9)(R10*1), Y0
	VMOVUPD 32(R9)(R10*1), Y1
	VMOVUPD 64(R9)(R10*1), Y2
	VMOVUPD 96(R9)(R10*1), Y3
	VADDPD  (SI)(R10*1), Y0, Y0
	VADDPD  32(SI)(R10*1), Y1, Y1
	VADDPD  64(SI)(R10*1), Y2, Y2
	VADDPD  96(SI)(R10*1), Y3, Y3
	VMOVUPD Y0, (R9)(R10*1)
	VMOVUPD Y1, 32(R9)(R10*1)
	VMOVUPD Y2, 64(R9)(R10*1)
	VMOVUPD Y3, 96(R9)(R10*1)
	ADDQ    $128, R10
	JMP     s16

s4:
	CMPQ    R10, R12
	JGE     snext
	VMOVUPD (R9)(R10*1), Y0
	VADDPD  (SI)(R10*1), Y0, Y0
	VMOVUPD Y0, (R9)(R10*1)
	ADDQ    $32, R10
	JMP     s4

snext:
	ADDQ BX, SI
	INCQ AX
	JMP  srow

sdone:
	VZEROUPPER
	RET

// SQDEV adds the squared deviations of the four values at off(SI)(R10)
// from the means at off(R8)(R10) to the accumulators at off(R9)(R10),
// each square rounded before its addition (acc + d²), with v and a as
// scratch.
#define SQDEV(off, v, a) \
	VMOVUPD off(SI)(R10*1), v \
	VSUBPD  off(R8)(R10*1), v, v \
	VMULPD  v, v, v \
	VMOVUPD off(R9)(R10*1), a \
	VADDPD  v, a, a \
	VMOVUPD a, off(R9)(R10*1)

// func sqDevRowsAVX(rows *float64, stride, m, w int, mean, acc *float64)
//
// What sqDevRowsGo does, for w a positive multiple of four (AVX).
TEXT ·sqDevRowsAVX(SB), NOSPLIT, $0-48
	MOVQ rows+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ m+16(FP), CX
	MOVQ w+24(FP), R12
	MOVQ mean+32(FP), R8
	MOVQ acc+40(FP), DI
	ROWSARGS

qrow:
	CMPQ AX, CX
	JGE  qdone
	PHASE
	XORQ R10, R10

q16:
	CMPQ R10, R11
	JGE  q4
	SQDEV(0, Y0, Y4)
	SQDEV(32, Y1, Y5)
	SQDEV(64, Y2, Y6)
	SQDEV(96, Y3, Y7)
	ADDQ $128, R10
	JMP  q16

q4:
	CMPQ R10, R12
	JGE  qnext
	SQDEV(0, Y0, Y4)
	ADDQ $32, R10
	JMP  q4

qnext:
	ADDQ BX, SI
	INCQ AX
	JMP  qrow

qdone:
	VZEROUPPER
	RET

// func standardizeRowAVX(n int, v, mean, f, dst *float64)
//
// dst[k] = (v[k] − mean[k])·f[k] for k < n, a multiple of four (AVX):
// what standardizeRowGo does.
TEXT ·standardizeRowAVX(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ v+8(FP), SI
	MOVQ mean+16(FP), R8
	MOVQ f+24(FP), R9
	MOVQ dst+32(FP), DI
	SHLQ $3, CX
	MOVQ CX, R11
	ANDQ $-128, R11
	XORQ R10, R10

z16:
	CMPQ    R10, R11
	JGE     z4
	VMOVUPD (SI)(R10*1), Y0
	VMOVUPD 32(SI)(R10*1), Y1
	VMOVUPD 64(SI)(R10*1), Y2
	VMOVUPD 96(SI)(R10*1), Y3
	VSUBPD  (R8)(R10*1), Y0, Y0
	VSUBPD  32(R8)(R10*1), Y1, Y1
	VSUBPD  64(R8)(R10*1), Y2, Y2
	VSUBPD  96(R8)(R10*1), Y3, Y3
	VMULPD  (R9)(R10*1), Y0, Y0
	VMULPD  32(R9)(R10*1), Y1, Y1
	VMULPD  64(R9)(R10*1), Y2, Y2
	VMULPD  96(R9)(R10*1), Y3, Y3
	VMOVUPD Y0, (DI)(R10*1)
	VMOVUPD Y1, 32(DI)(R10*1)
	VMOVUPD Y2, 64(DI)(R10*1)
	VMOVUPD Y3, 96(DI)(R10*1)
	ADDQ    $128, R10
	JMP     z16

z4:
	CMPQ    R10, CX
	JGE     zdone
	VMOVUPD (SI)(R10*1), Y0
	VSUBPD  (R8)(R10*1), Y0, Y0
	VMULPD  (R9)(R10*1), Y0, Y0
	VMOVUPD Y0, (DI)(R10*1)
	ADDQ    $32, R10
	JMP     z4

zdone:
	VZEROUPPER
	RET

// func standardizeRow32AVX(n int, v, mean, f *float64, dst *float32)
//
// dst[k] = float32((v[k] − mean[k])·f[k]) for k < n, a multiple of four
// (AVX; the conversion rounds to nearest, as Go's does): what
// standardizeRow32Go does.
TEXT ·standardizeRow32AVX(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ v+8(FP), SI
	MOVQ mean+16(FP), R8
	MOVQ f+24(FP), R9
	MOVQ dst+32(FP), DI
	SHLQ $3, CX
	MOVQ CX, R11
	ANDQ $-128, R11
	XORQ R10, R10
	XORQ DX, DX

y16:
	CMPQ      R10, R11
	JGE       y4
	VMOVUPD   (SI)(R10*1), Y0
	VMOVUPD   32(SI)(R10*1), Y1
	VMOVUPD   64(SI)(R10*1), Y2
	VMOVUPD   96(SI)(R10*1), Y3
	VSUBPD    (R8)(R10*1), Y0, Y0
	VSUBPD    32(R8)(R10*1), Y1, Y1
	VSUBPD    64(R8)(R10*1), Y2, Y2
	VSUBPD    96(R8)(R10*1), Y3, Y3
	VMULPD    (R9)(R10*1), Y0, Y0
	VMULPD    32(R9)(R10*1), Y1, Y1
	VMULPD    64(R9)(R10*1), Y2, Y2
	VMULPD    96(R9)(R10*1), Y3, Y3
	VCVTPD2PSY Y0, X0
	VCVTPD2PSY Y1, X1
	VCVTPD2PSY Y2, X2
	VCVTPD2PSY Y3, X3
	VMOVUPS   X0, (DI)(DX*1)
	VMOVUPS   X1, 16(DI)(DX*1)
	VMOVUPS   X2, 32(DI)(DX*1)
	VMOVUPS   X3, 48(DI)(DX*1)
	ADDQ      $128, R10
	ADDQ      $64, DX
	JMP       y16

y4:
	CMPQ       R10, CX
	JGE        ydone
	VMOVUPD    (SI)(R10*1), Y0
	VSUBPD     (R8)(R10*1), Y0, Y0
	VMULPD     (R9)(R10*1), Y0, Y0
	VCVTPD2PSY Y0, X0
	VMOVUPS    X0, (DI)(DX*1)
	ADDQ       $32, R10
	ADDQ       $16, DX
	JMP        y4

ydone:
	VZEROUPPER
	RET
