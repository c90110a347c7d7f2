// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - the one line reader of the gputbs tools, and the escaping of
 * what their messages quote.
 *
 * A trace, a workload file, a file it includes, a durations file, a
 * --list file or a recording for "gputbs timeline" may come from anyone.
 * input_open() refuses anything but a regular file (a FIFO, a device, a
 * directory), without blocking on a FIFO; input_line() refuses a NUL byte
 * and a line longer than %INPUT_MAX_LINE bytes as soon as it reads one,
 * so memory stays bounded whatever the file holds; a read error names the
 * file and the reason.  Every message goes through input_vprint() or
 * input_escape(), which write bytes outside printable ASCII as \xNN:
 * nothing a file holds reaches the terminal raw.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

static int __attribute__((format(printf, 4, 5)))
input_fail(struct input *in, unsigned int line, int ret, const char *fmt,
	   ...)
{
	size_t n;
	va_list ap;

	if (line)
		snprintf(in->err, sizeof(in->err), "%s:%u: ", in->path, line);
	else
		snprintf(in->err, sizeof(in->err), "%s: ", in->path);
	n = strlen(in->err);
	va_start(ap, fmt);
	vsnprintf(in->err + n, sizeof(in->err) - n, fmt, ap);
	va_end(ap);
	return ret;
}

/**
 * input_open() - open an input file
 * @in: out: the file, to be released with input_close(), also on error.
 * @path: its name.
 * @flags: %INPUT_STDIN: "-" is standard input (whatever it is).
 *
 * The file is opened with O_NONBLOCK, so that a FIFO never blocks the
 * open, and refused unless it is a regular file.
 *
 * Return: 0; or -errno if it cannot be opened, -EINVAL if it is not a
 * regular file, with "FILE: reason" in &input.err.
 */
int input_open(struct input *in, const char *path, unsigned int flags)
{
	struct stat st;
	int fd, fl;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if ((flags & INPUT_STDIN) && !strcmp(path, "-")) {
		in->f = stdin;
		return 0;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return input_fail(in, 0, -errno, "%s", strerror(errno));
	if (fstat(fd, &st)) {
		fl = errno;
		close(fd);
		return input_fail(in, 0, -fl, "%s", strerror(fl));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return input_fail(in, 0, -EINVAL, "not a regular file");
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && !fcntl(fd, F_SETFL, fl & ~O_NONBLOCK))
		in->f = fdopen(fd, "r");
	if (!in->f) {
		fl = errno;
		close(fd);
		return input_fail(in, 0, -fl, "%s", strerror(fl));
	}
	in->owned = true;
	return 0;
}

/**
 * input_stream() - read lines from a stream the caller opened
 * @in: out: the input; input_close() does not close @f.
 * @f: the stream (a pipe from another program, for example).
 * @path: its name in messages.
 */
void input_stream(struct input *in, FILE *f, const char *path)
{
	memset(in, 0, sizeof(*in));
	in->f = f;
	in->path = path;
}

/**
 * input_line() - read the next line
 * @in: the input.
 *
 * Reading stops at the first NUL byte or at the first byte past
 * %INPUT_MAX_LINE in a line, so that no file, however large (/dev/zero
 * given as standard input, a sparse file), makes memory grow further.
 *
 * Return: 1 with the line in &input.line; 0 at the end of the file;
 * -EINVAL for a NUL byte or an overlong line, -EIO for a read error,
 * -ENOMEM; with "FILE:LINE: reason" or "FILE: read error: reason" in
 * &input.err.
 */
int input_line(struct input *in)
{
	bool got = false;
	size_t len = 0;
	char *p;
	int c;

	if (!in->line) {
		in->line = malloc(256);
		if (!in->line)
			return input_fail(in, in->nr + 1, -ENOMEM,
					  "out of memory");
		in->cap = 256;
	}
	in->line[0] = '\0';
	in->len = 0;
	errno = 0;
	c = getc_unlocked(in->f);
	if (c == EOF)
		goto end;
	in->nr++;
	got = true;
	while (c != EOF && c != '\n') {
		if (!c)
			return input_fail(in, in->nr, -EINVAL,
					  "NUL byte in line");
		if (len == INPUT_MAX_LINE)
			return input_fail(in, in->nr, -EINVAL,
					  "line longer than %d bytes",
					  INPUT_MAX_LINE);
		if (len + 1 == in->cap) {
			size_t cap = 2 * in->cap;

			if (cap > INPUT_MAX_LINE + 1)
				cap = INPUT_MAX_LINE + 1;
			p = realloc(in->line, cap);
			if (!p)
				return input_fail(in, in->nr, -ENOMEM,
						  "out of memory");
			in->line = p;
			in->cap = cap;
		}
		in->line[len++] = c;
		c = getc_unlocked(in->f);
	}
	in->line[len] = '\0';
	in->len = len;
end:
	if (c == EOF && ferror(in->f))
		return input_fail(in, 0, -EIO, "read error: %s",
				  strerror(errno ? errno : EIO));
	return got;
}

/**
 * input_close() - release an input
 * @in: the input, after input_open() or input_stream(), even failed.
 */
void input_close(struct input *in)
{
	if (in->owned && in->f)
		fclose(in->f);
	free(in->line);
	in->f = NULL;
	in->line = NULL;
	in->cap = 0;
}

/**
 * input_escape() - a string with its bytes outside printable ASCII as \xNN
 * @dst: out: the escaped string, always NUL-terminated (if @len).
 * @len: size of @dst; the string is cut before an escape that does not fit.
 * @src: the string.
 *
 * Return: strlen(@dst).
 */
size_t input_escape(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	if (!len)
		return 0;
	for (; *src; src++) {
		unsigned char c = *src;

		if (c >= ' ' && c <= '~') {
			if (n + 1 >= len)
				break;
			dst[n++] = c;
		} else {
			if (n + 4 >= len)
				break;
			snprintf(dst + n, 5, "\\x%02x", c);
			n += 4;
		}
	}
	dst[n] = '\0';
	return n;
}

/**
 * input_vescape() - a message formatted and escaped as input_escape() does
 * @fmt: printf() format of the message.
 * @ap: its arguments.
 *
 * Return: the message, to be freed, or NULL without memory.
 */
char *input_vescape(const char *fmt, va_list ap)
{
	char *msg, *esc;
	size_t len;

	if (vasprintf(&msg, fmt, ap) < 0)
		return NULL;
	len = 4 * strlen(msg) + 1;
	esc = malloc(len);
	if (esc)
		input_escape(esc, len, msg);
	free(msg);
	return esc;
}

/**
 * input_vprint() - print a message, its bytes outside printable ASCII as \xNN
 * @f: the stream.
 * @fmt: printf() format of the message.
 * @ap: its arguments.
 *
 * For every message that may quote what a file or an argument holds.
 */
void input_vprint(FILE *f, const char *fmt, va_list ap)
{
	char *esc = input_vescape(fmt, ap);

	fputs(esc ? esc : "(out of memory)", f);
	free(esc);
}

/**
 * input_print() - input_vprint() with the arguments given here
 * @f: the stream.
 * @fmt: printf() format of the message.
 */
void input_print(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	input_vprint(f, fmt, ap);
	va_end(ap);
}
