// SPDX-License-Identifier: GPL-2.0
/*
 * test_conformance.c - policy conformance: what every registered policy
 * must guarantee, whatever order it picks grids in.
 *
 * A policy only chooses which grid an SM issues from next
 * (&gtbs_policy_ops.pick_grid); the engine owns the grids, their blocks
 * and the SMs' resources.  A policy *conforms* when, on any workload, with
 * or without the starvation guard, and while it is switched to and from
 * or grids are cancelled under it:
 *
 *  1. no block is lost or run twice: every block of every completed grid
 *     starts exactly once and ends exactly once, each such grid ends DONE
 *     with blocks_done == nr_blocks;
 *  2. no SM's resources are exceeded (h_check_all() after every single
 *     event and in every backend callback);
 *  3. priority classes are strict: no block starts while a grid of a
 *     higher effective class (gtbs_grid_class()) has a block left to
 *     issue;
 *  4. switching to and from it under load loses nothing, and switching
 *     away to fifo leaves none of its state behind (dev->sampling,
 *     sm->sharing, dev->share_a/share_b, dev->policy_grids);
 *  5. cancelling grids (QUEUED, RUNNING, ARRIVING, or all of a "process"
 *     at once, as a close does) releases their resources at once, lets
 *     the others complete, and no block of a cancelled grid starts after
 *     the cancel.
 *
 * The policies are taken from the registry with gtbs_policy_at(), never
 * from a list here: a policy added to sm-emu/policy.c is tested by this
 * suite without editing it.  Every case is a loop test whose index is
 * (policy, seed[, guard]); the failure message names the policy.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "harness.h"

/* Seeds per policy in each case. */
#define CONF_SEEDS	4
/* Grids per workload; blocks per grid at most. */
#define CONF_GRIDS	20
#define CONF_MAX_BLOCKS	40
/* Scheduled actions (switches, cancels) per run at most. */
#define CONF_ACTIONS	12

enum conf_act_kind {
	CONF_SWITCH,	/* gtbs_dev_set_policy() to @pol */
	CONF_CANCEL,	/* cancel one grid, of state @state if there is one */
	CONF_CLOSE,	/* cancel every unfinished grid with index % 3 == @group */
};

struct conf_action {
	u64 cycle;
	enum conf_act_kind kind;
	const struct gtbs_policy_ops *pol;
	enum gtbs_grid_state state;
	u32 group;
};

struct conf_grid {
	struct gtbs_grid *g;
	bool cancelled;
	bool never_arrived;	/* cancelled while ARRIVING, before arrival */
	enum gtbs_grid_state cancel_state;
	u64 cancel_cycle;
	size_t cancel_ev;	/* h->nr_ev at the cancel */
	u8 starts[CONF_MAX_BLOCKS];
	u8 ends[CONF_MAX_BLOCKS];
};

struct conf {
	struct h_dev *h;
	const struct gtbs_policy_ops *pol;
	bool guard;
	u64 rng;
	u32 nr_grids;
	struct conf_grid grids[CONF_GRIDS];
	u32 nr_actions;
	struct conf_action act[CONF_ACTIONS];
	u32 cancelled_in[GTBS_GRID_TIMED_OUT + 1];
	/* stale policy state found after switches away to fifo */
	unsigned int nr_stale;
	char stale[512];
	/* policies selected since the last switch to fifo, "a -> b" */
	char path[128];
	/* switch away to fifo when the device holds SRTF-style state */
	bool on_sharing, on_sampling;
	/* blocks may be preempted: each runs one or more times, ends once */
	bool preempting;
};

/* Records for preempted blocks (conformance_preempt). */
static struct gtbs_saved conf_pool[256];

/* The strict-class check made at every pick (conf_pick()). */
static const struct gtbs_backend_ops *conf_inner;
static struct gtbs_backend_ops conf_backend;
static unsigned int conf_class_violations;
static char conf_class_msg[256];

static unsigned int conf_nr_policies(void)
{
	unsigned int n = 0;

	while (gtbs_policy_at(n))
		n++;
	return n;
}

static u32 conf_class(const struct gtbs_dev *dev, const struct gtbs_grid *g,
		      u64 now)
{
	return dev->starve_cycles ? gtbs_grid_class(dev, g, now) :
				    g->desc.prio_class;
}

/*
 * &gtbs_backend_ops.pick: the policy chose @grid for @sm at @sm->now.  If
 * the engine is going to issue its next block (it has one and it fits),
 * no grid of a higher effective class may have a block left to issue.
 * The grids are those the harness allocated, not the engine's lists.
 */
static void conf_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
		      struct gtbs_grid *grid, u32 reason)
{
	struct h_dev *h = dev->priv;
	u32 mine;
	size_t i;

	if (conf_inner->pick)
		conf_inner->pick(dev, sm, grid, reason);
	ck_assert_uint_lt(reason, GTBS_NR_PICK_REASONS);
	if (!grid || grid->next_block >= grid->desc.nr_blocks ||
	    !gtbs_block_fits(dev, sm, grid))
		return;
	mine = conf_class(dev, grid, sm->now);
	for (i = 0; i < h->nr_grids; i++) {
		const struct gtbs_grid *o = h->grids[i];

		if ((o->state != GTBS_GRID_QUEUED &&
		     o->state != GTBS_GRID_RUNNING) ||
		    o->next_block >= o->desc.nr_blocks ||
		    conf_class(dev, o, sm->now) <= mine)
			continue;
		if (!conf_class_violations++)
			snprintf(conf_class_msg, sizeof(conf_class_msg),
				 "%s at %llu: grid %llu (class %u) issues while grid %llu (class %u) has blocks",
				 dev->policy->name,
				 (unsigned long long)sm->now,
				 (unsigned long long)grid->id, mine,
				 (unsigned long long)o->id,
				 conf_class(dev, o, sm->now));
	}
}

/*
 * A device of 2..6 default SMs under registered policy @index, checking
 * every SM at every callback, with CONF_GRIDS random grids of random
 * shapes and classes submitted for random future cycles
 * (gtbs_grid_submit_at()), so that ARRIVING grids exist throughout.
 */
static void conf_init(struct conf *c, unsigned int index, u64 seed,
		      bool guard)
{
	struct gtbs_dev_config cfg;
	u64 at = 0;
	u32 i;

	memset(c, 0, sizeof(*c));
	c->pol = gtbs_policy_at(index);
	ck_assert_ptr_nonnull(c->pol);
	c->guard = guard;
	c->rng = seed * 7919 + index * 104729 + guard;
	gtbs_config_default(&cfg);
	cfg.nr_sms = h_rand_range(&c->rng, 2, 6);
	c->h = h_new(&cfg, c->pol);
	c->h->check_every_event = true;
	snprintf(c->path, sizeof(c->path), "%s", c->pol->name);
	conf_inner = c->h->dev.backend;
	conf_backend = *conf_inner;
	conf_backend.pick = conf_pick;
	c->h->dev.backend = &conf_backend;
	conf_class_violations = 0;
	conf_class_msg[0] = '\0';
	if (guard)
		c->h->dev.starve_cycles = h_rand_range(&c->rng, 200, 1500);
	c->nr_grids = CONF_GRIDS;
	for (i = 0; i < c->nr_grids; i++) {
		struct gtbs_grid_desc d;
		const char *why = NULL;
		int err = 0;

		d = h_desc(h_rand_range(&c->rng, 1, CONF_MAX_BLOCKS),
			   32 << h_rand_range(&c->rng, 0, 4),
			   h_rand_range(&c->rng, 0, 32),
			   h_rand_range(&c->rng, 0, 3) * 8192,
			   h_rand_range(&c->rng, 50, 900));
		d.block_rsd_ppm = h_rand_range(&c->rng, 0, 300000);
		d.seed = h_rand(&c->rng);
		d.prio_class = h_rand_range(&c->rng, 0,
					    GTBS_NR_PRIO_CLASSES - 1);
		at += h_rand_range(&c->rng, 0, 400);
		c->grids[i].g = h_grid_new(c->h, &d, &err, &why);
		ck_assert_msg(c->grids[i].g, "grid rejected (%d): %s", err,
			      why);
		gtbs_grid_submit_at(&c->h->dev, c->grids[i].g, 0, at);
	}
}

static u64 conf_last_arrival(const struct conf *c)
{
	return c->grids[c->nr_grids - 1].g->submit_cycle;
}

static void conf_add(struct conf *c, const struct conf_action *a)
{
	u32 i = c->nr_actions++;

	ck_assert_uint_le(c->nr_actions, CONF_ACTIONS);
	/* keep them sorted by cycle */
	while (i && c->act[i - 1].cycle > a->cycle) {
		c->act[i] = c->act[i - 1];
		i--;
	}
	c->act[i] = *a;
}

/* Whether @len bytes at @p are all zero. */
static bool conf_zero(const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		if (*b++)
			return false;
	return true;
}

/*
 * Note in c->stale what the policy switched away from left behind: fifo
 * declares no private state, so after the switch every private area of
 * the device, its SMs and its grids must be zero, and no SM may report a
 * sharing mode.
 */
static void conf_check_detached(struct conf *c, u64 now)
{
	struct gtbs_dev *dev = &c->h->dev;
	char what[160] = "";
	size_t len;
	u32 i, s;

	if (!conf_zero(dev->policy_priv, sizeof(dev->policy_priv)))
		strcat(what, " dev->policy_priv");
	for (i = 0; i < dev->cfg.nr_sms; i++)
		if (gtbs_sm_sharing(dev, c->h->sms[i]) ||
		    !conf_zero(c->h->sms[i]->policy_priv,
			       sizeof(c->h->sms[i]->policy_priv))) {
			strcat(what, " sm->policy_priv");
			break;
		}
	for (i = 0; i < c->h->nr_grids; i++) {
		struct gtbs_grid *g = c->h->grids[i];
		bool dirty;

		/* the device's grids: those that left are the owner's */
		if (g->state != GTBS_GRID_ARRIVING &&
		    g->state != GTBS_GRID_QUEUED &&
		    g->state != GTBS_GRID_RUNNING)
			continue;
		dirty = !conf_zero(g->policy_priv, sizeof(g->policy_priv));

		for (s = 0; s < dev->cfg.nr_sms && !dirty; s++)
			dirty = g->sm[s] &&
				!conf_zero(g->sm[s]->policy_priv,
					   sizeof(g->sm[s]->policy_priv));
		if (dirty) {
			strcat(what, " grid->policy_priv");
			break;
		}
	}
	if (what[0]) {
		len = strlen(c->stale);
		if (!c->nr_stale++ || len + 80 < sizeof(c->stale))
			snprintf(c->stale + len, sizeof(c->stale) - len,
				 "%s%s -> fifo at %llu left%s",
				 len ? "; " : "", c->path,
				 (unsigned long long)now, what);
	}
	snprintf(c->path, sizeof(c->path), "fifo");
}

static void conf_path_add(struct conf *c, const char *name)
{
	size_t len = strlen(c->path);

	snprintf(c->path + len, sizeof(c->path) - len, " -> %s", name);
}

static void conf_cancel(struct conf *c, struct conf_grid *cg, u64 now)
{
	struct h_dev *h = c->h;
	enum gtbs_grid_state st = cg->g->state;
	u32 i, j;

	if (st != GTBS_GRID_ARRIVING && st != GTBS_GRID_QUEUED &&
	    st != GTBS_GRID_RUNNING)
		return;
	cg->cancelled = true;
	cg->cancel_state = st;
	cg->cancel_cycle = now;
	cg->never_arrived = st == GTBS_GRID_ARRIVING;
	c->cancelled_in[st]++;
	gtbs_grid_cancel(&h->dev, cg->g, now);
	cg->cancel_ev = h->nr_ev;
	ck_assert_int_eq(cg->g->state, GTBS_GRID_CANCELLED);
	/* its resources are back at once */
	ck_assert_uint_eq(cg->g->resident, 0);
	for (i = 0; i < h->dev.cfg.nr_sms; i++) {
		ck_assert_uint_eq(gtbs_grid_sm_resident(cg->g, i), 0);
		for (j = 0; j < h->dev.cfg.max_blocks_per_sm; j++)
			ck_assert_ptr_ne(h->sms[i]->slots[j].grid, cg->g);
	}
	ck_assert_msg(h_check_all(h) == 0, "%s: after cancel: %s",
		      c->pol->name, h->violation);
}

/* Pick a grid in @state (any cancellable one if none) and cancel it. */
static void conf_cancel_one(struct conf *c, enum gtbs_grid_state state,
			    u64 now)
{
	u32 i, n = 0, pick;

	for (i = 0; i < c->nr_grids; i++)
		n += c->grids[i].g->state == state;
	if (!n) {
		for (i = 0; i < c->nr_grids; i++) {
			enum gtbs_grid_state s = c->grids[i].g->state;

			if (s == GTBS_GRID_ARRIVING || s == GTBS_GRID_QUEUED ||
			    s == GTBS_GRID_RUNNING) {
				conf_cancel(c, &c->grids[i], now);
				return;
			}
		}
		return;
	}
	pick = h_rand_range(&c->rng, 0, n - 1);
	for (i = 0; i < c->nr_grids; i++)
		if (c->grids[i].g->state == state && !pick--) {
			conf_cancel(c, &c->grids[i], now);
			return;
		}
}

static void conf_do(struct conf *c, const struct conf_action *a)
{
	struct gtbs_dev *dev = &c->h->dev;
	u64 now = max(a->cycle, dev->clock);
	const struct gtbs_policy_ops *old;
	u32 i;

	switch (a->kind) {
	case CONF_SWITCH:
		old = dev->policy;
		gtbs_dev_set_policy(dev, a->pol, now);
		ck_assert_ptr_eq(dev->policy, a->pol);
		if (a->pol == &gtbs_policy_fifo && old != a->pol)
			conf_check_detached(c, now);
		else if (old != a->pol)
			conf_path_add(c, a->pol->name);
		break;
	case CONF_CANCEL:
		gtbs_dev_run_until(dev, now);
		conf_cancel_one(c, a->state, now);
		break;
	case CONF_CLOSE:
		gtbs_dev_run_until(dev, now);
		for (i = 0; i < c->nr_grids; i++)
			if (i % 3 == a->group)
				conf_cancel(c, &c->grids[i], now);
		break;
	}
	ck_assert_msg(h_check_all(c->h) == 0, "%s: after action: %s",
		      c->pol->name, c->h->violation);
}

static bool conf_any_sharing(const struct conf *c)
{
	u32 i;

	for (i = 0; i < c->h->dev.cfg.nr_sms; i++)
		if (gtbs_sm_sharing(&c->h->dev, c->h->sms[i]))
			return true;
	return false;
}

/*
 * The targeted switches of conformance_switch_detach: the first time the
 * device is under the policy with an SM in sharing mode (and, separately,
 * with a grid being sampled), switch away to fifo at once and come back
 * a little later.  The state is the engine's generic members, so this is
 * no list of policies either: one that never sets them is never switched
 * here.
 */
static void conf_switch_on_state(struct conf *c)
{
	struct gtbs_dev *dev = &c->h->dev;
	struct conf_action a = { .kind = CONF_SWITCH };
	bool fire = false;

	if (dev->policy != c->pol || c->pol == &gtbs_policy_fifo)
		return;
	if (c->on_sharing && conf_any_sharing(c)) {
		c->on_sharing = false;
		fire = true;
	} else if (c->on_sampling &&
		   !conf_zero(dev->policy_priv, sizeof(dev->policy_priv))) {
		c->on_sampling = false;
		fire = true;
	}
	if (!fire || c->nr_actions + 1 > CONF_ACTIONS)
		return;
	a.cycle = dev->clock;
	a.pol = &gtbs_policy_fifo;
	conf_do(c, &a);
	a.cycle = dev->clock + h_rand_range(&c->rng, 100, 2000);
	a.pol = c->pol;
	conf_add(c, &a);
}

/*
 * Run the device one event at a time (gtbs_dev_run_bounded() with a budget
 * of one), checking every SM after each, and take the actions at their
 * cycles, until nothing is left to happen.
 */
static void conf_run(struct conf *c)
{
	struct h_dev *h = c->h;
	u32 next_act = 0, budget;
	u64 next, steps = 0;

	for (;;) {
		next = gtbs_dev_next_event(&h->dev);
		if (next_act < c->nr_actions &&
		    c->act[next_act].cycle <= next) {
			conf_do(c, &c->act[next_act++]);
			continue;
		}
		if (next == U64_MAX)
			break;
		ck_assert_msg(++steps < 10000000, "%s: run does not terminate",
			      c->pol->name);
		budget = 1;
		gtbs_dev_run_bounded(&h->dev, next, &budget);
		ck_assert_msg(h_check_all(h) == 0, "%s at %llu: %s",
			      c->pol->name, (unsigned long long)next,
			      h->violation);
		conf_switch_on_state(c);
	}
}

static struct conf_grid *conf_by_id(struct conf *c, u64 id)
{
	u32 i;

	for (i = 0; i < c->nr_grids; i++)
		if (!c->grids[i].never_arrived && c->grids[i].g->id == id)
			return &c->grids[i];
	return NULL;
}

/*
 * Checks 1, 2, 3 and the cancel rules of 5 on the finished run: from the
 * event log, every block of every grid that was not cancelled started and
 * ended exactly once; a cancelled grid's blocks started at most once and
 * nothing of it happened after its cancel.  Without the guard the class
 * rule is also checked from the log alone (strict_classes_random's
 * logic, test_policy.c); with it, the classes are promoted at cycles the
 * log does not show, and the per-pick check (conf_pick()) is the one.
 */
static void conf_verify(struct conf *c)
{
	struct h_dev *h = c->h;
	struct gtbs_dev *dev = &h->dev;
	const char *name = c->pol->name;
	u32 i, j, b, arrived = 0, done = 0, cancelled = 0;
	size_t e;

	ck_assert_msg(h->violations == 0, "%s: %s", name, h->violation);
	ck_assert_msg(conf_class_violations == 0, "%s", conf_class_msg);
	ck_assert_uint_eq(h->nonmonotonic, 0);
	for (e = 0; e < h->nr_ev; e++) {
		const struct h_event *ev = &h->ev[e];
		struct conf_grid *cg = conf_by_id(c, ev->grid_id);

		ck_assert_msg(cg, "%s: event of unknown grid %llu", name,
			      (unsigned long long)ev->grid_id);
		if (cg->cancelled)
			ck_assert_msg(e < cg->cancel_ev,
				      "%s: grid %llu has event %u after its cancel at %llu",
				      name, (unsigned long long)ev->grid_id,
				      ev->kind,
				      (unsigned long long)cg->cancel_cycle);
		if (ev->kind == H_EV_BLOCK_START) {
			ck_assert_uint_lt(ev->block, cg->g->desc.nr_blocks);
			ck_assert_msg(!cg->starts[ev->block]++ ||
				      c->preempting,
				      "%s: block %u of grid %llu started twice",
				      name, ev->block,
				      (unsigned long long)ev->grid_id);
			ck_assert_msg(!cg->ends[ev->block],
				      "%s: block %u of grid %llu started after its end",
				      name, ev->block,
				      (unsigned long long)ev->grid_id);
			ck_assert_uint_ge(ev->start, cg->g->submit_cycle);
		} else if (ev->kind == H_EV_BLOCK_END) {
			ck_assert_uint_lt(ev->block, cg->g->desc.nr_blocks);
			ck_assert_msg(cg->starts[ev->block] &&
				      !cg->ends[ev->block]++,
				      "%s: block %u of grid %llu ended twice or before its start",
				      name, ev->block,
				      (unsigned long long)ev->grid_id);
		}
	}
	for (i = 0; i < c->nr_grids; i++) {
		struct conf_grid *cg = &c->grids[i];
		const struct gtbs_grid *g = cg->g;

		arrived += !cg->never_arrived;
		if (cg->cancelled) {
			cancelled++;
			ck_assert_int_eq(g->state, GTBS_GRID_CANCELLED);
			for (b = 0; b < g->desc.nr_blocks; b++)
				ck_assert_uint_eq(!!cg->starts[b],
						  b < g->next_block);
			if (!cg->never_arrived)
				ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE,
							  g->id), 0);
			continue;
		}
		done++;
		ck_assert_msg(g->state == GTBS_GRID_DONE,
			      "%s: grid %llu ends in state %d", name,
			      (unsigned long long)g->id, g->state);
		ck_assert_uint_eq(g->blocks_done, g->desc.nr_blocks);
		ck_assert_uint_eq(g->resident, 0);
		for (b = 0; b < g->desc.nr_blocks; b++)
			ck_assert_msg((cg->starts[b] == 1 ||
				       (c->preempting && cg->starts[b])) &&
				      cg->ends[b] == 1,
				      "%s: block %u of grid %llu started %u and ended %u times",
				      name, b, (unsigned long long)g->id,
				      cg->starts[b], cg->ends[b]);
		ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, g->id), 1);
	}
	ck_assert(gtbs_dev_idle(dev));
	ck_assert(list_empty(&dev->arrivals));
	ck_assert(list_empty(&dev->pending));
	for (i = 0; i < GTBS_NR_PRIO_CLASSES; i++)
		ck_assert_uint_eq(dev->nr_pending[i], 0);
	ck_assert_uint_eq(dev->grids_submitted, arrived);
	ck_assert_uint_eq(dev->grids_completed, done);
	ck_assert_uint_eq(dev->grids_cancelled,
			  cancelled - (c->nr_grids - arrived));
	ck_assert_uint_eq(dev->grids_submitted,
			  dev->grids_completed + dev->grids_cancelled);
	for (i = 0; i < dev->cfg.nr_sms; i++)
		ck_assert_uint_eq(h->sms[i]->nr_resident, 0);
	if (c->guard)
		return;
	/* strict classes from the log, guard off */
	for (e = 0; e < h->nr_ev; e++) {
		const struct h_event *ev = &h->ev[e];
		const struct conf_grid *mine;

		if (ev->kind != H_EV_BLOCK_START)
			continue;
		mine = conf_by_id(c, ev->grid_id);
		for (j = 0; j < c->nr_grids; j++) {
			const struct conf_grid *o = &c->grids[j];
			const struct gtbs_grid *g = o->g;
			u64 until = U64_MAX;
			long last;

			if (o->never_arrived ||
			    g->desc.prio_class <= mine->g->desc.prio_class ||
			    g->submit_cycle >= ev->start)
				continue;
			last = g->next_block == g->desc.nr_blocks ?
			       h_find(h, H_EV_BLOCK_START, g->id,
				      g->desc.nr_blocks - 1) : -1;
			if (last >= 0)
				until = h->ev[last].start;
			else if (o->cancelled)
				until = o->cancel_cycle;
			ck_assert_msg(until <= ev->start,
				      "%s: class %u block at %llu while class %u grid %llu had blocks",
				      name, mine->g->desc.prio_class,
				      (unsigned long long)ev->start,
				      g->desc.prio_class,
				      (unsigned long long)g->id);
		}
	}
}

static void conf_free(struct conf *c)
{
	h_free(c->h);
	c->h = NULL;
}

/* _i = (seed * 2 + guard) * policies + policy. */
static void conf_decode(int i, unsigned int *pol, u64 *seed, bool *guard)
{
	unsigned int n = conf_nr_policies();

	*pol = i % n;
	*guard = (i / n) & 1;
	*seed = i / n / 2;
}

/* Checks 1-3: random workloads under the policy, guard off and on. */
START_TEST(conformance_random)
{
	unsigned int pol;
	bool guard;
	u64 seed;
	struct conf c;

	conf_decode(_i, &pol, &seed, &guard);
	conf_init(&c, pol, 100 + seed, guard);
	conf_run(&c);
	conf_verify(&c);
	conf_free(&c);
}
END_TEST

/*
 * Six switches at random cycles while grids run: away from the policy to
 * a random other registered one (every other time to fifo), and back.
 * With @c->stale the stale state left by the switches to fifo.
 */
static void conf_switch_run(struct conf *c, int i, bool targeted)
{
	unsigned int pol, n = conf_nr_policies(), k;
	bool guard;
	u64 seed, span;

	conf_decode(i, &pol, &seed, &guard);
	conf_init(c, pol, 200 + seed, guard);
	span = conf_last_arrival(c) + 4000;
	for (k = 0; k < 6; k++) {
		struct conf_action a = { .kind = CONF_SWITCH };

		a.cycle = h_rand_range(&c->rng, 0, span);
		conf_add(c, &a);
	}
	/* in cycle order: away, back, away, back, ... */
	for (k = 0; k < c->nr_actions; k++) {
		const struct gtbs_policy_ops *to = c->pol;

		if (!(k & 1)) {
			if (!(k & 2) && c->pol != &gtbs_policy_fifo)
				to = &gtbs_policy_fifo;
			else
				do {
					to = gtbs_policy_at(h_rand_range(&c->rng,
									 0, n - 1));
				} while (to == c->pol && n > 1);
		}
		c->act[k].pol = to;
	}
	c->on_sharing = targeted;
	c->on_sampling = targeted;
	conf_run(c);
	ck_assert_uint_ge(c->h->dev.policy_switches, 1);
	conf_verify(c);
}

/* Check 4: switching to and from the policy under load loses nothing. */
START_TEST(conformance_switch)
{
	struct conf c;

	conf_switch_run(&c, _i, false);
	conf_free(&c);
}
END_TEST

/*
 * Check 4, the policy's own state: after a switch away to fifo, none of
 * the old policy's state is left (gtbs_policy_ops.detach's job).
 */
START_TEST(conformance_switch_detach)
{
	struct conf c;

	conf_switch_run(&c, _i, true);
	ck_assert_msg(!c.nr_stale, "%s: %u switches away left state: %s",
		      c.pol->name, c.nr_stale, c.stale);
	conf_free(&c);
}
END_TEST

/*
 * Check 5: cancels at random cycles, aimed in turn at an ARRIVING, a
 * QUEUED and a RUNNING grid, and for odd seeds a close (every unfinished
 * grid of one "process", a third of the grids) at one cycle.
 */
START_TEST(conformance_cancel)
{
	static const enum gtbs_grid_state aim[] = {
		GTBS_GRID_ARRIVING, GTBS_GRID_QUEUED, GTBS_GRID_RUNNING,
	};
	unsigned int pol, k;
	bool guard;
	u64 seed, span;
	struct conf c;

	conf_decode(_i, &pol, &seed, &guard);
	conf_init(&c, pol, 300 + seed, guard);
	span = conf_last_arrival(&c) + 2000;
	for (k = 0; k < 6; k++) {
		struct conf_action a = { .kind = CONF_CANCEL };

		a.cycle = h_rand_range(&c.rng, 0, span);
		a.state = aim[k % ARRAY_SIZE(aim)];
		conf_add(&c, &a);
	}
	if (seed & 1) {
		struct conf_action a = { .kind = CONF_CLOSE };

		a.cycle = h_rand_range(&c.rng, 0, span);
		a.group = h_rand_range(&c.rng, 0, 2);
		conf_add(&c, &a);
	}
	conf_run(&c);
	conf_verify(&c);
	ck_assert_uint_gt(c.cancelled_in[GTBS_GRID_ARRIVING] +
			  c.cancelled_in[GTBS_GRID_QUEUED] +
			  c.cancelled_in[GTBS_GRID_RUNNING], 0);
	conf_free(&c);
}
END_TEST

/*
 * Checks 1-3 with preemption: the random workloads again (the starvation
 * guard on for odd seeds) under switch, flush and auto (with random budgets), half the grids
 * idempotent.  Blocks may now start more than once, but each ends exactly
 * once and never starts after its end; every switched-out block is
 * restored and every record is back in the pool at the end.
 */
START_TEST(conformance_preempt)
{
	static const u32 modes[] = {
		GTBS_PREEMPT_SWITCH, GTBS_PREEMPT_FLUSH, GTBS_PREEMPT_AUTO,
	};
	unsigned int n = conf_nr_policies();
	unsigned int pol = _i % n, mode = (_i / n) % ARRAY_SIZE(modes);
	u64 seed = _i / n / ARRAY_SIZE(modes);
	struct gtbs_dev *dev;
	struct conf c;
	u32 i;

	/* half the seeds with the starvation guard: it must not livelock */
	conf_init(&c, pol, 300 + seed, seed & 1);
	dev = &c.h->dev;
	c.preempting = true;
	gtbs_dev_set_saved_pool(dev, conf_pool, ARRAY_SIZE(conf_pool));
	ck_assert_int_eq(gtbs_dev_set_preempt(dev, modes[mode], 0), 0);
	for (i = 0; i < GTBS_NR_PRIO_CLASSES; i++)
		dev->preempt_budget[i] = h_rand_range(&c.rng, 0, 3000);
	dev->switch_bytes_per_cycle = h_rand_range(&c.rng, 4, 64);
	for (i = 0; i < c.nr_grids; i++)
		c.grids[i].g->desc.idempotent = h_rand(&c.rng) & 1;
	conf_run(&c);
	conf_verify(&c);
	ck_assert_uint_eq(dev->preempts[GTBS_MECH_SWITCH], dev->restores);
	ck_assert_uint_eq(dev->saved_nr_free, ARRAY_SIZE(conf_pool));
	if (modes[mode] == GTBS_PREEMPT_SWITCH)
		ck_assert_uint_eq(dev->preempts[GTBS_MECH_FLUSH], 0);
	conf_free(&c);
}
END_TEST

Suite *conformance_suite(void)
{
	Suite *s = suite_create("conformance");
	TCase *tc = h_tcase("conformance");
	int n = conf_nr_policies();

	tcase_add_loop_test(tc, conformance_random, 0, n * 2 * CONF_SEEDS);
	tcase_add_loop_test(tc, conformance_switch, 0, n * 2 * CONF_SEEDS);
	tcase_add_loop_test(tc, conformance_switch_detach, 0,
			    n * 2 * CONF_SEEDS);
	tcase_add_loop_test(tc, conformance_cancel, 0, n * 2 * CONF_SEEDS);
	tcase_add_loop_test(tc, conformance_preempt, 0, n * 3 * CONF_SEEDS);
	suite_add_tcase(s, tc);
	return s;
}
