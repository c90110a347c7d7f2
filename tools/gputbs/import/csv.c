// SPDX-License-Identifier: GPL-2.0
/*
 * csv.c - the CSV reader of "gputbs import", on libcsv (libcsv-dev): the
 * nsys and ncu reports split into rows of fields, RFC 4180, with the
 * physical line each row starts on.
 *
 * The report is read a line at a time with the tools' line reader
 * (input.c: no NUL byte, no line longer than 64 KiB) and each line, with
 * its newline, is fed to libcsv in strict mode: a quote inside an
 * unquoted field and text after a closing quote are errors.  A record
 * ends only at a line feed outside quotes, so rows end on line ends and
 * the line numbers stay those of the file; a quoted field may hold
 * commas, "" (one quote), and line breaks, so a row may span lines.  A
 * carriage return is libcsv's "space": dropped at the end of an unquoted
 * field or after a closing quote (CRLF files), kept inside fields.  Spaces
 * and tabs are data.
 *
 * Until the caller takes a row as the header, each line is a row of its
 * own: a line that does not parse, or whose quote does not close on it,
 * is not the header and is skipped (notices before the header).  Blank
 * lines (only spaces, tabs and carriage returns) are skipped everywhere
 * outside a quoted field, and so are the lines the caller's skip function
 * names.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "import.h"

#define CSV_MAX_ROW	(1U << 20)	/* bytes of a row over several lines */

/**
 * struct csv_rd - a report being read
 * @p: the parser.
 * @in: the report.
 * @max: fields a row may have.
 * @row: the caller's row function.
 * @ctx: its argument.
 * @buf: the current row's fields, NUL-separated.
 * @len: bytes used in @buf.
 * @cap: bytes allocated.
 * @off: the offset of each field in @buf.
 * @field: the fields (pointers into @buf), for @row.
 * @n: fields of the current row.
 * @too_many: the current row has more than @max fields.
 * @strict: the header was taken.
 * @in_row: a row has started and not ended.
 * @row_line: the line it started on.
 * @row_bytes: bytes of it fed so far.
 * @ret: the first non-zero status of @row or of the reader.
 */
struct csv_rd {
	struct csv_parser p;
	struct input *in;
	unsigned int max;
	csv_row_fn row;
	void *ctx;
	char *buf;
	size_t len, cap;
	size_t *off;
	char **field;
	unsigned int n;
	bool too_many;
	bool strict;
	bool in_row;
	unsigned int row_line;
	size_t row_bytes;
	int ret;
};

/* libcsv's space: only a carriage return (spaces and tabs are data). */
static int csv_is_cr(unsigned char c)
{
	return c == '\r';
}

/* libcsv's record end: only a line feed. */
static int csv_is_lf(unsigned char c)
{
	return c == '\n';
}

static int csv_start(struct csv_rd *r)
{
	if (csv_init(&r->p, CSV_STRICT))
		return -ENOMEM;
	csv_set_space_func(&r->p, csv_is_cr);
	csv_set_term_func(&r->p, csv_is_lf);
	return 0;
}

/* Forget the current row and the parser's state. */
static int csv_restart(struct csv_rd *r)
{
	csv_free(&r->p);
	r->n = 0;
	r->len = 0;
	r->too_many = false;
	r->in_row = false;
	return csv_start(r);
}

/* libcsv's field callback: append the field to the row. */
static void csv_field(void *s, size_t len, void *data)
{
	struct csv_rd *r = data;

	if (r->ret)
		return;
	if (r->n == r->max) {
		r->too_many = true;
		return;
	}
	if (r->len + len + 1 > r->cap) {
		size_t cap = r->cap ? r->cap : 256;
		char *p;

		while (cap < r->len + len + 1)
			cap *= 2;
		p = realloc(r->buf, cap);
		if (!p) {
			err_msg("%s", "out of memory");
			r->ret = EXIT_DEVICE;
			return;
		}
		r->buf = p;
		r->cap = cap;
	}
	if (len)
		memcpy(r->buf + r->len, s, len);
	r->buf[r->len + len] = '\0';
	r->off[r->n++] = r->len;
	r->len += len + 1;
}

/* A row of one field of spaces and tabs is a blank line. */
static bool csv_blank_row(const struct csv_rd *r)
{
	return r->n == 1 && strspn(r->buf, " \t") == r->len - 1;
}

/* libcsv's record callback: hand the row over. */
static void csv_record(int c, void *data)
{
	struct csv_rd *r = data;
	unsigned int i, saved = r->in->nr;
	struct csv_row row = { r->field, r->n, r->row_line };
	int ret;

	(void)c;
	r->in_row = false;
	if (r->ret)
		return;
	if (r->too_many) {
		if (r->strict) {
			r->in->nr = r->row_line;
			r->ret = in_fail(r->in, "%s", "too many fields");
			r->in->nr = saved;
		}
		goto out;
	}
	if (csv_blank_row(r))
		goto out;
	for (i = 0; i < r->n; i++)
		r->field[i] = r->buf + r->off[i];
	r->in->nr = r->row_line;
	ret = r->row(r->ctx, &row);
	r->in->nr = saved;
	if (ret == CSV_HEADER)
		r->strict = true;
	else if (ret)
		r->ret = ret;
out:
	r->n = 0;
	r->len = 0;
	r->too_many = false;
}

/* Why libcsv stopped at byte @c of a line. */
static const char *csv_why(char c)
{
	return c == '"' ? "quote inside an unquoted field" :
			  "text after a closing quote";
}

/* Feed one line and its newline to the parser. */
static int csv_feed(struct csv_rd *r)
{
	const char *line = r->in->line;
	size_t len = r->in->len, done;

	if (!r->in_row) {
		if (strspn(line, "\r") == len)
			return 0;	/* blank: libcsv skips it too */
		r->in_row = true;
		r->row_line = r->in->nr;
		r->row_bytes = 0;
	}
	r->row_bytes += len + 1;
	if (r->row_bytes > CSV_MAX_ROW && r->strict) {
		r->in->nr = r->row_line;
		return in_fail(r->in, "row longer than %u bytes", CSV_MAX_ROW);
	}
	done = csv_parse(&r->p, line, len, csv_field, csv_record, r);
	if (done == len && !r->ret)
		csv_parse(&r->p, "\n", 1, csv_field, csv_record, r);
	if (r->ret)
		return r->ret;
	if (csv_error(&r->p) == CSV_ENOMEM)
		return -ENOMEM;
	if (done < len) {
		if (r->strict)
			return in_fail(r->in, "%s", csv_why(line[done]));
		return csv_restart(r) ? -ENOMEM : 0;
	}
	/* before the header, a row is one line */
	if (r->in_row && !r->strict)
		return csv_restart(r) ? -ENOMEM : 0;
	return 0;
}

/**
 * csv_read() - read a CSV report row by row
 * @in: the report, open.
 * @max_fields: the most fields a row may have: past it, a row before
 *	the header is skipped and one after it is an error.
 * @row: called for each row.
 * @skip: NULL, or a function naming lines to skip between rows.
 * @ctx: for @row.
 *
 * Errors after the header, "FILE:LINE: reason" with status %EXIT_USAGE:
 * "too many fields", "row longer than 1048576 bytes" and "unterminated
 * quoted field" (at the end of the file) at the row's first line, "quote
 * inside an unquoted field" and "text after a closing quote" at the line
 * of the offending character.
 *
 * Return: 0, or an exit status after a message.
 */
int csv_read(struct input *in, unsigned int max_fields, csv_row_fn row,
	     csv_skip_fn skip, void *ctx)
{
	struct csv_rd r = {
		.in = in, .max = max_fields, .row = row, .ctx = ctx,
	};
	int ret = 0;

	r.off = calloc(max_fields, sizeof(*r.off));
	r.field = calloc(max_fields, sizeof(*r.field));
	if (!r.off || !r.field || csv_start(&r)) {
		free(r.off);
		free(r.field);
		err_msg("%s", "out of memory");
		return EXIT_DEVICE;
	}
	while ((ret = input_line(in)) > 0) {
		if (!r.in_row && skip && skip(in->line))
			continue;
		ret = csv_feed(&r);
		if (ret == -ENOMEM) {
			err_msg("%s", "out of memory");
			ret = EXIT_DEVICE;
		}
		if (ret)
			break;
	}
	if (ret < 0) {
		err_msg("%s", in->err);
		ret = ret == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
	} else if (!ret && r.in_row) {
		in->nr = r.row_line;
		ret = in_fail(in, "%s", "unterminated quoted field");
	}
	csv_free(&r.p);
	free(r.buf);
	free(r.off);
	free(r.field);
	return ret;
}
