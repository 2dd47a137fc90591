#include "textflag.h"

// func dot2Lanes(c, x, y *float64, blocks int) (x0, x1, x2, x3, y0, y1, y2, y3 float64)
//
// For i < 4*blocks: xk += c[i]*x[i] and yk += c[i]*y[i] with k = i mod 4, in increasing
// i. Each SSE2 register holds two lanes (X0: x0 x1, X1: x2 x3, X2: y0 y1, X3: y2 y3);
// MULPD and ADDPD round each lane as MULSD and ADDSD do, so every lane is the scalar
// sum to the bit. Four independent chains of additions, two lanes wide.
TEXT ·dot2Lanes(SB), NOSPLIT, $0-96
	MOVQ c+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ y+16(FP), DX
	MOVQ blocks+24(FP), CX
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	TESTQ CX, CX
	JZ done

loop:
	MOVUPD (SI), X4
	MOVUPD 16(SI), X5
	MOVUPD (DI), X6
	MULPD X4, X6
	ADDPD X6, X0
	MOVUPD 16(DI), X7
	MULPD X5, X7
	ADDPD X7, X1
	MOVUPD (DX), X8
	MULPD X4, X8
	ADDPD X8, X2
	MOVUPD 16(DX), X9
	MULPD X5, X9
	ADDPD X9, X3
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	DECQ CX
	JNZ loop

done:
	MOVSD X0, x0+32(FP)
	MOVHPD X0, x1+40(FP)
	MOVSD X1, x2+48(FP)
	MOVHPD X1, x3+56(FP)
	MOVSD X2, y0+64(FP)
	MOVHPD X2, y1+72(FP)
	MOVSD X3, y2+80(FP)
	MOVHPD X3, y3+88(FP)
	RET
