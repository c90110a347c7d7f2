// SPDX-License-Identifier: GPL-2.0
/*
 * jsonparse.c - a small JSON reader, for the sweep's own JSON.
 *
 * RFC 8259 values into a tree of &struct sim_jval: objects keep their
 * members in order (duplicates are kept, the first one wins in
 * sim_json_get()), numbers keep their text so that exact decimals (the
 * core's six-decimal fixed point, 64-bit cycles) are converted by the
 * caller without going through a double.  \u escapes outside ASCII
 * become UTF-8; surrogate pairs are joined.  Nesting is limited to
 * %SIM_JSON_MAX_DEPTH.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "sim.h"

#define SIM_JSON_MAX_DEPTH	64

struct sim_jparser {
	const char *s;		/* the text */
	size_t pos;
	unsigned int line;
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 2, 3)))
sim_jerr(struct sim_jparser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err[0]) {
		n = snprintf(p->err, p->errlen, "line %u: ", p->line);
		va_start(ap, fmt);
		if (n >= 0 && (size_t)n < p->errlen)
			vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void sim_jspace(struct sim_jparser *p)
{
	for (;; p->pos++) {
		char c = p->s[p->pos];

		if (c == '\n')
			p->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
	}
}

/* Append @c to the growing buffer @buf (@len used, @cap allocated). */
static int sim_jput(char **buf, size_t *len, size_t *cap, char c)
{
	char *nb;

	if (*len + 1 >= *cap) {
		*cap = *cap ? 2 * *cap : 32;
		nb = realloc(*buf, *cap);
		if (!nb)
			return -ENOMEM;
		*buf = nb;
	}
	(*buf)[(*len)++] = c;
	(*buf)[*len] = '\0';
	return 0;
}

static int sim_jhex4(struct sim_jparser *p, unsigned int *out)
{
	unsigned int i, v = 0;

	for (i = 0; i < 4; i++) {
		char c = p->s[p->pos + i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return sim_jerr(p, "bad \\u escape");
	}
	p->pos += 4;
	*out = v;
	return 0;
}

/* A string at p->pos (the opening quote) into *out, unescaped. */
static int sim_jstring(struct sim_jparser *p, char **out)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	unsigned int u, lo;
	int ret = 0;

	p->pos++;
	if (sim_jput(&buf, &len, &cap, 'x'))
		return -ENOMEM;
	len = 0;
	buf[0] = '\0';
	while (!ret) {
		unsigned char c = p->s[p->pos++];

		if (c == '"')
			break;
		if (!c || c < 0x20) {
			ret = sim_jerr(p, "unterminated string");
			break;
		}
		if (c != '\\') {
			ret = sim_jput(&buf, &len, &cap, c);
			continue;
		}
		c = p->s[p->pos++];
		switch (c) {
		case '"': case '\\': case '/':
			ret = sim_jput(&buf, &len, &cap, c);
			break;
		case 'b': ret = sim_jput(&buf, &len, &cap, '\b'); break;
		case 'f': ret = sim_jput(&buf, &len, &cap, '\f'); break;
		case 'n': ret = sim_jput(&buf, &len, &cap, '\n'); break;
		case 'r': ret = sim_jput(&buf, &len, &cap, '\r'); break;
		case 't': ret = sim_jput(&buf, &len, &cap, '\t'); break;
		case 'u':
			ret = sim_jhex4(p, &u);
			if (ret)
				break;
			if (u >= 0xd800 && u < 0xdc00 && p->s[p->pos] == '\\' &&
			    p->s[p->pos + 1] == 'u') {
				p->pos += 2;
				ret = sim_jhex4(p, &lo);
				if (ret)
					break;
				if (lo < 0xdc00 || lo >= 0xe000) {
					ret = sim_jerr(p, "bad surrogate pair");
					break;
				}
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (u < 0x80) {
				ret = sim_jput(&buf, &len, &cap, u);
			} else if (u < 0x800) {
				ret = sim_jput(&buf, &len, &cap, 0xc0 | u >> 6) ?:
				      sim_jput(&buf, &len, &cap, 0x80 | (u & 0x3f));
			} else if (u < 0x10000) {
				ret = sim_jput(&buf, &len, &cap, 0xe0 | u >> 12) ?:
				      sim_jput(&buf, &len, &cap,
					       0x80 | ((u >> 6) & 0x3f)) ?:
				      sim_jput(&buf, &len, &cap, 0x80 | (u & 0x3f));
			} else {
				ret = sim_jput(&buf, &len, &cap, 0xf0 | u >> 18) ?:
				      sim_jput(&buf, &len, &cap,
					       0x80 | ((u >> 12) & 0x3f)) ?:
				      sim_jput(&buf, &len, &cap,
					       0x80 | ((u >> 6) & 0x3f)) ?:
				      sim_jput(&buf, &len, &cap, 0x80 | (u & 0x3f));
			}
			break;
		default:
			ret = sim_jerr(p, "bad escape '\\%c'", c);
		}
	}
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	return 0;
}

/* A number: -? int frac? exp?, kept as text. */
static int sim_jnumber(struct sim_jparser *p, char **out)
{
	size_t start = p->pos, n;
	const char *s = p->s;

	if (s[p->pos] == '-')
		p->pos++;
	if (s[p->pos] < '0' || s[p->pos] > '9')
		return sim_jerr(p, "unexpected character '%c'", s[start]);
	while (s[p->pos] >= '0' && s[p->pos] <= '9')
		p->pos++;
	if (s[p->pos] == '.') {
		p->pos++;
		if (s[p->pos] < '0' || s[p->pos] > '9')
			return sim_jerr(p, "bad number");
		while (s[p->pos] >= '0' && s[p->pos] <= '9')
			p->pos++;
	}
	if (s[p->pos] == 'e' || s[p->pos] == 'E') {
		p->pos++;
		if (s[p->pos] == '+' || s[p->pos] == '-')
			p->pos++;
		if (s[p->pos] < '0' || s[p->pos] > '9')
			return sim_jerr(p, "bad number");
		while (s[p->pos] >= '0' && s[p->pos] <= '9')
			p->pos++;
	}
	n = p->pos - start;
	*out = strndup(s + start, n);
	return *out ? 0 : -ENOMEM;
}

static int sim_jvalue(struct sim_jparser *p, struct sim_jval *v,
		      unsigned int depth);

/* The elements of an array or the members of an object. */
static int sim_jitems(struct sim_jparser *p, struct sim_jval *v,
		      unsigned int depth, char close)
{
	size_t cap = 0;
	int ret;

	p->pos++;
	sim_jspace(p);
	if (p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		struct sim_jval *item;
		char *key = NULL;

		if (v->n == cap) {
			struct sim_jval *ni;

			cap = cap ? 2 * cap : 8;
			ni = realloc(v->items, cap * sizeof(*ni));
			if (!ni)
				return -ENOMEM;
			v->items = ni;
		}
		sim_jspace(p);
		if (close == '}') {
			if (p->s[p->pos] != '"')
				return sim_jerr(p, "expected a member name");
			ret = sim_jstring(p, &key);
			if (ret)
				return ret;
			sim_jspace(p);
			if (p->s[p->pos] != ':') {
				free(key);
				return sim_jerr(p, "expected ':'");
			}
			p->pos++;
		}
		item = &v->items[v->n++];
		memset(item, 0, sizeof(*item));
		item->key = key;
		ret = sim_jvalue(p, item, depth + 1);
		if (ret)
			return ret;
		sim_jspace(p);
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] == close) {
			p->pos++;
			return 0;
		}
		return sim_jerr(p, "expected ',' or '%c'", close);
	}
}

static int sim_jword(struct sim_jparser *p, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(p->s + p->pos, word, n))
		return sim_jerr(p, "unexpected character '%c'",
				p->s[p->pos]);
	p->pos += n;
	return 0;
}

static int sim_jvalue(struct sim_jparser *p, struct sim_jval *v,
		      unsigned int depth)
{
	if (depth > SIM_JSON_MAX_DEPTH)
		return sim_jerr(p, "nested deeper than %d", SIM_JSON_MAX_DEPTH);
	sim_jspace(p);
	switch (p->s[p->pos]) {
	case '{':
		v->type = SIM_JOBJ;
		return sim_jitems(p, v, depth, '}');
	case '[':
		v->type = SIM_JARR;
		return sim_jitems(p, v, depth, ']');
	case '"':
		v->type = SIM_JSTR;
		return sim_jstring(p, &v->str);
	case 't':
		v->type = SIM_JBOOL;
		v->str = strdup("true");
		return v->str ? sim_jword(p, "true") : -ENOMEM;
	case 'f':
		v->type = SIM_JBOOL;
		v->str = strdup("false");
		return v->str ? sim_jword(p, "false") : -ENOMEM;
	case 'n':
		v->type = SIM_JNULL;
		return sim_jword(p, "null");
	case '\0':
		return sim_jerr(p, "unexpected end of input");
	default:
		v->type = SIM_JNUM;
		return sim_jnumber(p, &v->str);
	}
}

/**
 * sim_json_parse() - parse a JSON text
 * @text: NUL-terminated.
 * @root: out: its value; release with sim_json_free(), also on error.
 * @err: out: on -EINVAL, "line N: what".
 * @errlen: size of @err.
 *
 * Return: 0, -EINVAL (not JSON) or -ENOMEM.
 */
int sim_json_parse(const char *text, struct sim_jval *root, char *err,
		   size_t errlen)
{
	struct sim_jparser p = {
		.s = text, .line = 1, .err = err, .errlen = errlen,
	};
	int ret;

	memset(root, 0, sizeof(*root));
	err[0] = '\0';
	ret = sim_jvalue(&p, root, 0);
	if (!ret) {
		sim_jspace(&p);
		if (p.s[p.pos])
			ret = sim_jerr(&p, "text after the value");
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}

/**
 * sim_json_free() - release a parsed value
 * @v: the value; its own storage is the caller's.
 */
void sim_json_free(struct sim_jval *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		sim_json_free(&v->items[i]);
	free(v->items);
	free(v->str);
	free(v->key);
	memset(v, 0, sizeof(*v));
}

/**
 * sim_json_get() - a member of an object
 * @obj: the object (or anything else: NULL).
 * @key: the member's name.
 *
 * Return: the first member named @key, or NULL.
 */
const struct sim_jval *sim_json_get(const struct sim_jval *obj,
				    const char *key)
{
	size_t i;

	if (!obj || obj->type != SIM_JOBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->items[i].key, key))
			return &obj->items[i];
	return NULL;
}
