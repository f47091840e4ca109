// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_http.h"

#include <event2/buffer.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

size_t prom_http_head_end(const char *buf, size_t len)
{
	/* Blank lines before the request line are skipped (RFC 9112 2.2), not an empty head. */
	size_t i = 0;

	while (i < len && (buf[i] == '\r' || buf[i] == '\n'))
		i++;
	for (; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (i + 1 < len && buf[i + 1] == '\n')
			return i + 2;
		if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* The line from *p (at most to end), its end-of-line excluded; *p moves past it. */
static const char *next_line(const char **p, const char *end, size_t *len)
{
	const char *line = *p, *eol = memchr(line, '\n', end - line);

	if (!eol)
		eol = end;
	*p = eol < end ? eol + 1 : end;
	*len = eol - line;
	if (*len && line[*len - 1] == '\r')
		(*len)--;
	return line;
}

/* RFC 9110's tchar: what a method or a field name is made of. */
static bool is_token(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] >= 127 || strchr("\"(),/:;<=>?@[\\]{}", s[i]))
			return false;
	return true;
}

static bool is(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && !strncasecmp(s, word, n);
}

/* 0 for GET and HEAD, 405's methods as OTHER; 501 for a token HTTP does not define. */
static int parse_method(const char *s, size_t n, struct prom_http_req *r)
{
	static const char *const methods[] = { "GET",	  "HEAD",  "POST",    "PUT",  "DELETE",
					       "OPTIONS", "TRACE", "CONNECT", "PATCH" };

	if (!is_token(s, n))
		return 400;
	r->method = PROM_HTTP_OTHER;
	/* Methods are case-sensitive: "get" is not GET. */
	for (size_t i = 0; i < sizeof(methods) / sizeof(*methods); i++) {
		if (n != strlen(methods[i]) || memcmp(s, methods[i], n))
			continue;
		if (i <= PROM_HTTP_HEAD) /* GET and HEAD come first, in the enum's order */
			r->method = (enum prom_http_method)i;
		return 0;
	}
	return 501;
}

/* The target's path (origin form "/metrics?x", absolute form "http://h/metrics", "*"). */
static int parse_target(const char *s, size_t n, struct prom_http_req *r)
{
	const char *end = s + n;
	size_t len;

	if (n > 7 && !strncasecmp(s, "http://", 7)) {
		s = memchr(s + 7, '/', n - 7);
		if (!s) {
			strcpy(r->path, "/");
			return 0;
		}
	} else if (n == 1 && *s == '*') {
		return 0;
	} else if (*s != '/') {
		return 400;
	}
	for (len = 0; s + len < end && s[len] != '?' && s[len] != '#'; len++)
		;
	if (len < sizeof(r->path)) {
		memcpy(r->path, s, len);
		r->path[len] = '\0';
	}
	return 0;
}

/* Connection's options; only "close" matters (HTTP/1.0 closes anyway). */
static void parse_connection(const char *v, size_t n, struct prom_http_req *r)
{
	while (n) {
		size_t len = 0;

		while (n && (*v == ',' || *v == ' ' || *v == '\t'))
			v++, n--;
		while (len < n && v[len] != ',' && v[len] != ' ' && v[len] != '\t')
			len++;
		if (is(v, len, "close"))
			r->close = true;
		v += len;
		n -= len;
	}
}

/* One header field line: 0, 413 for a body announced, 400 malformed. */
static int parse_field(const char *line, size_t n, struct prom_http_req *r)
{
	const char *colon = memchr(line, ':', n), *v;
	size_t vlen;

	/* No name, a space before the colon, or a folded line (obsolete, RFC 9112 5.2). */
	if (!colon || !is_token(line, colon - line))
		return 400;
	v = colon + 1;
	vlen = n - (v - line);
	while (vlen && (*v == ' ' || *v == '\t'))
		v++, vlen--;
	while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
		vlen--;
	if (is(line, colon - line, "Connection")) {
		parse_connection(v, vlen, r);
	} else if (is(line, colon - line, "Content-Length")) {
		bool zero = true;

		if (!vlen)
			return 400;
		for (size_t i = 0; i < vlen; i++) {
			if (v[i] < '0' || v[i] > '9')
				return 400;
			zero = zero && v[i] == '0';
		}
		if (!zero)
			return 413;
	} else if (is(line, colon - line, "Transfer-Encoding")) {
		return 413;
	}
	return 0;
}

static int parse_request(const char *head, size_t len, struct prom_http_req *r)
{
	const char *p = head, *end = head + len, *line, *sp1, *sp2, *ver;
	size_t n, vlen;
	int method, ret;

	while (p < end && (*p == '\r' || *p == '\n'))
		p++;
	line = next_line(&p, end, &n);
	sp1 = memchr(line, ' ', n);
	sp2 = sp1 ? memchr(sp1 + 1, ' ', n - (sp1 + 1 - line)) : NULL;
	if (!sp2 || sp2 == sp1 + 1)
		return 400;
	ver = sp2 + 1;
	vlen = n - (ver - line);
	if (vlen != 8 || strncmp(ver, "HTTP/", 5) || ver[6] != '.' || ver[5] < '0' ||
	    ver[5] > '9' || ver[7] < '0' || ver[7] > '9')
		return 400;
	if (ver[5] != '1')
		return 505;
	r->http10 = ver[7] == '0';
	r->close = r->http10;
	method = parse_method(line, sp1 - line, r);
	if (method == 400)
		return 400;
	if (parse_target(sp1 + 1, sp2 - sp1 - 1, r))
		return 400;
	while (p < end) {
		line = next_line(&p, end, &n);
		if (!n)
			break;
		if ((ret = parse_field(line, n, r)))
			return ret;
	}
	return method;
}

int prom_http_parse(const char *head, size_t len, struct prom_http_req *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = parse_request(head, len, r);
	if (ret)
		r->close = true; /* what follows a malformed request cannot be trusted */
	return ret;
}

static const char *reason(int status)
{
	static const struct {
		int status;
		const char *text;
	} reasons[] = {
		{ 200, "OK" },
		{ 400, "Bad Request" },
		{ 404, "Not Found" },
		{ 405, "Method Not Allowed" },
		{ 413, "Content Too Large" },
		{ 431, "Request Header Fields Too Large" },
		{ 501, "Not Implemented" },
		{ 503, "Service Unavailable" },
		{ 505, "HTTP Version Not Supported" },
	};

	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (reasons[i].status == status)
			return reasons[i].text;
	return "Error";
}

int prom_http_head(struct evbuffer *out, const struct prom_http_req *r, int status,
		   const char *type, const char *extra, enum prom_http_framing framing,
		   size_t length)
{
	char date[64], frame[48];
	time_t now = time(NULL);
	struct tm tm;

	/* A server with a clock sends Date (RFC 9110 6.6.1). */
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", gmtime_r(&now, &tm));
	if (framing == PROM_HTTP_CHUNKED)
		snprintf(frame, sizeof(frame), "Transfer-Encoding: chunked");
	else
		snprintf(frame, sizeof(frame), "Content-Length: %zu", length);
	return evbuffer_add_printf(out, "HTTP/1.%d %d %s\r\nDate: %s\r\n%s%s%s%s%s\r\n%s\r\n",
				   r->http10 ? 0 : 1, status, reason(status), date,
				   type ? "Content-Type: " : "", type ? type : "",
				   type ? "\r\n" : "", extra ? extra : "", frame,
				   r->close ? "Connection: close\r\n" : "") < 0 ?
		       -1 :
		       0;
}

int prom_http_chunk(struct evbuffer *out, struct evbuffer *body)
{
	if (evbuffer_add_printf(out, "%zx\r\n", evbuffer_get_length(body)) < 0 ||
	    evbuffer_add_buffer(out, body) || evbuffer_add(out, "\r\n", 2))
		return -1;
	return 0;
}

int prom_http_last_chunk(struct evbuffer *out)
{
	return evbuffer_add(out, "0\r\n\r\n", 5);
}
