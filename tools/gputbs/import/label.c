// SPDX-License-Identifier: GPL-2.0
/*
 * label.c - the grid labels of "gputbs import": short, meaningful and
 * distinct per kernel name (Documentation/workloads.rst, "Importing a
 * profile").
 *
 * A label is the kernel's function name: its demangled name without the
 * return type "void ", without "(anonymous namespace)::", template
 * arguments and parameters, other characters than [A-Za-z0-9_:.-] as
 * '_'.  Longer than 31 characters, its leading namespaces are dropped one
 * at a time ("at::native::vectorized_elementwise_kernel" becomes
 * "vectorized_elementwise_kernel"), then it is cut to 31.  Kernels of
 * distinct names (template arguments and parameters included) that come
 * to the same label are numbered in start order: the first keeps it, the
 * next take "-2", "-3", ... (the label cut to make room), skipping any
 * label already taken.  Kernels of the same name share their label.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "import.h"

#define LABEL_MAX	(GPUTBS_LABEL_LEN - 1)	/* characters of a label */
#define BASE_MAX	1024			/* of a function name kept */

static const char anon[] = "(anonymous namespace)::";

/* The function name of @name, as the label's characters, in @buf. */
static size_t label_function(const char *name, char *buf)
{
	size_t n = 0;

	if (!strncmp(name, "void ", 5))
		name += 5;
	while (*name && n < BASE_MAX) {
		char c = *name;

		if (!strncmp(name, anon, sizeof(anon) - 1)) {
			name += sizeof(anon) - 1;
			continue;
		}
		if (c == '<' || c == '(')
			break;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_:.-", c)))
			c = '_';
		buf[n++] = c;
		name++;
	}
	if (!n)
		buf[n++] = 'k';
	buf[n] = '\0';
	return n;
}

/* The label of @name: its function name, namespaces dropped, cut. */
static void label_base(const char *name, char *label)
{
	char buf[BASE_MAX + 1];
	const char *s = buf, *ns;
	size_t n = label_function(name, buf);

	while (n > LABEL_MAX && (ns = strstr(s, "::")) && ns[2]) {
		n -= ns + 2 - s;
		s = ns + 2;
	}
	if (n > LABEL_MAX)
		n = LABEL_MAX;
	memcpy(label, s, n);
	label[n] = '\0';
}

/* A string hash (FNV-1a). */
static unsigned int label_hash(const char *s)
{
	unsigned int h = 2166136261U;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619U;
	return h;
}

/**
 * struct label_set - the labels taken, an open-addressing hash set
 * @slot: per bucket, a label's index + 1, or 0.
 * @mask: buckets - 1.
 * @labels: the labels.
 */
struct label_set {
	unsigned int *slot;
	unsigned int mask;
	char (*labels)[GPUTBS_LABEL_LEN];
};

/* Whether @label is taken; else, with @add, take it as label @idx. */
static bool label_taken(struct label_set *set, const char *label,
			unsigned int idx, bool add)
{
	unsigned int b = label_hash(label) & set->mask;

	for (; set->slot[b]; b = (b + 1) & set->mask)
		if (!strcmp(set->labels[set->slot[b] - 1], label))
			return true;
	if (add) {
		memcpy(set->labels[idx], label, GPUTBS_LABEL_LEN);
		set->slot[b] = idx + 1;
	}
	return false;
}

/* A free label for @name: its base, else the base numbered from 2. */
static void label_new(struct label_set *set, const char *name,
		      unsigned int idx)
{
	char base[GPUTBS_LABEL_LEN], label[GPUTBS_LABEL_LEN], suffix[16];
	unsigned int nr;
	size_t n;

	label_base(name, base);
	memset(label, 0, sizeof(label));
	strcpy(label, base);
	for (nr = 2; label_taken(set, label, idx, false); nr++) {
		snprintf(suffix, sizeof(suffix), "-%u", nr);
		n = strlen(base);
		if (n > LABEL_MAX - strlen(suffix))
			n = LABEL_MAX - strlen(suffix);
		memset(label, 0, sizeof(label));
		memcpy(label, base, n);
		strcpy(label + n, suffix);
	}
	label_taken(set, label, idx, true);
}

static const struct imp_kernel *label_kernels;

/* Kernel indices by name, then index: qsort() comparison. */
static int label_by_name(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	int c = strcmp(label_kernels[x].name, label_kernels[y].name);

	return c ? c : (x > y) - (x < y);
}

/**
 * imp_labels() - every kernel's label
 * @im: the import, its kernels in start order.
 *
 * Sets each &imp_kernel.label into @im->labels, one per distinct name.
 *
 * Return: 0, or %EXIT_DEVICE without memory.
 */
int imp_labels(struct imp *im)
{
	unsigned int n = im->nr_kernels, i, j, d = 0, buckets = 2;
	unsigned int *ord = calloc(n, sizeof(*ord));
	unsigned int *first = calloc(n, sizeof(*first));
	struct label_set set = { 0 };
	int ret = EXIT_DEVICE;

	if (!n) {
		ret = 0;
		goto out;
	}
	if (!ord || !first)
		goto out;
	for (i = 0; i < n; i++)
		ord[i] = i;
	label_kernels = im->kernels;
	qsort(ord, n, sizeof(*ord), label_by_name);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(im->kernels[ord[j]].name,
					     im->kernels[ord[i]].name); j++)
			first[ord[j]] = ord[i];
		d++;
	}
	while (buckets < 2 * d)
		buckets *= 2;
	set.slot = calloc(buckets, sizeof(*set.slot));
	set.mask = buckets - 1;
	set.labels = calloc(d, sizeof(*set.labels));
	if (!set.slot || !set.labels)
		goto out;
	for (i = 0, d = 0; i < n; i++) {
		if (first[i] == i) {
			label_new(&set, im->kernels[i].name, d);
			ord[i] = d++;	/* now: the label of kernel i */
		}
		im->kernels[i].label = set.labels[ord[first[i]]];
	}
	im->labels = set.labels;
	set.labels = NULL;
	ret = 0;
out:
	if (ret)
		err_msg("%s", "out of memory");
	free(set.slot);
	free(set.labels);
	free(first);
	free(ord);
	return ret;
}
