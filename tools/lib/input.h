/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.h - the input files of the gputbs tools read safely: traces,
 * workload files, the files they include or name, recordings for
 * "gputbs timeline" (Documentation/reliability.rst, "Hostile input
 * files").
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_INPUT_H
#define _GPUTBS_INPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#define INPUT_MAX_LINE	65536	/* bytes of a line, its newline excluded */
#define INPUT_ERR_LEN	512

/* Flags of input_open(). */
#define INPUT_STDIN	(1U << 0)	/* "-" is standard input */

/**
 * struct input - a text file read line by line
 * @f: the stream.
 * @path: its name in messages.
 * @line: after input_line(): the line, NUL-terminated, without its
 *	newline.
 * @len: strlen(@line).
 * @cap: bytes allocated for @line.
 * @nr: number of @line, from 1.
 * @owned: input_close() closes @f.
 * @err: after an error, "FILE: reason" or "FILE:LINE: reason" (raw: the
 *	printer escapes it).
 */
struct input {
	FILE *f;
	const char *path;
	char *line;
	size_t len;
	size_t cap;
	unsigned int nr;
	bool owned;
	char err[INPUT_ERR_LEN];
};

int input_open(struct input *in, const char *path, unsigned int flags);
void input_stream(struct input *in, FILE *f, const char *path);
int input_line(struct input *in);
void input_close(struct input *in);

size_t input_escape(char *dst, size_t len, const char *src);
char *input_vescape(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
void input_vprint(FILE *f, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void input_print(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _GPUTBS_INPUT_H */
