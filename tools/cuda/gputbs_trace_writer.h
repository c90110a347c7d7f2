/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_trace_writer.h - per-block records of a real GPU (SM, start and
 * end time) written in the block trace format of gputbs predict
 * (Documentation/trace-format.rst).
 *
 * Plain C (and C++): the host side of gputbs_trace.cuh, kept apart so that
 * it builds and is tested without CUDA (tests/userland/cuda-trace-test.c).
 * Header-only; include it in one or more translation units.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef GPUTBS_TRACE_WRITER_H
#define GPUTBS_TRACE_WRITER_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GTBS_TRACE_MAX_SMS	1024		/* SM numbers of the format */
#define GTBS_TRACE_MAX_SLOTS	64		/* slots per SM */
#define GTBS_TRACE_MAX_BLOCKS	(1U << 24)	/* blocks per grid */
#define GTBS_TRACE_MAX_CYCLES	(1ULL << 40)
#define GTBS_TRACE_LABEL_LEN	32		/* 31 characters and NUL */

/**
 * struct gtbs_trace_rec - what one thread block recorded on the GPU
 * @smid: the SM it ran on (%smid).
 * @flags: 0; reserved (keeps the layout 8-byte aligned on both sides).
 * @start: %globaltimer when its first thread began, ns.
 * @end: %globaltimer when all its threads were done, ns; 0 if the block
 *	never recorded (an error for the writer).
 *
 * The device writes one per block, indexed by the block's linear index in
 * its grid; the host copies the array back and hands it to
 * gtbs_trace_write().
 */
struct gtbs_trace_rec {
	uint32_t smid;
	uint32_t flags;
	uint64_t start;
	uint64_t end;
};

/**
 * struct gtbs_trace_grid - one recorded grid
 * @label: its name in the trace (characters the format does not allow
 *	become '_', cut to 31), or NULL.
 * @blocks: thread blocks, 1..2^24; @recs has this many entries.
 * @residency: its maximum residency R alone (e.g. from
 *	cudaOccupancyMaxActiveBlocksPerMultiprocessor()), 1..64.
 * @recs: the records, by block index.
 */
struct gtbs_trace_grid {
	const char *label;
	uint32_t blocks;
	uint32_t residency;
	const struct gtbs_trace_rec *recs;
};

/**
 * struct gtbs_trace_stats - what gtbs_trace_write() did to fit the format
 * @bumped: blocks whose end, converted, was not after their start (the
 *	timer's granularity): written with END = START + 1.
 * @max_slots: the most slots any SM needed.
 * @t0: the earliest start, ns: cycle 0 of the trace.
 */
struct gtbs_trace_stats {
	unsigned int bumped;
	unsigned int max_slots;
	uint64_t t0;
};

/* One block while slots are assigned. */
struct gtbs_trace_ref {
	uint32_t grid;
	uint32_t block;
	uint64_t start;
	uint64_t end;
	uint32_t sm;
	uint32_t slot;
};

static inline int gtbs_trace_by_sm_start(const void *a, const void *b)
{
	const struct gtbs_trace_ref *x = (const struct gtbs_trace_ref *)a;
	const struct gtbs_trace_ref *y = (const struct gtbs_trace_ref *)b;

	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->grid != y->grid)
		return x->grid < y->grid ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

static inline int gtbs_trace_by_grid(const void *a, const void *b)
{
	const struct gtbs_trace_ref *x = (const struct gtbs_trace_ref *)a;
	const struct gtbs_trace_ref *y = (const struct gtbs_trace_ref *)b;

	if (x->grid != y->grid)
		return x->grid < y->grid ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

/* ns after t0 in trace cycles: ns itself, or at @clock_khz. */
static inline uint64_t gtbs_trace_cycles(uint64_t ns, uint64_t t0,
					 uint64_t clock_khz)
{
	uint64_t d = ns - t0;

	if (!clock_khz)
		return d;
	/* d * kHz / 10^6 without overflow for d below 2^64 / 10^7 */
	return d / 1000000 * clock_khz +
	       (d % 1000000 * clock_khz + 500000) / 1000000;
}

/**
 * gtbs_trace_write() - write recorded grids as a gputbs block trace
 * @f: where to.
 * @grids: the grids, in the order their IDs (0, 1, ...) are given.
 * @nr_grids: entries of @grids, 1..65536.
 * @clock_khz: the SM clock to express times in, kHz, or 0 to write
 *	nanoseconds as cycles (1 cycle = 1 ns).
 * @comment: a line for the trace's header comment (the GPU, the command),
 *	or NULL.
 * @stats: out: what was adjusted, or NULL.
 *
 * Times become cycles after the earliest start of all blocks.  The GPU
 * does not say which of an SM's block slots a block used, so slots are
 * assigned per SM: the blocks of all grids on that SM in order of start,
 * each to the lowest slot whose last block has ended by then (a slot may
 * be refilled at the cycle it frees, as gputbs predict allows).  A block
 * whose converted end is not after its start ends one cycle later.
 *
 * Return: 0; -EINVAL for input the format cannot hold (no grids, a grid
 * of 0 or more than 2^24 blocks, residency outside 1..64, an SM of 1024 or
 * more, a block that did not record or ends before it starts, more than
 * 64 blocks on one SM at once, a time past 2^40 cycles), -ENOMEM, or
 * -EIO if writing @f failed.
 */
static inline int gtbs_trace_write(FILE *f,
				   const struct gtbs_trace_grid *grids,
				   unsigned int nr_grids, uint64_t clock_khz,
				   const char *comment,
				   struct gtbs_trace_stats *stats)
{
	uint64_t slot_end[GTBS_TRACE_MAX_SLOTS];
	struct gtbs_trace_stats st = { 0, 0, UINT64_MAX };
	struct gtbs_trace_ref *r;
	uint64_t n = 0, i, j;
	unsigned int g, s, used = 0;
	int ret = 0;

	if (!nr_grids || nr_grids > 65536)
		return -EINVAL;
	for (g = 0; g < nr_grids; g++) {
		const struct gtbs_trace_grid *gr = &grids[g];

		if (!gr->blocks || gr->blocks > GTBS_TRACE_MAX_BLOCKS ||
		    !gr->residency || gr->residency > GTBS_TRACE_MAX_SLOTS ||
		    !gr->recs)
			return -EINVAL;
		for (i = 0; i < gr->blocks; i++) {
			const struct gtbs_trace_rec *rec = &gr->recs[i];

			if (rec->smid >= GTBS_TRACE_MAX_SMS || !rec->end ||
			    rec->end < rec->start)
				return -EINVAL;
			if (rec->start < st.t0)
				st.t0 = rec->start;
		}
		n += gr->blocks;
	}
	r = (struct gtbs_trace_ref *)calloc(n, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (g = 0, j = 0; g < nr_grids; g++) {
		for (i = 0; i < grids[g].blocks; i++, j++) {
			const struct gtbs_trace_rec *rec = &grids[g].recs[i];

			r[j].grid = g;
			r[j].block = (uint32_t)i;
			r[j].sm = rec->smid;
			r[j].start = gtbs_trace_cycles(rec->start, st.t0,
						       clock_khz);
			r[j].end = gtbs_trace_cycles(rec->end, st.t0,
						     clock_khz);
			if (r[j].end <= r[j].start) {
				r[j].end = r[j].start + 1;
				st.bumped++;
			}
			if (r[j].end > GTBS_TRACE_MAX_CYCLES) {
				ret = -EINVAL;
				goto out;
			}
		}
	}
	/* slots: per SM, by start, the lowest slot free by then */
	qsort(r, n, sizeof(*r), gtbs_trace_by_sm_start);
	for (j = 0; j < n; j++) {
		if (!j || r[j].sm != r[j - 1].sm)
			used = 0;
		for (s = 0; s < used && slot_end[s] > r[j].start; s++)
			;
		if (s == GTBS_TRACE_MAX_SLOTS) {
			ret = -EINVAL;
			goto out;
		}
		if (s == used)
			used++;
		slot_end[s] = r[j].end;
		r[j].slot = s;
		if (used > st.max_slots)
			st.max_slots = used;
	}
	qsort(r, n, sizeof(*r), gtbs_trace_by_grid);
	fprintf(f, "# gputbs block trace, recorded by tools/cuda/gputbs_trace.cuh\n");
	if (comment)
		fprintf(f, "# %s\n", comment);
	fprintf(f, "# times: %s after the earliest start (globaltimer %llu ns)\n",
		clock_khz ? "cycles at the given clock" : "ns",
		(unsigned long long)st.t0);
	if (clock_khz)
		fprintf(f, "# clock: %llu kHz\n", (unsigned long long)clock_khz);
	for (g = 0, j = 0; g < nr_grids; g++) {
		char label[GTBS_TRACE_LABEL_LEN] = "";
		const char *l = grids[g].label ? grids[g].label : "";
		size_t k;

		for (k = 0; l[k] && k < GTBS_TRACE_LABEL_LEN - 1; k++)
			label[k] = l[k] > ' ' && l[k] <= '~' && l[k] != ',' &&
				   l[k] != '"' && l[k] != '\'' &&
				   l[k] != '\\' && l[k] != '#' ? l[k] : '_';
		label[k] = '\0';
		fprintf(f, "grid %u blocks=%u residency=%u%s%s\n", g,
			grids[g].blocks, grids[g].residency,
			label[0] ? " label=" : "", label);
		for (; j < n && r[j].grid == g; j++)
			fprintf(f, "block %u %u %u %llu %llu\n", g, r[j].sm,
				r[j].slot, (unsigned long long)r[j].start,
				(unsigned long long)r[j].end);
	}
	if (fflush(f) || ferror(f))
		ret = -EIO;
	if (stats)
		*stats = st;
out:
	free(r);
	return ret;
}

#endif /* GPUTBS_TRACE_WRITER_H */
