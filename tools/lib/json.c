// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the gputbs tools' JSON output, through json-c.
 *
 * The callers write members in order; each becomes a json-c value added
 * to the object or array open at the time (json-c keeps members in the
 * order they were added), and json_end() prints the whole tree with
 * json_object_to_json_string_ext(): pretty-printed, two spaces per level,
 * "key": value, '/' not escaped.  Numbers whose text is ours, the
 * six-decimal fixed point and %.6f doubles, are json-c doubles carrying
 * that text (json_object_new_double_s()), so that the digits printed are
 * exactly the ones computed; non-finite doubles are null.
 *
 * Where json-c's printing differs from what the tools printed before:
 * an empty array or object prints as "[]" or "{}" (json-c's pretty
 * printer puts a newline and indentation between the brackets), through
 * json-c's own serializer hook; strings are escaped by json-c (\b \f \r
 * \t as such, not as \u00XX, and DEL unescaped).  A member written twice
 * in one object would be printed once (json-c keeps the last value, in
 * the first one's place); no caller does that.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include <json-c/json.h>

#include "gtbs.h"
#include "json.h"

#define JSON_FLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
			 JSON_C_TO_STRING_NOSLASHESCAPE)

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->flags = JSON_FLAGS;
	j->depth = 0;
	j->root = NULL;
	j->oom = 0;
}

/* One line, no spaces: {"key":value,...} */
void json_init_line(struct json *j, FILE *f)
{
	json_init(j, f);
	j->flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;
}

/*
 * Add @v under @key to what is open (or make it the outermost value).
 * Takes @v's reference.  A NULL @v is json-c's null, except where a
 * constructor failed (@made false).
 */
static void json_add(struct json *j, const char *key, struct json_object *v,
		     int made)
{
	struct json_object *parent;

	if (!made)
		j->oom = 1;
	if (!j->depth) {
		json_object_put(j->root);
		j->root = v;
		return;
	}
	parent = j->open[j->depth - 1];
	if (json_object_is_type(parent, json_type_array)) {
		if (json_object_array_add(parent, v))
			goto fail;
	} else if (json_object_object_add(parent, key ? key : "", v)) {
		goto fail;
	}
	return;
fail:
	json_object_put(v);
	j->oom = 1;
}

void json_open(struct json *j, const char *key, char bracket)
{
	struct json_object *c = bracket == '[' ? json_object_new_array() :
				json_object_new_object();

	json_add(j, key, c, c != NULL);
	if (j->depth < JSON_MAX_DEPTH)
		j->open[j->depth++] = c;
	else
		j->oom = 1;
}

void json_close(struct json *j, char bracket)
{
	struct json_object *c;
	size_t n;

	(void)bracket;	/* the container knows what it is */
	if (!j->depth)
		return;
	c = j->open[--j->depth];
	if (!c)
		return;
	n = json_object_is_type(c, json_type_array) ?
	    json_object_array_length(c) :
	    (size_t)json_object_object_length(c);
	/* "[]" and "{}" as before, where json-c would print "[\n  ]" */
	if (!n)
		json_object_set_serializer(c, json_object_userdata_to_json_string,
					   json_object_is_type(c, json_type_array) ?
					   "[]" : "{}", NULL);
}

void json_str(struct json *j, const char *key, const char *val)
{
	struct json_object *v = json_object_new_string(val);

	json_add(j, key, v, v != NULL);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	struct json_object *v = json_object_new_uint64(val);

	json_add(j, key, v, v != NULL);
}

void json_s64(struct json *j, const char *key, int64_t val)
{
	struct json_object *v = json_object_new_int64(val);

	json_add(j, key, v, v != NULL);
}

/* A number printed as @text (json-c keeps it for the output). */
static void json_number_text(struct json *j, const char *key, double val,
			     const char *text)
{
	struct json_object *v = json_object_new_double_s(val, text);

	json_add(j, key, v, v != NULL);
}

/* A GTBS_FP_ONE fixed-point value, exactly, as a decimal number. */
void json_fp(struct json *j, const char *key, uint64_t fp)
{
	char text[48];

	snprintf(text, sizeof(text), "%" PRIu64 ".%06" PRIu64,
		 (uint64_t)(fp / GTBS_FP_ONE), (uint64_t)(fp % GTBS_FP_ONE));
	json_number_text(j, key, (double)fp / GTBS_FP_ONE, text);
}

void json_double(struct json *j, const char *key, double val)
{
	char text[512];

	if (!isfinite(val)) {
		json_add(j, key, NULL, 1);
		return;
	}
	snprintf(text, sizeof(text), "%.6f", val);
	json_number_text(j, key, val, text);
}

void json_boolean(struct json *j, const char *key, int val)
{
	struct json_object *v = json_object_new_boolean(val);

	json_add(j, key, v, v != NULL);
}

/**
 * json_end() - print the value written and release it
 * @j: the writer; it can write another value then.
 *
 * Return: 0, or -ENOMEM (nothing printed; said on stderr): an allocation
 * failed, or objects and arrays were nested deeper than %JSON_MAX_DEPTH.
 */
int json_end(struct json *j)
{
	const char *s = NULL;
	size_t len = 0;

	if (!j->oom)
		s = json_object_to_json_string_length(j->root, j->flags, &len);
	if (s) {
		fwrite(s, 1, len, j->f);
		fputc('\n', j->f);
	} else {
		fputs("json: out of memory (or nested too deep)\n", stderr);
	}
	json_object_put(j->root);
	j->root = NULL;
	j->depth = 0;
	j->oom = 0;
	return s ? 0 : -ENOMEM;
}
