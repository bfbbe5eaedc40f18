//go:build !purego

#include "textflag.h"

// The scoring of four candidate columns at once, one per lane (AVX), with
// the scalar kernel's arithmetic for each (sample.go, scorer.score4): sums
// in order, from zero, each product rounded before its addition (no fused
// multiply–add).

// TRANSPOSE4 loads elements AX, …, AX+3 of the columns R8–R11 and leaves
// element AX+r of the four in Y8+r, lane q holding column q.
#define TRANSPOSE4 \
	VMOVUPD    (R8)(AX*8), Y0 \
	VMOVUPD    (R9)(AX*8), Y1 \
	VMOVUPD    (R10)(AX*8), Y2 \
	VMOVUPD    (R11)(AX*8), Y3 \
	VUNPCKLPD  Y1, Y0, Y4 \
	VUNPCKHPD  Y1, Y0, Y5 \
	VUNPCKLPD  Y3, Y2, Y6 \
	VUNPCKHPD  Y3, Y2, Y7 \
	VPERM2F128 $0x20, Y6, Y4, Y8 \
	VPERM2F128 $0x20, Y7, Y5, Y9 \
	VPERM2F128 $0x31, Y6, Y4, Y10 \
	VPERM2F128 $0x31, Y7, Y5, Y11

// LANES1 leaves element AX of the columns R8–R11 in Y8, lane q holding
// column q.
#define LANES1 \
	VMOVSD      (R8)(AX*8), X8 \
	VMOVHPD     (R9)(AX*8), X8, X8 \
	VMOVSD      (R10)(AX*8), X1 \
	VMOVHPD     (R11)(AX*8), X1, X1 \
	VINSERTF128 $1, X1, Y8, Y8

// TERM adds a[AX+off]·Y to the sums Y12.
#define TERM(off, Y) \
	VBROADCASTSD off(SI)(AX*8), Y0 \
	VMULPD       Y, Y0, Y0 \
	VADDPD       Y0, Y12, Y12

// func t4AVX(z0, z1, z2, z3, a *float64, m int, out *[4]float64)
//
// out[q] = Σ_l a[l]·z_q[l], summed in order from l = 0 (m ≥ 1).
TEXT ·t4AVX(SB), NOSPLIT, $0-56
	MOVQ   z0+0(FP), R8
	MOVQ   z1+8(FP), R9
	MOVQ   z2+16(FP), R10
	MOVQ   z3+24(FP), R11
	MOVQ   a+32(FP), SI
	MOVQ   m+40(FP), CX
	MOVQ   out+48(FP), DI
	VXORPD Y12, Y12, Y12
	MOVQ   CX, DX
	ANDQ   $-4, DX
	XORQ   AX, AX

tblock:
	CMPQ AX, DX
	JGE  ttail
	TRANSPOSE4
	TERM(0, Y8)
	TERM(8, Y9)
	TERM(16, Y10)
	TERM(24, Y11)
	ADDQ $4, AX
	JMP  tblock

ttail:
	CMPQ AX, CX
	JGE  tdone
	LANES1
	TERM(0, Y8)
	INCQ AX
	JMP  ttail

tdone:
	VMOVUPD Y12, (DI)
	VZEROUPPER
	RET

// func score4AVX(z0, z1, z2, z3, gp, a *float64, m int, z4 *float64, out *[8]float64)
//
// out[q] = 1 + Σ_i z_q[i]·(Σ_{l≥i} gp_il·z_q[l]) and out[4+q] = Σ_l a[l]·z_q[l]
// for the packed rows gp (scorer.gp: row i holds m − i entries), every sum
// in order from zero (m ≥ 1). z4 (4m floats) receives the columns
// interleaved: z4[4l+q] = z_q[l].
TEXT ·score4AVX(SB), NOSPLIT, $0-72
	MOVQ   z0+0(FP), R8
	MOVQ   z1+8(FP), R9
	MOVQ   z2+16(FP), R10
	MOVQ   z3+24(FP), R11
	MOVQ   a+40(FP), SI
	MOVQ   m+48(FP), CX
	MOVQ   z4+56(FP), BX
	MOVQ   out+64(FP), DI
	VXORPD Y12, Y12, Y12
	MOVQ   CX, DX
	ANDQ   $-4, DX
	XORQ   AX, AX

	// t, storing the interleaved columns on the way.
sblock:
	CMPQ    AX, DX
	JGE     stail
	TRANSPOSE4
	MOVQ    AX, R12
	SHLQ    $5, R12
	VMOVUPD Y8, (BX)(R12*1)
	VMOVUPD Y9, 32(BX)(R12*1)
	VMOVUPD Y10, 64(BX)(R12*1)
	VMOVUPD Y11, 96(BX)(R12*1)
	TERM(0, Y8)
	TERM(8, Y9)
	TERM(16, Y10)
	TERM(24, Y11)
	ADDQ    $4, AX
	JMP     sblock

stail:
	CMPQ    AX, CX
	JGE     sdone
	LANES1
	MOVQ    AX, R12
	SHLQ    $5, R12
	VMOVUPD Y8, (BX)(R12*1)
	TERM(0, Y8)
	INCQ    AX
	JMP     stail

sdone:
	VMOVUPD Y12, 32(DI)

	// q = Σ_i z_i·s_i, s_i = Σ_{l≥i} gp_il·z_l.
	MOVQ   gp+32(FP), SI
	VXORPD Y13, Y13, Y13
	XORQ   AX, AX
	MOVQ   BX, R13

qrow:
	CMPQ   AX, CX
	JGE    qdone
	VXORPD Y12, Y12, Y12
	MOVQ   CX, R12
	SUBQ   AX, R12 // the m − i terms of row i
	MOVQ   R13, R14

qterm2:
	CMPQ         R12, $2
	JLT          qterm1
	VBROADCASTSD (SI), Y0
	VMULPD       (R14), Y0, Y0
	VADDPD       Y0, Y12, Y12
	VBROADCASTSD 8(SI), Y1
	VMULPD       32(R14), Y1, Y1
	VADDPD       Y1, Y12, Y12
	ADDQ         $16, SI
	ADDQ         $64, R14
	SUBQ         $2, R12
	JMP          qterm2

qterm1:
	TESTQ        R12, R12
	JEQ          qsum
	VBROADCASTSD (SI), Y0
	VMULPD       (R14), Y0, Y0
	VADDPD       Y0, Y12, Y12
	ADDQ         $8, SI

qsum:
	VMULPD       (R13), Y12, Y1
	VADDPD       Y1, Y13, Y13
	ADDQ         $32, R13
	INCQ         AX
	JMP          qrow

qdone:
	VBROADCASTSD ·scoreOne(SB), Y0
	VADDPD       Y13, Y0, Y0
	VMOVUPD      Y0, (DI)
	VZEROUPPER
	RET

DATA ·scoreOne+0(SB)/8, $1.0
GLOBL ·scoreOne(SB), RODATA|NOPTR, $8

// func score4PrimalAVX(z0, z1, z2, z3, u *float64, k1, m int, il float64, z4 *float64, out *[4]float64)
//
// out[q] = 1 + (Σ_l z_q[l]²)·il − Σ_j (Σ_l u_jl·z_q[l])², the primal
// form's c, for the k1 rows u_j = u[j·m : j·m+m] of U, every sum in order
// from zero, each product rounded before its addition or subtraction
// (m ≥ 1). z4 (4m floats) receives the columns interleaved.
TEXT ·score4PrimalAVX(SB), NOSPLIT, $0-80
	MOVQ   z0+0(FP), R8
	MOVQ   z1+8(FP), R9
	MOVQ   z2+16(FP), R10
	MOVQ   z3+24(FP), R11
	MOVQ   k1+40(FP), R13
	MOVQ   m+48(FP), CX
	MOVQ   z4+64(FP), BX
	MOVQ   out+72(FP), DI
	MOVQ   CX, DX
	ANDQ   $-4, DX

	// q = (Σ_l z_l²)·il, storing the interleaved columns on the way.
	VXORPD Y12, Y12, Y12
	XORQ   AX, AX

pnblock:
	CMPQ    AX, DX
	JGE     pntail
	TRANSPOSE4
	MOVQ    AX, R12
	SHLQ    $5, R12
	VMOVUPD Y8, (BX)(R12*1)
	VMOVUPD Y9, 32(BX)(R12*1)
	VMOVUPD Y10, 64(BX)(R12*1)
	VMOVUPD Y11, 96(BX)(R12*1)
	VMULPD  Y8, Y8, Y0
	VADDPD  Y0, Y12, Y12
	VMULPD  Y9, Y9, Y0
	VADDPD  Y0, Y12, Y12
	VMULPD  Y10, Y10, Y0
	VADDPD  Y0, Y12, Y12
	VMULPD  Y11, Y11, Y0
	VADDPD  Y0, Y12, Y12
	ADDQ    $4, AX
	JMP     pnblock

pntail:
	CMPQ    AX, CX
	JGE     pndone
	LANES1
	MOVQ    AX, R12
	SHLQ    $5, R12
	VMOVUPD Y8, (BX)(R12*1)
	VMULPD  Y8, Y8, Y0
	VADDPD  Y0, Y12, Y12
	INCQ    AX
	JMP     pntail

pndone:
	VBROADCASTSD il+56(FP), Y0
	VMULPD       Y0, Y12, Y13

	// q −= (u_jᵀz)² for each row of U.
	MOVQ u+32(FP), SI

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
	VMOVUPD      Y0, (DI)
	VZEROUPPER
	RET

// func absDevSumAVX(x *float64, n int, beta float64) float64
//
// Σ_l |x[l] − beta| over the n elements of x, in eight interleaved partial
// sums (two registers of four lanes) combined at the end, then the last
// n mod 4 elements in order (AVX).
TEXT ·absDevSumAVX(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD beta+16(FP), Y15
	VBROADCASTSD ·absMask(SB), Y14
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	MOVQ         CX, DX
	ANDQ         $-8, DX
	XORQ         AX, AX

abs8:
	CMPQ    AX, DX
	JGE     abs4
	VMOVUPD (SI)(AX*8), Y2
	VMOVUPD 32(SI)(AX*8), Y3
	VSUBPD  Y15, Y2, Y2
	VSUBPD  Y15, Y3, Y3
	VANDPD  Y14, Y2, Y2
	VANDPD  Y14, Y3, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	ADDQ    $8, AX
	JMP     abs8

abs4:
	MOVQ    CX, DX
	ANDQ    $-4, DX
	CMPQ    AX, DX
	JGE     absreduce
	VMOVUPD (SI)(AX*8), Y2
	VSUBPD  Y15, Y2, Y2
	VANDPD  Y14, Y2, Y2
	VADDPD  Y2, Y0, Y0
	ADDQ    $4, AX

absreduce:
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0

abstail:
	CMPQ   AX, CX
	JGE    absdone
	VMOVSD (SI)(AX*8), X2
	VSUBSD X15, X2, X2
	VANDPD X14, X2, X2
	VADDSD X2, X0, X0
	INCQ   AX
	JMP    abstail

absdone:
	VMOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

DATA ·absMask+0(SB)/8, $0x7fffffffffffffff
GLOBL ·absMask(SB), RODATA|NOPTR, $8
