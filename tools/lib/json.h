/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - the gputbs tools' JSON output, through json-c.
 *
 * Callers write members in order, as a stream; json.c builds json-c's
 * tree from them and json_end() prints it: pretty-printed after
 * json_init(), on one line without spaces after json_init_line() (JSON
 * Lines, as "gputbs monitor --format json" prints its events).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_JSON_H
#define _GPUTBS_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	16

struct json_object;

/**
 * struct json - writer state
 * @f: output.
 * @depth: open objects and arrays.
 * @open: the open objects and arrays, outermost first.
 * @root: the outermost value, printed and released by json_end().
 * @oom: an allocation failed; json_end() prints nothing.
 * @flags: json-c's JSON_C_TO_STRING_* for json_end().
 */
struct json {
	FILE *f;
	int flags;
	int depth;
	struct json_object *open[JSON_MAX_DEPTH];
	struct json_object *root;
	int oom;
};

/*
 * @key is the member name inside an object and must be NULL inside an
 * array (and for the outermost value).
 */
void json_init(struct json *j, FILE *f);
void json_init_line(struct json *j, FILE *f);
void json_open(struct json *j, const char *key, char bracket);
void json_close(struct json *j, char bracket);
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_s64(struct json *j, const char *key, int64_t val);
void json_fp(struct json *j, const char *key, uint64_t fp);
void json_double(struct json *j, const char *key, double val);
void json_boolean(struct json *j, const char *key, int val);
int json_end(struct json *j);

#define json_obj(j, key)	json_open(j, key, '{')
#define json_obj_end(j)		json_close(j, '}')
#define json_arr(j, key)	json_open(j, key, '[')
#define json_arr_end(j)		json_close(j, ']')

#endif /* _GPUTBS_JSON_H */
