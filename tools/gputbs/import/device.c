// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the emulated device of "gputbs import" from the profiled
 * GPU's name (nsys's Device column, ncu's device name): a word of the
 * name picks a preset of sm-emu (gtbs_config_preset()).
 * Documentation/workloads.rst, "Importing a profile".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../cli.h"
#include "import.h"

/* A word of the GPU's name, and the preset it picks. */
static const struct {
	const char *word;
	const char *preset;
} imp_gpus[] = {
	{ "GTX 480", "gtx480" },
	{ "V100", "v100" },
	{ "A100", "a100" },
	{ "H100", "h100" },
};

/* Whether @word is in @name, not inside a longer word (A1000, GH100). */
static bool gpu_has_word(const char *name, const char *word)
{
	size_t n = strlen(word);
	const char *s;

	for (s = name; *s; s++) {
		if (strncasecmp(s, word, n))
			continue;
		if ((s == name || !isalnum((unsigned char)s[-1])) &&
		    !isalnum((unsigned char)s[n]))
			return true;
	}
	return false;
}

/**
 * gpu_preset() - the preset of a profiled GPU
 * @name: its name ("NVIDIA H100 80GB HBM3").
 *
 * Return: the preset, or NULL for a GPU without one.
 */
const struct gtbs_dev_preset *gpu_preset(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(imp_gpus); i++)
		if (gpu_has_word(name, imp_gpus[i].word))
			return gtbs_config_preset(imp_gpus[i].preset);
	return NULL;
}

/* "gtx480 (GTX 480), v100 (V100), ...": the presets and their names. */
static void gpu_known(char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(imp_gpus) && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s (%s)", i ? ", " : "",
			      imp_gpus[i].preset, imp_gpus[i].word);
}

/**
 * gpu_note() - a row's GPU name
 * @g: the report's GPU so far.
 * @in: the report, at the row.
 * @field: the row's name field, "" when it has none; a device index in
 *	parentheses at its end, " (0)", is not part of the name.
 * @what: where the name is, for messages ("Device column").
 * @given: --device was given (another GPU is then no error).
 *
 * The first name is the report's; a row naming another GPU is an error
 * unless --device is given.  A name of digits only is a device index
 * (ncu's Device column), not a name, and so is skipped.
 *
 * Return: 0, or an exit status after a message.
 */
int gpu_note(struct imp_gpu *g, const struct input *in, const char *field,
	     const char *what, bool given)
{
	size_t n = strlen(field), d = n;

	if (n && field[n - 1] == ')') {
		for (d = n - 1; d && isdigit((unsigned char)field[d - 1]); d--)
			;
		if (d >= 2 && d < n - 1 && field[d - 1] == '(' &&
		    field[d - 2] == ' ')
			n = d - 2;
	}
	if (strspn(field, "0123456789") >= n)
		return 0;
	if (!g->name) {
		g->name = strndup(field, n);
		if (!g->name) {
			err_msg("%s", "out of memory");
			return EXIT_DEVICE;
		}
		g->line = in->nr;
		g->path = in->path;
		g->what = what;
		return 0;
	}
	if (given || (strlen(g->name) == n && !strncmp(g->name, field, n)))
		return 0;
	return in_fail(in, "GPU \"%.*s\", but line %u has \"%s\": a workload runs on one device; give --device NAME",
		       (int)n, field, g->line, g->name);
}

/**
 * gpu_device() - the emulated device of an import
 * @im: the import: its preset from --device or the default, @im->given.
 * @g: the report's GPU (@g->name NULL if it names none).
 *
 * Without --device, the GPU's preset, and the default when the report
 * names no GPU; with it, that preset, and the GPU's preset if another
 * becomes the hint of a kernel that does not fit (in_fits()).
 *
 * Return: 0, or %EXIT_USAGE after a message (a GPU without a preset).
 */
int gpu_device(struct imp *im, const struct imp_gpu *g)
{
	const struct gtbs_dev_preset *p;
	char known[256];

	if (!g->name)
		return 0;
	im->src = g;
	p = gpu_preset(g->name);
	im->src_preset = p;
	if (im->given) {
		if (p && strcmp(p->name, im->device)) {
			im->hint = p;
			im->hint_gpu = g;
		}
		return 0;
	}
	if (!p) {
		gpu_known(known, sizeof(known));
		err_msg("%s:%u: unknown GPU \"%s\" in the %s; known: %s, or give --device NAME",
			g->path, g->line, g->name, g->what, known);
		return EXIT_USAGE;
	}
	im->cfg = p->cfg;
	im->device = p->name;
	return 0;
}
