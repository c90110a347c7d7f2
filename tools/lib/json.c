// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - a minimal streaming JSON writer for the gputbs CLI.
 *
 * Output is pretty-printed, two spaces per level.  Strings are escaped per
 * RFC 8259; non-finite doubles are written as null.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <inttypes.h>
#include <math.h>

#include "gtbs.h"
#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
}

static void json_string(struct json *j, const char *s)
{
	fputc('"', j->f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(j->f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", j->f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(j->f, "\\u%04x", c);
		else
			fputc(c, j->f);
	}
	fputc('"', j->f);
}

/* Comma, newline, indentation and key of the next value. */
static void json_key(struct json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (j->depth)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	if (key) {
		json_string(j, key);
		fputs(": ", j->f);
	}
}

void json_open(struct json *j, const char *key, char bracket)
{
	json_key(j, key);
	fputc(bracket, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->count[++j->depth] = 0;
}

void json_close(struct json *j, char bracket)
{
	int had = j->count[j->depth] != 0;

	if (j->depth)
		j->depth--;
	if (had)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(bracket, j->f);
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_key(j, key);
	json_string(j, val);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	json_key(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void json_s64(struct json *j, const char *key, int64_t val)
{
	json_key(j, key);
	fprintf(j->f, "%" PRId64, val);
}

/* A GTBS_FP_ONE fixed-point value, exactly, as a decimal number. */
void json_fp(struct json *j, const char *key, uint64_t fp)
{
	json_key(j, key);
	fprintf(j->f, "%" PRIu64 ".%06" PRIu64, (uint64_t)(fp / GTBS_FP_ONE),
		(uint64_t)(fp % GTBS_FP_ONE));
}

void json_double(struct json *j, const char *key, double val)
{
	json_key(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.6f", val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, int val)
{
	json_key(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}
