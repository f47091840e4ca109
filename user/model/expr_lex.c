// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The lexer of model formulas: numbers (decimal, hexadecimal, exponents),
 * names, event names with dots and ':' modifiers (EVENT.UMASK:c1:e1),
 * msr/NAME/, interval-s, operators; and the first error, with its line and
 * column, for the lexer and the parser alike (model/expr.c).
 */
#include "model/expr_lex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Records the first error (later ones follow from it) and returns -1, what
 * every parse and lex function returns on failure; ps->rc keeps the errno.
 */
int expr_fail(struct parser *ps, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (ps->rc)
		return -1;
	expr_src_pos(ps->src, off, &ps->err->line, &ps->err->col);
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	ps->rc = -EINVAL;
	return -1;
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

const char *expr_tok_text(const struct parser *ps, char *buf, size_t len)
{
	if (ps->t.kind == T_END)
		return "end of expression";
	snprintf(buf, len, "'%.*s'", (int)(ps->t.len > 40 ? 40 : ps->t.len),
		 ps->src->text + ps->t.off);
	return buf;
}

bool expr_tok_is(const struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	return ps->t.kind == T_NAME && ps->t.len == n &&
	       !memcmp(ps->src->text + ps->t.off, word, n);
}

static int lex_number(struct parser *ps, size_t start)
{
	const char *s = ps->src->text;
	size_t i = start, end = ps->src->len;
	char buf[64];

	if (s[i] == '0' && i + 1 < end && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		unsigned long long v = 0;
		size_t digits = 0;

		for (i += 2; i < end && isxdigit((unsigned char)s[i]); i++, digits++)
			v = v * 16 + (isdigit((unsigned char)s[i]) ?
					      s[i] - '0' :
					      (tolower((unsigned char)s[i]) - 'a' + 10));
		if (!digits || digits > 16)
			return expr_fail(ps, start, "bad hexadecimal number");
		ps->t.num = (double)v;
	} else {
		while (i < end && isdigit((unsigned char)s[i]))
			i++;
		if (i < end && s[i] == '.')
			for (i++; i < end && isdigit((unsigned char)s[i]);)
				i++;
		if (i < end && (s[i] == 'e' || s[i] == 'E')) {
			size_t j = i + 1;

			if (j < end && (s[j] == '+' || s[j] == '-'))
				j++;
			if (j >= end || !isdigit((unsigned char)s[j]))
				return expr_fail(ps, start, "bad number: exponent without digits");
			for (i = j; i < end && isdigit((unsigned char)s[i]);)
				i++;
		}
		if (i - start >= sizeof(buf))
			return expr_fail(ps, start, "number too long");
		memcpy(buf, s + start, i - start);
		buf[i - start] = '\0';
		ps->t.num = strtod(buf, NULL);
		/* 1e999 would be infinity: no counter ratio needs a number past a double. */
		if (!isfinite(ps->t.num))
			return expr_fail(ps, start,
					 "number too large for a double (at most about 1.8e308)");
	}
	if (i < end && (is_ident((unsigned char)s[i]) || s[i] == '.'))
		return expr_fail(ps, start, "bad number");
	ps->t.kind = T_NUM;
	ps->t.len = i - start;
	ps->pos = i;
	return 0;
}

/* NAME, EVENT.UMASK[:mod...], msr/tsc/, interval-s. */
static int lex_word(struct parser *ps, size_t start)
{
	const char *s = ps->src->text;
	size_t i = start, end = ps->src->len;
	bool event = false;

	while (i < end && is_ident((unsigned char)s[i]))
		i++;
	if (i - start == 3 && !memcmp(s + start, "msr", 3) && i < end && s[i] == '/') {
		for (i++; i < end && is_ident((unsigned char)s[i]);)
			i++;
		if (i >= end || s[i] != '/')
			return expr_fail(ps, start, "bad event name: expected msr/NAME/");
		i++;
		event = true;
	} else if (i - start == 8 && !memcmp(s + start, "interval", 8) && i + 1 < end &&
		   s[i] == '-' && s[i + 1] == 's' &&
		   (i + 2 >= end || !is_ident((unsigned char)s[i + 2]))) {
		ps->t.kind = T_INTERVAL;
		ps->t.len = i + 2 - start;
		ps->pos = i + 2;
		return 0;
	} else if (i < end && s[i] == '.') {
		event = true;
		while (i < end && (is_ident((unsigned char)s[i]) || s[i] == '.'))
			i++;
		while (i + 1 < end && s[i] == ':' && is_ident((unsigned char)s[i + 1])) {
			for (i++; i < end && (is_ident((unsigned char)s[i]) || s[i] == '=');)
				i++;
		}
		if (s[i - 1] == '.')
			return expr_fail(ps, start, "bad event name '%.*s'", (int)(i - start),
					 s + start);
	}
	if (i < end && s[i] == ':')
		return expr_fail(ps, i,
				 "unexpected ':' (event modifiers follow an EVENT.UMASK name)");
	ps->t.kind = event ? T_EVENT : T_NAME;
	ps->t.len = i - start;
	ps->pos = i;
	return 0;
}

int expr_next(struct parser *ps)
{
	const char *s = ps->src->text;
	size_t end = ps->src->len;
	char c;

	if (ps->rc)
		return -1;
	ps->ntok++;
	while (ps->pos < end && isspace((unsigned char)s[ps->pos]))
		ps->pos++;
	memset(&ps->t, 0, sizeof(ps->t));
	ps->t.off = ps->pos;
	if (ps->pos >= end)
		return 0;
	c = s[ps->pos];
	if (isdigit((unsigned char)c) ||
	    (c == '.' && ps->pos + 1 < end && isdigit((unsigned char)s[ps->pos + 1])))
		return lex_number(ps, ps->pos);
	if (isalpha((unsigned char)c) || c == '_')
		return lex_word(ps, ps->pos);
	ps->t.len = 1;
	ps->t.kind = T_OP;
	switch (c) {
	case '+':
		ps->t.op = EXPR_ADD;
		break;
	case '-':
		ps->t.op = EXPR_SUB;
		break;
	case '*':
		ps->t.op = EXPR_MUL;
		break;
	case '/':
		ps->t.op = EXPR_DIV;
		break;
	case '(':
		ps->t.kind = T_LP;
		break;
	case ')':
		ps->t.kind = T_RP;
		break;
	case ',':
		ps->t.kind = T_COMMA;
		break;
	case '<':
	case '>':
	case '=':
	case '!': {
		bool eq = ps->pos + 1 < end && s[ps->pos + 1] == '=';

		if ((c == '=' || c == '!') && !eq)
			return expr_fail(ps, ps->pos, "unexpected '%c' (comparisons are == and !=)",
					 c);
		ps->t.len = eq ? 2 : 1;
		ps->t.op = c == '<' ? (eq ? EXPR_LE : EXPR_LT) :
			   c == '>' ? (eq ? EXPR_GE : EXPR_GT) :
			   c == '=' ? EXPR_EQ :
				      EXPR_NE;
		break;
	}
	default:
		return expr_fail(ps, ps->pos, "unexpected character '%c'",
				 isprint((unsigned char)c) ? c : '?');
	}
	ps->pos += ps->t.len;
	return 0;
}
