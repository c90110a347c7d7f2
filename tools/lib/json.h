/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a minimal streaming JSON writer for the gputbs CLI.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_JSON_H
#define _GPUTBS_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	16

/**
 * struct json - writer state
 * @f: output.
 * @depth: open objects and arrays.
 * @count: members written at each depth, for commas.
 */
struct json {
	FILE *f;
	int depth;
	unsigned int count[JSON_MAX_DEPTH];
};

/*
 * @key is the member name inside an object and must be NULL inside an
 * array (and for the outermost value).
 */
void json_init(struct json *j, FILE *f);
void json_open(struct json *j, const char *key, char bracket);
void json_close(struct json *j, char bracket);
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_s64(struct json *j, const char *key, int64_t val);
void json_fp(struct json *j, const char *key, uint64_t fp);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, int val);
void json_end(struct json *j);

#define json_obj(j, key)	json_open(j, key, '{')
#define json_obj_end(j)		json_close(j, '}')
#define json_arr(j, key)	json_open(j, key, '[')
#define json_arr_end(j)		json_close(j, ']')

#endif /* _GPUTBS_JSON_H */
