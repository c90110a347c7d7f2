/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy_srtf.h - SRTF's sampling and ordering, shared by policy_srtf.c
 * and policy_srtf_adaptive.c (which is SRTF plus a sharing mode).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_POLICY_SRTF_H
#define _GTBS_POLICY_SRTF_H

#include "gtbs.h"

/**
 * enum gtbs_sample_state - where a grid stands in SRTF's sampling
 * @GTBS_SAMPLE_NONE: needs a sample prediction before it may run beside
 *	others (the state of every grid that arrives while grids run).
 * @GTBS_SAMPLE_RUNNING: being sampled on &gtbs_srtf.sample_sm.
 * @GTBS_SAMPLE_KNOWN: has a prediction, or ran without needing one.
 *
 * Owned by policy_srtf.c (paper Section "Shortest Remaining Time First")::
 *
 *   NONE --first SM with room--> RUNNING --first block end there--> KNOWN
 *     |                                                               ^
 *     +------- no KNOWN grid has blocks to issue (runs at once) ------+
 */
enum gtbs_sample_state {
	GTBS_SAMPLE_NONE,
	GTBS_SAMPLE_RUNNING,
	GTBS_SAMPLE_KNOWN,
};

/**
 * struct gtbs_srtf - SRTF's device state (&gtbs_dev.policy_priv)
 * @sampling: the grid being sampled, or NULL.
 * @sample_sm: the SM sampling it.
 * @preempt_ratio_pct: parameter ``preempt_ratio_pct``: a grid preempts a
 *	running block of its class only if the victim's predicted remaining
 *	time is at least this percentage of its own (gtbs_srtf_may_preempt()),
 *	100..100000, default %GTBS_SRTF_PREEMPT_RATIO_PCT.
 * @preempt_unknown: parameter ``preempt_unknown``, &enum
 *	gtbs_srtf_preempt_unknown: whether grids without a prediction take
 *	part in preemption.
 * @single_kernel: parameter ``single_kernel``, &enum gtbs_single_kernel:
 *	whether a grid in its tail holds back the grids behind it
 *	(gtbs_srtf_held()).
 *
 * @none: per &enum gtbs_prio_class, the grids in %GTBS_SAMPLE_NONE, in
 *	arrival order (&gtbs_srtf_grid.node): the next grid to sample is the
 *	first eligible one of the class that may issue.
 * @unsampled: the grids on &gtbs_dev.pending that are %GTBS_SAMPLE_KNOWN
 *	without a sample (&gtbs_srtf_grid.unsampled): on an SM where they
 *	have no prediction of their own their key moves with time, so a pick
 *	reads them one by one.
 * @init: the known grids on &gtbs_dev.pending with an initial prediction
 *	(&gtbs_srtf_grid.init_remaining), ordered by class (highest first),
 *	that prediction, then arrival (&gtbs_srtf_grid.init_node): their key
 *	on every SM where they have no prediction of their own, one entry
 *	for the device instead of one per SM.
 * @tail: the grids of every class in their *tail*: every block issued,
 *	none saved, not ended (&gtbs_srtf_grid.node, &gtbs_srtf_grid.listed
 *	%GTBS_SRTF_TAIL); kept only under %GTBS_SINGLE_EXCLUSIVE.
 *
 * SRTF/Adaptive's state begins with it.  Protected by the device lock.
 */
struct gtbs_srtf {
	struct gtbs_grid *sampling;
	u32 sample_sm;
	u64 preempt_ratio_pct;
	u64 preempt_unknown;
	u64 single_kernel;
	struct list_head none[GTBS_NR_PRIO_CLASSES];
	struct list_head unsampled;
	struct rb_root_cached init;
	struct list_head tail;
};

/**
 * enum gtbs_single_kernel - SRTF's two readings of "when not sampling,
 * only a single kernel executes on the GPU" (paper Section "SRTF";
 * policy_srtf.c, DOC "Exclusive")
 * @GTBS_SINGLE_CONSERVING: ``work-conserving``, gputbs' first reading:
 *	an SM issues from the next grid as soon as the shortest has no block
 *	left to issue, so the next grid's first wave runs beside the
 *	shortest's last.
 * @GTBS_SINGLE_EXCLUSIVE: ``exclusive``, the paper's first sentence as
 *	written: a grid in its tail (every block issued, blocks still
 *	resident) holds back every grid behind it in SRTF's order on every
 *	SM until its last block ends, as the serial SJF does; a grid ahead
 *	of it (a shorter one that arrived and was sampled) is not held.
 * @GTBS_SINGLE_SM: ``sm-exclusive``, the default, the paper's "does not
 *	share resources" read per SM: a grid in its tail holds back the grids
 *	behind it only on the SMs where blocks of it still run, so no SM runs
 *	two grids outside sampling but an SM the tail has left issues the
 *	next grid at once.
 * @GTBS_NR_SINGLE_KERNEL: number of readings.
 */
enum gtbs_single_kernel {
	GTBS_SINGLE_CONSERVING,
	GTBS_SINGLE_EXCLUSIVE,
	GTBS_SINGLE_SM,
	GTBS_NR_SINGLE_KERNEL,
};

extern const char * const gtbs_single_kernel_names[];

/**
 * GTBS_SINGLE_KERNEL_DEFAULT - the reading SRTF, SRTF/Adaptive and
 * srtf-oracle attach with (Documentation/evaluation.rst, "Only a single
 * kernel": the figures that chose it).
 */
#define GTBS_SINGLE_KERNEL_DEFAULT	GTBS_SINGLE_SM

/**
 * GTBS_SINGLE_KERNEL_PARAM - the &struct gtbs_policy_param ``single_kernel``
 * at byte offset @off of the device's private area, for SRTF,
 * SRTF/Adaptive and srtf-oracle.
 * @off: offsetof() the u64 that holds it.
 */
#define GTBS_SINGLE_KERNEL_PARAM(off) {					\
	.name = "single_kernel",					\
	.unit = "",							\
	.doc = "exclusive: a tail holds the grids behind it (paper); sm-exclusive: on its SMs", \
	.min = 0,							\
	.max = GTBS_NR_SINGLE_KERNEL - 1,				\
	.def = GTBS_SINGLE_KERNEL_DEFAULT,				\
	.names = gtbs_single_kernel_names,				\
	.offset = (off),						\
}

/**
 * enum gtbs_srtf_preempt_unknown - SRTF's preemption of and for grids
 * without a prediction (policy_srtf.c, DOC)
 * @GTBS_SRTF_PREEMPT_PREDICTED: the literal "switch to a shorter grid":
 *	both grids need a prediction on the SM; a grid to be sampled waits
 *	for a free slot as in the paper.
 * @GTBS_SRTF_PREEMPT_SAMPLE: gputbs' default: a grid being sampled (or not
 *	yet started) counts as 0 cycles, a started grid never predicted as
 *	infinitely long, as SRTF's choice counts it.
 * @GTBS_SRTF_NR_PREEMPT_UNKNOWN: number of values.
 */
enum gtbs_srtf_preempt_unknown {
	GTBS_SRTF_PREEMPT_PREDICTED,
	GTBS_SRTF_PREEMPT_SAMPLE,
	GTBS_SRTF_NR_PREEMPT_UNKNOWN,
};

extern const char * const gtbs_srtf_preempt_unknown_names[];

/**
 * GTBS_SRTF_PREEMPT_RATIO_PCT - default of &gtbs_srtf.preempt_ratio_pct:
 * 2x, the band the Simple Slicing predictor's first predictions keep to
 * (Documentation/evaluation.rst, "within 0.5x-2x"), chosen before the
 * evaluation was run with preemption, not fitted to it.
 */
#define GTBS_SRTF_PREEMPT_RATIO_PCT	200

/**
 * GTBS_SRTF_PREEMPT_PARAM - the &struct gtbs_policy_param of
 * &gtbs_srtf.preempt_ratio_pct, for SRTF and SRTF/Adaptive (whose state
 * begins with &struct gtbs_srtf).
 */
#define GTBS_SRTF_PREEMPT_PARAM {					\
	.name = "preempt_ratio_pct",					\
	.unit = "%",							\
	.doc = "preempt a running grid of the class predicted at least this % as long (gputbs)", \
	.min = 100,							\
	.max = 100000,							\
	.def = GTBS_SRTF_PREEMPT_RATIO_PCT,				\
	.offset = offsetof(struct gtbs_srtf, preempt_ratio_pct),	\
}

/**
 * GTBS_SRTF_UNKNOWN_PARAM - the &struct gtbs_policy_param of
 * &gtbs_srtf.preempt_unknown, for SRTF and SRTF/Adaptive.
 */
#define GTBS_SRTF_UNKNOWN_PARAM {					\
	.name = "preempt_unknown",					\
	.unit = "",							\
	.doc = "predicted: only predicted grids take part; sample: samples too", \
	.min = 0,							\
	.max = GTBS_SRTF_NR_PREEMPT_UNKNOWN - 1,			\
	.def = GTBS_SRTF_PREEMPT_SAMPLE,				\
	.names = gtbs_srtf_preempt_unknown_names,			\
	.offset = offsetof(struct gtbs_srtf, preempt_unknown),	\
}

/**
 * struct gtbs_srtf_grid - SRTF's state of a grid (&gtbs_grid.policy_priv)
 * @sample: &enum gtbs_sample_state; zero (%GTBS_SAMPLE_NONE) for a grid
 *	that arrives.
 * @unsampled: %GTBS_SAMPLE_KNOWN without a sample (it ran at once, or was
 *	running when SRTF was attached): no initial prediction.
 * @listed: where @node is: 0 nowhere, %GTBS_SRTF_LISTED on
 *	&gtbs_srtf.none or &gtbs_srtf.unsampled, %GTBS_SRTF_TAIL on
 *	&gtbs_srtf.tail (a grid in its tail is never on the others: it is
 *	started and not pending).
 * @init_queued: @init_node is on &gtbs_srtf.init.
 * @node: link there.
 * @init_remaining: 0, or 1 + the sample prediction of the grid's
 *	remaining runtime, cycles: its initial prediction on every SM until
 *	that SM makes its own (&gtbs_pred_sm.predicted), the same on all.
 * @init_node: link in &gtbs_srtf.init.
 *
 * Protected by the device lock.
 */
struct gtbs_srtf_grid {
	u32 sample;
	u32 unsampled;
	u32 listed;
	u32 init_queued;
	struct list_head node;
	u64 init_remaining;
	struct rb_node init_node;
};

/* Values of &gtbs_srtf_grid.listed. */
#define GTBS_SRTF_LISTED	1
#define GTBS_SRTF_TAIL		2

/**
 * struct gtbs_srtf_sm - SRTF's state of an SM (&gtbs_sm.policy_priv)
 * @known: the known grids on &gtbs_dev.pending with a prediction of their
 *	own on this SM, which stands still while they have no block running
 *	on it, ordered by class (highest first), then that time, then arrival
 *	(&gtbs_srtf_grid_sm.node): the shortest is found without reading
 *	every grid.  A grid with a block running on the SM may be there with
 *	an old key, or not at all: a pick reads those live.  Grids without a
 *	prediction here are keyed by their initial one, device-wide
 *	(&gtbs_srtf.init).
 *
 * SRTF/Adaptive's state of an SM begins with it.  Protected by the device
 * lock.
 */
struct gtbs_srtf_sm {
	struct rb_root_cached known;
};

/**
 * struct gtbs_srtf_grid_sm - SRTF's state of a grid on an SM
 * @node: link in &gtbs_srtf_sm.known while @queued.
 * @grid: the grid (@node's owner).
 * @key: the predicted remaining time it is filed under there, cycles.
 * @queued: on &gtbs_srtf_sm.known.
 *
 * In &gtbs_grid_sm.policy_priv, so only on the SMs where the grid has a
 * pair (it ran there, gtbs_grid_sm()); protected by the device lock.
 */
struct gtbs_srtf_grid_sm {
	struct rb_node node;
	struct gtbs_grid *grid;
	u64 key;
	u32 queued;
};

/**
 * enum gtbs_share_mode - where SRTF/Adaptive decides to share
 * @GTBS_SHARE_DEVICE: once for the device, from the grids' total
 *	predicted runtimes, as the paper's Section "SRTF/Adaptive" states it;
 *	every SM follows (policy_srtf_adaptive.c).
 * @GTBS_SHARE_SM: each SM for itself, from its own predictions.
 * @GTBS_NR_SHARE_MODES: number of modes.
 */
enum gtbs_share_mode {
	GTBS_SHARE_DEVICE,
	GTBS_SHARE_SM,
	GTBS_NR_SHARE_MODES,
};

/** GTBS_SHARE_MODE_DEFAULT - SRTF/Adaptive's share_mode when attached */
#define GTBS_SHARE_MODE_DEFAULT	GTBS_SHARE_DEVICE

/**
 * struct gtbs_adaptive - SRTF/Adaptive's device state
 * @srtf: SRTF's, first (gtbs_srtf_choose() reads it).
 * @threshold: parameter share_threshold_ppm: largest fair difference
 *	between the largest and the smallest estimated slowdown, ppm of 1.0
 *	(%GTBS_FP_ONE = 1.0; default 0.5, the paper's).
 * @residency: parameter share_residency: residency limit of the fastest
 *	grid in sharing mode, blocks per SM, >= 1 (default 3, the paper's).
 * @share_mode: parameter share_mode, &enum gtbs_share_mode.
 * @a: device mode, while sharing: the fastest grid A, whose residency is
 *	limited; NULL when not sharing.
 * @b: its co-runner B.
 * @t1: A's exclusive total runtime T1 when sharing began, cycles.
 * @t2: B's, T2, cycles.
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct gtbs_adaptive {
	struct gtbs_srtf srtf;
	u64 threshold;
	u64 residency;
	u64 share_mode;
	struct gtbs_grid *a;
	struct gtbs_grid *b;
	u64 t1;
	u64 t2;
};

/**
 * struct gtbs_adaptive_sm - SRTF/Adaptive's state of an SM
 * @srtf: SRTF's, first.
 * @sharing: the SM is in sharing mode.
 *
 * In &gtbs_sm.policy_priv; protected by the device lock.
 */
struct gtbs_adaptive_sm {
	struct gtbs_srtf_sm srtf;
	bool sharing;
};

/**
 * struct gtbs_srtf_choice - what SRTF sees when an SM may issue a block
 * @sampled: non-NULL when sampling decides: the SM issues from this grid
 *	(it samples it, or the grid runs unsampled because nothing known may
 *	issue); @first and @second are then not computed.
 * @sampling: @sampled is sampled on this SM (not merely unsampled).
 * @first: the known grid with the shortest predicted remaining time on the
 *	SM, among those that may issue, or NULL.
 * @second: the next shortest, or NULL.
 * @first_key: @first's predicted remaining time on the SM, cycles.
 * @second_key: @second's, cycles.
 */
struct gtbs_srtf_choice {
	struct gtbs_grid *sampled;
	bool sampling;
	struct gtbs_grid *first;
	struct gtbs_grid *second;
	u64 first_key;
	u64 second_key;
};

/**
 * struct gtbs_adaptive_total - SRTF/Adaptive's device reading of one grid
 * @total: its total predicted runtime: the largest Pred_Cycles (Equation
 *	2) over the SMs that predicted it, cycles.
 * @t: t, block duration, on that SM, cycles.
 * @n: Total_Blocks on that SM, blocks.
 */
struct gtbs_adaptive_total {
	u64 total;
	u64 t;
	u64 n;
};

bool gtbs_adaptive_dev_unfair(const struct gtbs_dev *dev,
			      const struct gtbs_grid *a,
			      const struct gtbs_grid *b, u64 t1, u64 t2,
			      bool sharing, u64 ts1,
			      const struct gtbs_adaptive_total *eb);
void gtbs_srtf_choose(struct gtbs_dev *dev, struct gtbs_sm *sm,
		      struct gtbs_srtf_choice *c);
void gtbs_srtf_predict(struct gtbs_dev *dev, struct gtbs_sm *sm,
		       struct gtbs_grid *grid);
void gtbs_srtf_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid);
void gtbs_srtf_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid);
void gtbs_srtf_grid_update(struct gtbs_dev *dev, struct gtbs_sm *sm,
			   struct gtbs_grid *grid);
extern bool gtbs_srtf_scan_ref;
void gtbs_srtf_attach(struct gtbs_dev *dev);
bool gtbs_srtf_held(struct gtbs_dev *dev, const struct gtbs_sm *sm,
		    const struct gtbs_grid *grid);
bool gtbs_grid_in_tail(const struct gtbs_grid *grid);
bool gtbs_srtf_may_preempt(const struct gtbs_dev *dev,
			   const struct gtbs_sm *sm,
			   const struct gtbs_grid *grid,
			   const struct gtbs_grid *victim);
const char *gtbs_srtf_grid_state(const struct gtbs_dev *dev,
				 const struct gtbs_grid *grid);
const char *gtbs_share_mode_name(u32 mode);

#endif /* _GTBS_POLICY_SRTF_H */
