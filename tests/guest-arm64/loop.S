// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
// The guest test's workload of known instruction count: `loop N` retires 2N instructions
// in its loop (subs, b.ne), plus a few dozen to parse N and exit.  No libc: nothing runs
// but this, so the count is known in advance.
	.text
	.global _start
_start:
	ldr	x1, [sp]		// argc
	mov	x0, #1
	cmp	x1, #2
	b.lt	spin
	ldr	x2, [sp, #16]		// argv[1], decimal
	mov	x0, #0
	mov	x4, #10
parse:
	ldrb	w3, [x2], #1
	cbz	w3, parsed
	sub	x3, x3, #'0'
	madd	x0, x0, x4, x3
	b	parse
parsed:
	cbnz	x0, spin
	mov	x0, #1			// N = 0 would loop 2^64 times
spin:
	subs	x0, x0, #1
	b.ne	spin
	mov	x0, #0
	mov	x8, #93			// exit
	svc	#0
