//go:build !purego

#include "textflag.h"

// The scoring of four candidate columns at once, one per lane (AVX), with
// the scalar kernel's arithmetic for each (sample.go, scorer.score4): sums
// in order, from zero, each product rounded before its addition (no fused
// multiply–add); and the path's small kernels, each bit for bit its Go
// definition: the rank-one update (gerAVX: gerGo), the packing of Ĝ
// (packGAVX: packGGo) and the pruning bound's row sums (rowAbsDevsAVX:
// rowAbsDevsGo).

// TRANSPOSE4 loads elements AX, …, AX+3 of the columns R8–R11 and leaves
// element AX+r of the four in Y8+r, lane q holding column q.
#define TRANSPOSE4 TRANSPOSE4OF(R8, R9, R10, R11)

// TRANSPOSE4OF is TRANSPOSE4 for the columns c0–c3.
#define TRANSPOSE4OF(c0, c1, c2, c3) \
	VMOVUPD    (c0)(AX*8), Y0 \
	VMOVUPD    (c1)(AX*8), Y1 \
	VMOVUPD    (c2)(AX*8), Y2 \
	VMOVUPD    (c3)(AX*8), Y3 \
	VUNPCKLPD  Y1, Y0, Y4 \
	VUNPCKHPD  Y1, Y0, Y5 \
	VUNPCKLPD  Y3, Y2, Y6 \
	VUNPCKHPD  Y3, Y2, Y7 \
	VPERM2F128 $0x20, Y6, Y4, Y8 \
	VPERM2F128 $0x20, Y7, Y5, Y9 \
	VPERM2F128 $0x31, Y6, Y4, Y10 \
	VPERM2F128 $0x31, Y7, Y5, Y11

// COLUMNS4 loads the column arguments z0, …, z3 of t4AVX into R8–R11.
#define COLUMNS4 \
	MOVQ z0+0(FP), R8 \
	MOVQ z1+8(FP), R9 \
	MOVQ z2+16(FP), R10 \
	MOVQ z3+24(FP), R11

// LANES1 leaves element AX of the columns R8–R11 in Y8, lane q holding
// column q.
#define LANES1 LANES1OF(R8, R9, R10, R11)

// LANES1OF is LANES1 for the columns c0–c3.
#define LANES1OF(c0, c1, c2, c3) \
	VMOVSD      (c0)(AX*8), X8 \
	VMOVHPD     (c1)(AX*8), X8, X8 \
	VMOVSD      (c2)(AX*8), X1 \
	VMOVHPD     (c3)(AX*8), X1, X1 \
	VINSERTF128 $1, X1, Y8, Y8

// TERM adds a[AX+off]·Y to the sums Y12.
#define TERM(off, Y) TERMTO(off, Y, Y12)

// TERMTO adds a[AX+off]·Y to the sums acc.
#define TERMTO(off, Y, acc) \
	VBROADCASTSD off(SI)(AX*8), Y0 \
	VMULPD       Y, Y0, Y0 \
	VADDPD       Y0, acc, acc

// func t4AVX(z0, z1, z2, z3, a *float64, m int, z4, out *[4]float64)
//
// out[q] = Σ_l a[l]·z_q[l], summed in order from l = 0 (m ≥ 1); unless z4
// is nil, z4 (4m floats) receives the columns interleaved: z4[4l+q] =
// z_q[l], for q4AVX and q4PrimalAVX.
TEXT ·t4AVX(SB), NOSPLIT, $0-64
	COLUMNS4
	MOVQ   a+32(FP), SI
	MOVQ   m+40(FP), CX
	MOVQ   z4+48(FP), BX
	MOVQ   out+56(FP), DI
	VXORPD Y12, Y12, Y12
	MOVQ   CX, DX
	ANDQ   $-4, DX
	XORQ   AX, AX

tblock:
	CMPQ  AX, DX
	JGE   ttail
	TRANSPOSE4
	TESTQ BX, BX
	JEQ   tblockt
	MOVQ    AX, R12
	SHLQ    $5, R12
	VMOVUPD Y8, (BX)(R12*1)
	VMOVUPD Y9, 32(BX)(R12*1)
	VMOVUPD Y10, 64(BX)(R12*1)
	VMOVUPD Y11, 96(BX)(R12*1)

tblockt:
	TERM(0, Y8)
	TERM(8, Y9)
	TERM(16, Y10)
	TERM(24, Y11)
	ADDQ $4, AX
	JMP  tblock

ttail:
	CMPQ  AX, CX
	JGE   tdone
	LANES1
	TESTQ BX, BX
	JEQ   ttailt
	MOVQ    AX, R12
	SHLQ    $5, R12
	VMOVUPD Y8, (BX)(R12*1)

ttailt:
	TERM(0, Y8)
	INCQ AX
	JMP  ttail

tdone:
	VMOVUPD Y12, (DI)
	VZEROUPPER
	RET

// func t8AVX(zs *[8]*float64, a *float64, m int, out *[8]float64)
//
// out[q] = Σ_l a[l]·z_q[l] for the eight columns zs[q], summed in order
// from l = 0 (m ≥ 1): t4AVX's sums for zs[0:4] and zs[4:8], in two
// registers whose additions do not wait on one another.
TEXT ·t8AVX(SB), NOSPLIT, $0-32
	MOVQ   zs+0(FP), DI
	MOVQ   0(DI), R8
	MOVQ   8(DI), R9
	MOVQ   16(DI), R10
	MOVQ   24(DI), R11
	MOVQ   32(DI), R12
	MOVQ   40(DI), R13
	MOVQ   48(DI), R14
	MOVQ   56(DI), R15
	MOVQ   a+8(FP), SI
	MOVQ   m+16(FP), CX
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	MOVQ   CX, DX
	ANDQ   $-4, DX
	XORQ   AX, AX

t8block:
	CMPQ AX, DX
	JGE  t8tail
	TRANSPOSE4
	TERMTO(0, Y8, Y12)
	TERMTO(8, Y9, Y12)
	TERMTO(16, Y10, Y12)
	TERMTO(24, Y11, Y12)
	TRANSPOSE4OF(R12, R13, R14, R15)
	TERMTO(0, Y8, Y13)
	TERMTO(8, Y9, Y13)
	TERMTO(16, Y10, Y13)
	TERMTO(24, Y11, Y13)
	ADDQ $4, AX
	JMP  t8block

t8tail:
	CMPQ AX, CX
	JGE  t8done
	LANES1
	TERMTO(0, Y8, Y12)
	LANES1OF(R12, R13, R14, R15)
	TERMTO(0, Y8, Y13)
	INCQ AX
	JMP  t8tail

t8done:
	MOVQ    out+24(FP), DI
	VMOVUPD Y12, (DI)
	VMOVUPD Y13, 32(DI)
	VZEROUPPER
	RET

// T16GROUP loads the four column pointers zs[goff/8 : goff/8+4] (DI)
// into R8–R11.
#define T16GROUP(goff) \
	MOVQ goff(DI), R8 \
	MOVQ goff+8(DI), R9 \
	MOVQ goff+16(DI), R10 \
	MOVQ goff+24(DI), R11

// T16BLOCK adds the terms of elements AX, …, AX+3 of the columns R8–R11
// to the sums acc.
#define T16BLOCK(acc) \
	TRANSPOSE4 \
	TERMTO(0, Y8, acc) \
	TERMTO(8, Y9, acc) \
	TERMTO(16, Y10, acc) \
	TERMTO(24, Y11, acc)

// func t16AVX(zs *[16]*float64, a *float64, m int, out *[16]float64)
//
// out[q] = Σ_l a[l]·z_q[l] for the sixteen columns zs[q], summed in order
// from l = 0 (m ≥ 1): t4AVX's sums for zs[0:4], …, zs[12:16], in four
// registers whose additions do not wait on one another.
TEXT ·t16AVX(SB), NOSPLIT, $0-32
	MOVQ   zs+0(FP), DI
	MOVQ   a+8(FP), SI
	MOVQ   m+16(FP), CX
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	MOVQ   CX, DX
	ANDQ   $-4, DX
	XORQ   AX, AX

t16block:
	CMPQ AX, DX
	JGE  t16tail
	T16GROUP(0)
	T16BLOCK(Y12)
	T16GROUP(32)
	T16BLOCK(Y13)
	T16GROUP(64)
	T16BLOCK(Y14)
	T16GROUP(96)
	T16BLOCK(Y15)
	ADDQ $4, AX
	JMP  t16block

t16tail:
	CMPQ AX, CX
	JGE  t16done
	T16GROUP(0)
	LANES1
	TERMTO(0, Y8, Y12)
	T16GROUP(32)
	LANES1
	TERMTO(0, Y8, Y13)
	T16GROUP(64)
	LANES1
	TERMTO(0, Y8, Y14)
	T16GROUP(96)
	LANES1
	TERMTO(0, Y8, Y15)
	INCQ AX
	JMP  t16tail

t16done:
	MOVQ    out+24(FP), DI
	VMOVUPD Y12, (DI)
	VMOVUPD Y13, 32(DI)
	VMOVUPD Y14, 64(DI)
	VMOVUPD Y15, 96(DI)
	VZEROUPPER
	RET

// GTERM adds gp[g + goff/8]·z4[R14 + zoff/32] to the sums acc (q4AVX), T
// its scratch.
#define GTERM(goff, g, zoff, T, acc) \
	VBROADCASTSD goff(g), T \
	VMULPD       zoff(R14), T, T \
	VADDPD       T, acc, acc

// QROW adds z4[R13 + zoff/32]·acc, a row's sum, to q's sums Y13 (q4AVX).
#define QROW(zoff, acc) \
	VMULPD zoff(R13), acc, Y1 \
	VADDPD Y1, Y13, Y13

// func q4AVX(gp *float64, z4 *[4]float64, m int, out *[4]float64)
//
// out[q] = 1 + Σ_i z_q[i]·(Σ_{l≥i} gp_il·z_q[l]), the dual form's c, for the
// packed rows gp (scorer.gp: row i holds m − i entries) and the columns
// interleaved in z4 (t4AVX), every sum in order from zero (m ≥ 1). Rows i,
// …, i+3 are summed side by side, in four registers (the last rows in two
// and one), so that one's additions wait not on the others'; each row's
// sum, and the sum over the rows, keep their order.
TEXT ·q4AVX(SB), NOSPLIT, $0-32
	MOVQ   gp+0(FP), SI
	MOVQ   z4+8(FP), R13
	MOVQ   m+16(FP), CX
	XORQ   AX, AX
	VXORPD Y13, Y13, Y13
	MOVQ   out+24(FP), DI

qquad:
	MOVQ   CX, R12
	SUBQ   AX, R12 // the m − i terms of row i
	CMPQ   R12, $4
	JLT    qpair
	VXORPD Y12, Y12, Y12
	VXORPD Y11, Y11, Y11
	VXORPD Y10, Y10, Y10
	VXORPD Y9, Y9, Y9
	LEAQ   (SI)(R12*8), R10 // row i+1
	LEAQ   -8(R10)(R12*8), R8 // row i+2
	LEAQ   -16(R8)(R12*8), R9 // row i+3
	SUBQ   $3, R12 // the terms of row i+3, and the first as many of rows i … i+2
	MOVQ   R13, R14

qterm4:
	GTERM(0, SI, 0, Y0, Y12)
	GTERM(0, R10, 32, Y1, Y11)
	GTERM(0, R8, 64, Y2, Y10)
	GTERM(0, R9, 96, Y3, Y9)
	ADDQ         $8, SI
	ADDQ         $8, R10
	ADDQ         $8, R8
	ADDQ         $8, R9
	ADDQ         $32, R14
	DECQ         R12
	JNE          qterm4
	// The last three terms of row i, two of row i+1, one of row i+2.
	GTERM(0, SI, 0, Y0, Y12)
	GTERM(0, R10, 32, Y1, Y11)
	GTERM(0, R8, 64, Y2, Y10)
	GTERM(8, SI, 32, Y0, Y12)
	GTERM(8, R10, 64, Y1, Y11)
	GTERM(16, SI, 64, Y0, Y12)
	MOVQ         R9, SI // row i+4
	QROW(0, Y12)
	QROW(32, Y11)
	QROW(64, Y10)
	QROW(96, Y9)
	ADDQ         $128, R13
	ADDQ         $4, AX
	JMP          qquad

qpair:
	MOVQ   CX, R12
	SUBQ   AX, R12 // the m − i terms of row i
	CMPQ   R12, $2
	JLT    qlast
	VXORPD Y12, Y12, Y12
	VXORPD Y11, Y11, Y11
	LEAQ   (SI)(R12*8), R10 // row i+1
	DECQ   R12 // the terms of row i+1, and of row i but its last
	MOVQ   R13, R14

qterm:
	GTERM(0, SI, 0, Y0, Y12)
	GTERM(0, R10, 32, Y1, Y11)
	ADDQ         $8, SI
	ADDQ         $8, R10
	ADDQ         $32, R14
	DECQ         R12
	JNE          qterm
	// Row i's last term.
	GTERM(0, SI, 0, Y0, Y12)
	MOVQ         R10, SI // row i+2
	QROW(0, Y12)
	QROW(32, Y11)
	ADDQ         $64, R13
	ADDQ         $2, AX
	JMP          qpair

qlast:
	TESTQ        R12, R12
	JEQ          qdone
	VBROADCASTSD (SI), Y0 // row m−1: one term
	VMULPD       (R13), Y0, Y0
	VXORPD       Y12, Y12, Y12
	VADDPD       Y0, Y12, Y12
	VMULPD       (R13), Y12, Y1
	VADDPD       Y1, Y13, Y13

qdone:
	VBROADCASTSD ·scoreOne(SB), Y0
	VADDPD       Y13, Y0, Y0
	VMOVUPD      Y0, (DI)
	VZEROUPPER
	RET

DATA ·scoreOne+0(SB)/8, $1.0
GLOBL ·scoreOne(SB), RODATA|NOPTR, $8

// func q4PrimalAVX(z4 *[4]float64, u *float64, k1, m int, il float64, out *[4]float64)
//
// out[q] = 1 + (Σ_l z_q[l]²)·il − Σ_j (Σ_l u_jl·z_q[l])², the primal form's
// c, for the k1 rows u_j = u[j·m : j·m+m] of U and the columns interleaved
// in z4 (t4AVX), every sum in order from zero, each product rounded before
// its addition or subtraction (m ≥ 1).
TEXT ·q4PrimalAVX(SB), NOSPLIT, $0-48
	// q = (Σ_l z_l²)·il.
	MOVQ   z4+0(FP), BX
	MOVQ   BX, R14
	MOVQ   m+24(FP), CX
	MOVQ   CX, R12
	VXORPD Y12, Y12, Y12

pnorm:
	VMOVUPD (R14), Y0
	VMULPD  Y0, Y0, Y0
	VADDPD  Y0, Y12, Y12
	ADDQ    $32, R14
	DECQ    R12
	JNE     pnorm
	VBROADCASTSD il+32(FP), Y0
	VMULPD       Y0, Y12, Y13

	// q −= (u_jᵀz)² for each row u_j of U.
	MOVQ u+8(FP), SI
	MOVQ k1+16(FP), R13

prow:
	TESTQ  R13, R13
	JEQ    pdone
	VXORPD Y12, Y12, Y12
	MOVQ   BX, R14
	MOVQ   CX, R12

pterm:
	VBROADCASTSD (SI), Y0
	VMULPD       (R14), Y0, Y0
	VADDPD       Y0, Y12, Y12
	ADDQ         $8, SI
	ADDQ         $32, R14
	DECQ         R12
	JNE          pterm
	VMULPD       Y12, Y12, Y0
	VSUBPD       Y0, Y13, Y13
	DECQ         R13
	JMP          prow

pdone:
	VBROADCASTSD ·scoreOne(SB), Y0
	VADDPD       Y13, Y0, Y0
	MOVQ         out+40(FP), DI
	VMOVUPD      Y0, (DI)
	VZEROUPPER
	RET

// The steps of rowAbsDevsAVX's sum of a row, in absDevSumGo's order: with
// beta in Y15 (X15), the
// mask of the sign bit in Y14 and the element at SI + 8·AX,
// ABSDEV8 adds |x − beta| of eight elements to the partial sums Y0 and Y1,
// ABSDEV4 of four to Y0, ABSREDUCE adds Y1 to Y0 and Y0's four lanes into
// X0, and ABSDEV1 adds one element's to X0.
#define ABSDEV8 \
	VSUBPD (SI)(AX*8), Y15, Y2 \
	VSUBPD 32(SI)(AX*8), Y15, Y3 \
	VANDPD Y14, Y2, Y2 \
	VANDPD Y14, Y3, Y3 \
	VADDPD Y2, Y0, Y0 \
	VADDPD Y3, Y1, Y1

#define ABSDEV4 \
	VMOVUPD (SI)(AX*8), Y2 \
	VSUBPD Y15, Y2, Y2 \
	VANDPD Y14, Y2, Y2 \
	VADDPD Y2, Y0, Y0

#define ABSREDUCE \
	VADDPD Y1, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPD X1, X0, X0 \
	VUNPCKHPD X0, X0, X1 \
	VADDSD X1, X0, X0

#define ABSDEV1 \
	VMOVSD (SI)(AX*8), X2 \
	VSUBSD X15, X2, X2 \
	VANDPD X14, X2, X2 \
	VADDSD X2, X0, X0

DATA ·absMask+0(SB)/8, $0x7fffffffffffffff
GLOBL ·absMask(SB), RODATA|NOPTR, $8

// func gerAVX(a *float64, m int, alpha float64, x, y *float64)
//
// a[i·m + j] += (alpha·x[i])·y[j] for i, j < m (m ≥ 1): the rank-one
// update of the row-major m×m matrix at a, each product rounded before
// its addition, as gonum's Dger computes it (the factor alpha·x[i]
// rounded first); four columns of a row at a time (AVX).
TEXT ·gerAVX(SB), NOSPLIT, $0-40
	MOVQ         a+0(FP), DI
	MOVQ         m+8(FP), CX
	VBROADCASTSD alpha+16(FP), Y15
	MOVQ         x+24(FP), SI
	MOVQ         y+32(FP), DX
	MOVQ         CX, R9
	ANDQ         $-4, R9
	XORQ         R8, R8

gerrow:
	VBROADCASTSD (SI)(R8*8), Y0
	VMULPD       Y15, Y0, Y0
	XORQ         AX, AX
	CMPQ         R9, $0
	JEQ          gertail

gercol4:
	VMULPD  (DX)(AX*8), Y0, Y1
	VADDPD  (DI)(AX*8), Y1, Y1
	VMOVUPD Y1, (DI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, R9
	JLT     gercol4

gertail:
	CMPQ   AX, CX
	JGE    gernext
	VMULSD (DX)(AX*8), X0, X1
	VADDSD (DI)(AX*8), X1, X1
	VMOVSD X1, (DI)(AX*8)
	INCQ   AX
	JMP    gertail

gernext:
	LEAQ (DI)(CX*8), DI
	INCQ R8
	CMPQ R8, CX
	JLT  gerrow
	VZEROUPPER
	RET

// func packGAVX(a *float64, m int, gp *float64)
//
// What packGGo does (m ≥ 1): row i of the row-major m×m matrix at a, from
// its diagonal on, to gp, rows one after another, the entries right of
// the diagonal doubled (x + x, exact), four at a time (AVX).
TEXT ·packGAVX(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), SI
	MOVQ m+8(FP), CX
	MOVQ gp+16(FP), DI
	MOVQ CX, R8
	LEAQ 8(CX*8), R10

packrow:
	VMOVSD (SI), X0
	VMOVSD X0, (DI)
	MOVQ   $1, AX
	LEAQ   -3(R8), R9

packvec:
	CMPQ    AX, R9
	JGE     packtail
	VMOVUPD (SI)(AX*8), Y0
	VADDPD  Y0, Y0, Y0
	VMOVUPD Y0, (DI)(AX*8)
	ADDQ    $4, AX
	JMP     packvec

packtail:
	CMPQ   AX, R8
	JGE    packnext
	VMOVSD (SI)(AX*8), X0
	VADDSD X0, X0, X0
	VMOVSD X0, (DI)(AX*8)
	INCQ   AX
	JMP    packtail

packnext:
	LEAQ (DI)(R8*8), DI
	ADDQ R10, SI
	DECQ R8
	JNZ  packrow
	VZEROUPPER
	RET

// func rowAbsDevsAVX(a *float64, m int, lambda, beta float64, out *float64)
//
// For each row i < m of the row-major m×m matrix at a (m ≥ 1): out[i] =
// absDevSumGo(row i, beta) + (|a_ii − λ − β| − |a_ii − β|), the row's
// sum in absDevSumGo's order, as rowAbsDevsGo computes it, bit for bit
// (AVX).
TEXT ·rowAbsDevsAVX(SB), NOSPLIT, $0-40
	MOVQ         a+0(FP), SI
	MOVQ         m+8(FP), CX
	VBROADCASTSD beta+24(FP), Y15
	VBROADCASTSD ·absMask(SB), Y14
	VMOVSD       lambda+16(FP), X13
	MOVQ         out+32(FP), DI
	MOVQ         CX, R9
	SHRQ         $3, R9     // blocks of eight
	MOVQ         CX, R10
	ANDQ         $-4, R10   // the end of the blocks of four
	XORQ         R8, R8     // the row

rarow:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ   R9, DX
	XORQ   AX, AX
	TESTQ  DX, DX
	JEQ    ra4

ra8:
	ABSDEV8
	ADDQ   $8, AX
	DECQ   DX
	JNE    ra8

ra4:
	CMPQ    AX, R10
	JGE     rareduce
	ABSDEV4
	ADDQ    $4, AX

rareduce:
	ABSREDUCE

ratail:
	CMPQ   AX, CX
	JGE    radiag
	ABSDEV1
	INCQ   AX
	JMP    ratail

radiag:
	// s + (|(a_ii − λ) − β| − |a_ii − β|).
	VMOVSD (SI)(R8*8), X2
	VSUBSD X13, X2, X3
	VSUBSD X15, X3, X3
	VANDPD X14, X3, X3
	VSUBSD X15, X2, X2
	VANDPD X14, X2, X2
	VSUBSD X2, X3, X3
	VADDSD X3, X0, X0
	VMOVSD X0, (DI)(R8*8)
	LEAQ   (SI)(CX*8), SI
	INCQ   R8
	CMPQ   R8, CX
	JLT    rarow
	VZEROUPPER
	RET
