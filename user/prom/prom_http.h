/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The HTTP/1.x the /metrics server speaks: a request head (request line and
 * header fields) read into what the server needs of it, and a reply's status
 * line and header fields, framed by Content-Length or in chunks.  A request
 * has no body: GET and HEAD carry none, and one announced is refused (413)
 * before it is read.
 */
#ifndef TMACG_PROM_HTTP_H
#define TMACG_PROM_HTTP_H

#include <stdbool.h>
#include <stddef.h>

struct evbuffer;

/* A request line and header fields longer than this are refused (431). */
#define PROM_HTTP_MAX_HEAD 8192

enum prom_http_method { PROM_HTTP_GET, PROM_HTTP_HEAD, PROM_HTTP_OTHER };

struct prom_http_req {
	enum prom_http_method method;
	char path[256]; /* the target's path, without query; "" when longer than this */
	bool http10;	/* HTTP/1.0: no chunks, and the connection closes after the reply */
	bool close;	/* the connection closes after the reply (HTTP/1.0, Connection: close) */
};

/*
 * The end of the request head in buf (the offset past its blank line), 0
 * when the head is not complete yet.  Bare LF line ends count as CRLF.
 */
size_t prom_http_head_end(const char *buf, size_t len);
/*
 * Parses a complete head (len bytes, prom_http_head_end's).  0, or the
 * status that refuses it: 400 malformed, 413 a body announced, 501 a method
 * HTTP does not define, 505 not HTTP/1.x.  r->close is set in either case.
 */
int prom_http_parse(const char *head, size_t len, struct prom_http_req *r);

/* What frames a reply's body. */
enum prom_http_framing {
	PROM_HTTP_LENGTH,  /* Content-Length: length */
	PROM_HTTP_CHUNKED, /* HTTP/1.1 chunks, ended by prom_http_last_chunk() */
};

/*
 * A reply's status line and header fields into out: type its Content-Type
 * (NULL: none), extra a header line with its CRLF (NULL: none), a
 * "Connection: close" when r->close.  -1 out of memory.
 */
int prom_http_head(struct evbuffer *out, const struct prom_http_req *r, int status,
		   const char *type, const char *extra, enum prom_http_framing framing,
		   size_t length);
/* body as one chunk onto out (body emptied); -1 out of memory. */
int prom_http_chunk(struct evbuffer *out, struct evbuffer *body);
int prom_http_last_chunk(struct evbuffer *out);

#endif
