/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Inside the formula parser: the tokens the lexer (model/expr_lex.c) gives
 * and the parser's state it advances, shared by the lexer and the
 * recursive-descent parser (model/expr.c) only.
 */
#ifndef TMACG_EXPR_LEX_H
#define TMACG_EXPR_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "model/expr.h"

enum tok_kind { T_END, T_NUM, T_NAME, T_EVENT, T_INTERVAL, T_OP, T_LP, T_RP, T_COMMA };

struct tok {
	enum tok_kind kind;
	size_t off, len;
	double num;
	int op; /* T_OP: an EXPR_* operator */
};

struct parser {
	struct expr_pool *p;
	const struct expr_src *src;
	enum expr_mode mode;
	size_t pos;
	struct tok t;
	int ntok; /* tokens consumed before t: a leading comparison has 0 */
	int depth;
	struct expr_error *err;
	int rc;
};

/*
 * Records the first error (later ones follow from it) and returns -1, what
 * every parse and lex function returns on failure; ps->rc keeps the errno.
 */
int expr_fail(struct parser *ps, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Reads the next token into ps->t: 0, or -1 after expr_fail(). */
int expr_next(struct parser *ps);
/* The current token for a message: "'foo'", or "end of expression". */
const char *expr_tok_text(const struct parser *ps, char *buf, size_t len);
/* Whether the current token is the name word (a keyword: if, else, and, ...). */
bool expr_tok_is(const struct parser *ps, const char *word);

#endif
