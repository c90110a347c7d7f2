// SPDX-License-Identifier: GPL-2.0
/*
 * engine.c - thread block dispatch on the emulated SMs.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Dispatch engine
 *
 * The engine is a discrete-event model in emulated cycles.  Its events are
 * block completions; each SM's next completion is computed from the SM's
 * progress clock (timing.c).  gtbs_sm_advance() brings one SM up to a given
 * cycle: it retires every block that ended by then, each at its own cycle,
 * and after each retirement lets the SM issue blocks, choosing the grid
 * with the device's &struct gtbs_policy_ops.  An SM issues a block only if
 * the block's whole footprint (block slot, warps, threads, registers,
 * shared memory) is free; the block holds it until it ends.  Running
 * blocks are never interrupted: every policy acts at block boundaries.
 *
 * gtbs_dev_run_until() takes the events of all SMs (completions, and kicks
 * when a grid arrives or ends) in global cycle order.  Who calls it decides
 * how emulated time relates to wall time: the KUnit suite, the unit tests
 * and the simulator call it in pure virtual time; the module's SM kthreads
 * call it with the wall-clock cycle when an hrtimer or a kick wakes them
 * (kmod/gputbs_sm.c).  Every event is processed at the cycle it was due,
 * never at the cycle a late timer fired, so timer lateness never changes
 * the schedule and never accumulates.
 *
 * Cost per event: each SM caches the cycle of its next completion
 * (&gtbs_sm.next_end, recomputed over its own slots when its blocks
 * change), and the SMs sit in a binary min-heap by next event
 * (&gtbs_dev.sm_heap), so finding the next event is O(1) and refiling the
 * SM that had it O(log SMs); no event scans every SM.  A kick (a grid
 * arrived or ended, a policy's decision changed) marks the SMs that could
 * issue in a bitmap, O(SMs / BITS_PER_LONG), rather than refiling them:
 * they are taken in the heap's order all the same, each one that
 * re-evaluates costing what an event costs, and once no grid has a block
 * to issue the rest are dropped together (gtbs_dev_kick()).
 */

/**
 * DOC: Order of policy ops
 *
 * What a policy can rely on, as the engine behaves (tests/unit's
 * policy_order suite, test_policy_order.c, asserts each numbered rule):
 *
 * 1. **Global order.**  The device takes its events in cycle order.  At
 *    one cycle: the refill of capped tenants, then the SMs' events (block
 *    ends, and kicks: an SM re-evaluating after an arrival or an end) by
 *    SM index, lowest first, then arrivals, then job timeouts.  So the
 *    ops of SM 0's block ends *and the picks that follow them* at cycle T
 *    come before the ops of SM 1's block ends at T: those picks see the
 *    ends of lower SMs at T, never those of higher ones.  A kick at T (a
 *    grid arrived, ended or issued its last block: gtbs_dev_kick()) lets
 *    the SMs with room pick again at T, in index order, after the events
 *    already taken; a kick that finds no grid with blocks to issue is
 *    dropped without a pick.
 * 2. **A block end** (one SM event may end several blocks, all due at its
 *    cycle, in slot order, before the SM picks): the engine frees the
 *    slot and counts the block (&gtbs_grid.blocks_done,
 *    &gtbs_grid.resident), then calls, for that block, in this order:
 *    the owner's &gtbs_backend_ops.block_end; &gtbs_policy_ops.block_end
 *    (the SM, the grid, the slot, start, end = &gtbs_sm.now); the predictor's
 *    OnBlockEnd, and &gtbs_policy_ops.predict if it made a prediction;
 *    &gtbs_policy_ops.grid_update with the SM.  **Every completed block
 *    makes exactly one block_end and one grid_update(sm) call, at its own
 *    end cycle.**  If it was the grid's last block, &gtbs_policy_ops.grid_end
 *    follows (the grid has left &gtbs_dev.grids).  Blocks that a cancel or
 *    a job timeout drops make no call.
 * 3. **Picks.**  After the ends of its cycle, the SM calls
 *    &gtbs_policy_ops.pick_grid once per block it may issue: **one pick
 *    issues at most one block**, of the grid returned (a preempted block of
 *    it first, &gtbs_grid.nr_saved), or none.  The SM calls again while
 *    it has a free slot (or may preempt) and some grid has blocks to
 *    issue, and stops at the first call that returns NULL or a grid whose
 *    block does not fit (it then waits for its next event) or that has no
 *    per-(grid, SM) state to be had (it tries again at the same cycle);
 *    a grid whose tenant is over its cap is throttled instead of issued,
 *    and the SM picks again.  A pick that issued nothing may be asked
 *    again at the same cycle with nothing changed in between
 *    (gtbs_sm_advance() ends with one more turn at the cycle it runs
 *    to): a policy must not count picks as decisions, only issues.  An
 *    issue that takes a grid's last block (or a throttle) calls
 *    &gtbs_policy_ops.grid_update without an SM at once, before the next
 *    pick; the grid's block_start reaches only the owner
 *    (&gtbs_backend_ops.block_start): a policy learns of the issue from
 *    the pick it made.
 * 4. **Arrivals.**  &gtbs_policy_ops.grid_arrive when the grid joins
 *    &gtbs_dev.grids (after the SMs' events of its cycle); every SM with a
 *    free slot then picks at that cycle.
 * 5. **Preemption** (not in drain mode): a switched-out or flushed block
 *    calls &gtbs_policy_ops.grid_update with its SM when it stops, and
 *    with NULL when its grid rejoins the pending list; its block_end comes
 *    once, at its real end, its start set back by the cycles it ran
 *    before (&gtbs_policy_ops.block_end).
 */
#include "preempt.h"

static void gtbs_sm_update_next(struct gtbs_dev *dev, struct gtbs_sm *sm);

static void gtbs_policy_attach(struct gtbs_dev *dev);

/**
 * gtbs_dev_init() - initialise a device
 * @dev: the device.
 * @cfg: configuration, checked with gtbs_config_check() by the caller.
 * @policy: scheduling policy; must have @pick_grid.
 * @sms: @cfg->nr_sms SMs initialised with gtbs_sm_init().
 *
 * The caller sets &gtbs_dev.backend and &gtbs_dev.priv afterwards if it
 * wants callbacks.  Attaches the policy (its parameters at their
 * defaults, &gtbs_policy_ops.attach); the caller holds a reference on it
 * if it came from gtbs_policy_get().
 *
 * Context: any; before the device is shared.
 */
void gtbs_dev_init(struct gtbs_dev *dev, const struct gtbs_dev_config *cfg,
		   const struct gtbs_policy_ops *policy, struct gtbs_sm **sms)
{
	u32 i;

	memset(dev, 0, sizeof(*dev));
	dev->cfg = *cfg;
	dev->policy = policy;
	dev->sms = sms;
	dev->kick_cycle = U64_MAX;
	for (i = 0; i < cfg->nr_sms; i++) {
		/* every key U64_MAX: index order is a valid heap */
		dev->sm_heap[i] = i;
		dev->heap_key[i] = U64_MAX;
		dev->heap_pos[i] = i;
	}
	INIT_LIST_HEAD(&dev->grids);
	INIT_LIST_HEAD(&dev->arrivals);
	dev->arrival_tree = RB_ROOT;
	INIT_LIST_HEAD(&dev->waiting);
	INIT_LIST_HEAD(&dev->timeouts);
	dev->timeout_tree = RB_ROOT;
	INIT_LIST_HEAD(&dev->pending);
	INIT_LIST_HEAD(&dev->saved_free);
	INIT_LIST_HEAD(&dev->spare);
	dev->spare_low = 2 * cfg->max_blocks_per_sm;
	dev->pred_mode = GTBS_PRED_MODE_DEFAULT;
	dev->switch_bytes_per_cycle = GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT;
	INIT_LIST_HEAD(&dev->tenants);
	dev->cap_period = GTBS_CAP_PERIOD_DEFAULT;
	dev->refill_cycle = U64_MAX;
	gtbs_tenant_setup(dev, &dev->tenant0, 0, 0);
	gtbs_policy_attach(dev);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_init);

/*
 * The SM event heap (&gtbs_dev.sm_heap).  Each entry's key is stored
 * beside it (&gtbs_dev.heap_key, by heap position) and each SM's position
 * on the device (&gtbs_dev.heap_pos), so that a refile compares and moves
 * entries within the device's own arrays rather than loading an SM per
 * comparison; the heap stays consistent while an SM's state changes, and
 * gtbs_sm_refile() stores the new key and restores the order.
 */

/* Whether heap position @i comes before @j: by (key, SM index). */
static bool gtbs_heap_less(const struct gtbs_dev *dev, u32 i, u32 j)
{
	u64 ki = dev->heap_key[i], kj = dev->heap_key[j];

	return ki < kj || (ki == kj && dev->sm_heap[i] < dev->sm_heap[j]);
}

static void gtbs_heap_swap(struct gtbs_dev *dev, u32 i, u32 j)
{
	u32 a = dev->sm_heap[i], b = dev->sm_heap[j];

	swap(dev->heap_key[i], dev->heap_key[j]);
	dev->sm_heap[i] = b;
	dev->sm_heap[j] = a;
	dev->heap_pos[b] = i;
	dev->heap_pos[a] = j;
}

static void gtbs_heap_fix(struct gtbs_dev *dev, u32 pos)
{
	u32 n = dev->cfg.nr_sms, child;

	while (pos && gtbs_heap_less(dev, pos, (pos - 1) / 2)) {
		gtbs_heap_swap(dev, pos, (pos - 1) / 2);
		pos = (pos - 1) / 2;
	}
	for (;;) {
		child = 2 * pos + 1;
		if (child >= n)
			break;
		if (child + 1 < n && gtbs_heap_less(dev, child + 1, child))
			child++;
		if (!gtbs_heap_less(dev, child, pos))
			break;
		gtbs_heap_swap(dev, pos, child);
		pos = child;
	}
}

/* File @sm in the heap under its current next event.  Lock held. */
static void gtbs_sm_refile(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	u64 key = sm->kicked ? min(sm->next_end, sm->kick_cycle) : sm->next_end;
	u32 pos = dev->heap_pos[sm->id];

	if (key == dev->heap_key[pos])
		return;
	dev->heap_key[pos] = key;
	gtbs_heap_fix(dev, pos);
}

/*
 * Kicks.  A kick at cycle C makes every SM that could issue re-evaluate
 * at C, in SM index order, merged with the other events at C by (cycle,
 * index) as if each such SM were filed in the heap under C.  Rather than
 * refiling every SM, the device keeps one pending kick: &gtbs_dev.kick_cycle
 * and the bitmap &gtbs_dev.kick_set of the SMs still to take it (the
 * kernel's bitmap API, <linux/bitmap.h>, tools/include/gtbs_shim_user.h in
 * userland: scans and bulk updates go a word at a time, O(SMs /
 * BITS_PER_LONG)).
 * The run loop takes the set's lowest SM (find_next_bit() from
 * &gtbs_dev.kick_first) when it comes before the heap's first, and once no
 * grid has a block to issue it drops in one step (bitmap_clear()) every SM
 * of the set before the heap's next event (each would only have undone its
 * kick).  An SM kicked on its own (&gtbs_sm.kicked: a deferred dispatch, or
 * a kick at another cycle while the device's is pending) is refiled in the
 * heap as before.  An SM's kick is the earlier of the two; taking either
 * (dispatching, or undoing it) clears both.
 */

/* Kick @sm on its own at @cycle; refiled by the caller.  Lock held. */
static void gtbs_sm_kick_own(struct gtbs_dev *dev, struct gtbs_sm *sm,
			     u64 cycle)
{
	if (!sm->kicked) {
		sm->kicked = true;
		sm->kick_cycle = cycle;
		dev->nr_sm_kicked++;
	} else if (cycle < sm->kick_cycle) {
		sm->kick_cycle = cycle;
	}
}

/* @sm takes (or drops) whatever kick it had; refiled by the caller. */
static void gtbs_sm_unkick(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	if (sm->kicked) {
		sm->kicked = false;
		dev->nr_sm_kicked--;
	}
	if (test_bit(sm->id, dev->kick_set)) {
		__clear_bit(sm->id, dev->kick_set);
		if (!--dev->nr_kick_set)
			dev->kick_cycle = U64_MAX;
	}
}

/*
 * The lowest SM of &gtbs_dev.kick_set, or nr_sms if none; it becomes
 * &gtbs_dev.kick_first.  O(SMs / BITS_PER_LONG) over a kick's life, as the
 * SMs take it in index order.  Lock held.
 */
static u32 gtbs_kick_first(struct gtbs_dev *dev)
{
	if (!dev->nr_kick_set)
		return dev->cfg.nr_sms;
	dev->kick_first = find_next_bit(dev->kick_set, dev->cfg.nr_sms,
					dev->kick_first);
	return dev->kick_first;
}

/*
 * Into @mask, the SMs of a kick: every SM while the device may preempt,
 * else those with a free block slot (&gtbs_dev.sm_full).  The bits past
 * nr_sms are left as they come.  Lock held.
 */
static void gtbs_kick_mask(const struct gtbs_dev *dev, unsigned long *mask)
{
	/* a full SM can only make room by preempting (preempt.c) */
	if (dev->preempt_mode == GTBS_PREEMPT_DRAIN)
		bitmap_complement(mask, dev->sm_full, dev->cfg.nr_sms);
	else
		bitmap_fill(mask, dev->cfg.nr_sms);
}

/*
 * Turn the device's pending kick into kicks of each SM on its own, refiled
 * in the heap: before a kick at another cycle.  Lock held.
 */
static void gtbs_kick_flush(struct gtbs_dev *dev)
{
	u64 cycle = dev->kick_cycle;
	u32 i = dev->kick_first;

	dev->nr_kick_set = 0;
	dev->kick_cycle = U64_MAX;
	for_each_set_bit_from(i, dev->kick_set, dev->cfg.nr_sms) {
		struct gtbs_sm *sm = dev->sms[i];

		__clear_bit(i, dev->kick_set);
		gtbs_sm_kick_own(dev, sm, cycle);
		gtbs_sm_refile(dev, sm);
	}
}

/*
 * Undo the pending kick of every SM below @limit: no grid has a block to
 * issue, and no other event comes before theirs.  They are dropped
 * together, O(SMs / BITS_PER_LONG); those kicked on their own too are each
 * refiled.  &gtbs_dev.kick_first is current (gtbs_kick_first()).  Lock
 * held.
 */
static void gtbs_kick_undo(struct gtbs_dev *dev, u32 limit)
{
	u32 i = dev->kick_first;

	/* those kicked on their own too undo that (their min) */
	for_each_set_bit_from(i, dev->kick_set, limit) {
		struct gtbs_sm *sm = dev->sms[i];

		if (!dev->nr_sm_kicked)
			break;
		if (sm->kicked) {
			gtbs_sm_unkick(dev, sm);
			gtbs_sm_refile(dev, sm);
		}
	}
	dev->nr_kick_set -= bitmap_weight(dev->kick_set, limit);
	bitmap_clear(dev->kick_set, dev->kick_first, limit - dev->kick_first);
	dev->kick_first = limit;
	if (!dev->nr_kick_set)
		dev->kick_cycle = U64_MAX;
}

/**
 * gtbs_dev_kick() - make every SM that could issue re-evaluate
 * @dev: the device.
 * @cycle: emulated cycle of the change; idle SMs issue blocks at it.
 *
 * For the engine and for policies whose decision changed outside an SM's
 * own events (SRTF's sample prediction, a policy switch).  An SM with
 * every block slot held (unless it may preempt), or any SM while no grid
 * has a block to issue, could only find that it cannot issue
 * (gtbs_sm_dispatch()), so it is left alone: it re-evaluates at its next
 * block end or at a later kick.
 *
 * The kicked SMs re-evaluate at @cycle in index order, merged with the
 * heap's events (gtbs_dev_run_bounded()), exactly as if each were filed
 * in &gtbs_dev.sm_heap under @cycle; but they join the device's pending
 * kick (bitmap_or() into &gtbs_dev.kick_set, O(SMs / BITS_PER_LONG), with
 * two bitmaps of %GTBS_MAX_SMS bits on the stack), and none is refiled.  Once
 * no grid has a block left to issue, the run drops the SMs still to take
 * the kick in one step, so a kick costs what the SMs that dispatch cost,
 * not O(SMs log SMs).  Only a kick at another cycle while one is pending
 * (an owner's kick ahead of the device's clock) refiles each SM of the
 * pending one in the heap, as every kick did before.  With
 * &gtbs_backend_ops.kick set, that is called for each kicked SM: O(SMs).
 *
 * Context: device lock held.
 */
void gtbs_dev_kick(struct gtbs_dev *dev, u64 cycle)
{
	DECLARE_BITMAP(mask, GTBS_MAX_SMS);
	DECLARE_BITMAP(add, GTBS_MAX_SMS);
	u32 nr_sms = dev->cfg.nr_sms, i;

	gtbs_lockdep_assert_held(dev);
	if (list_empty(&dev->pending))
		return;
	if (dev->nr_kick_set && cycle != dev->kick_cycle)
		gtbs_kick_flush(dev);
	gtbs_kick_mask(dev, mask);
	if (bitmap_andnot(add, mask, dev->kick_set, nr_sms)) {
		i = find_first_bit(add, nr_sms);
		if (!dev->nr_kick_set || i < dev->kick_first)
			dev->kick_first = i;
		bitmap_or(dev->kick_set, dev->kick_set, add, nr_sms);
		dev->nr_kick_set += bitmap_weight(add, nr_sms);
		dev->kick_cycle = cycle;
	}
	if (!dev->backend || !dev->backend->kick)
		return;
	for_each_set_bit(i, mask, nr_sms)
		dev->backend->kick(dev, dev->sms[i]);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_kick);

/**
 * gtbs_sm_kick_cycle() - whether an SM is kicked, and for which cycle
 * @dev: the device.
 * @sm: one of its SMs.
 *
 * An SM is kicked by the device's pending kick (gtbs_dev_kick()) or on its
 * own (&gtbs_sm.kicked); it re-evaluates at the earlier of the two.
 *
 * Context: device lock held.
 * Return: the cycle at which @sm re-evaluates because it was kicked, or
 * U64_MAX if it is not kicked.
 */
u64 gtbs_sm_kick_cycle(const struct gtbs_dev *dev, const struct gtbs_sm *sm)
{
	u64 cycle = sm->kicked ? sm->kick_cycle : U64_MAX;

	gtbs_lockdep_assert_held(dev);
	if (test_bit(sm->id, dev->kick_set))
		cycle = min(cycle, dev->kick_cycle);
	return cycle;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_sm_kick_cycle);

/*
 * The deferred arrivals: &gtbs_dev.arrivals, the list the engine and the
 * owners walk in arrival order, indexed by &gtbs_dev.arrival_tree, a
 * red-black tree keyed by arrival cycle (Documentation/core-api/rbtree.rst),
 * so that an arrival finds its place in O(log n) however many grids are
 * due before or after it.  The tree holds equal cycles in the order they
 * were added: rb_add() descends to the right of every node that is not
 * less than the new one (include/linux/rbtree.h), so the new node is the
 * last of its cycle, and rotations keep the in-order sequence.  Its
 * in-order successor is then the first grid due after it, and the grid
 * goes before that one on the list: the order of the linear scan this
 * replaces, (arrival cycle, order added), exactly.
 */
static bool gtbs_arrival_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct gtbs_grid, arrival_node)->submit_cycle <
	       rb_entry(b, struct gtbs_grid, arrival_node)->submit_cycle;
}

/* Put @grid (submit_cycle set) on the arrivals.  O(log n).  Lock held. */
static void gtbs_arrivals_add(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct rb_node *next;

	rb_add(&grid->arrival_node, &dev->arrival_tree, gtbs_arrival_less);
	next = rb_next(&grid->arrival_node);
	list_add_tail(&grid->node,
		      next ? &rb_entry(next, struct gtbs_grid,
				       arrival_node)->node : &dev->arrivals);
}

/* Take an ARRIVING @grid off the arrivals.  O(log n).  Lock held. */
static void gtbs_arrivals_del(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	list_del_init(&grid->node);
	rb_erase(&grid->arrival_node, &dev->arrival_tree);
	RB_CLEAR_NODE(&grid->arrival_node);
}

/* The grid arrives at @now: queue it and tell everyone.  Lock held. */
static void gtbs_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid,
			     u64 now)
{
	if (grid->state == GTBS_GRID_ARRIVING)
		gtbs_arrivals_del(dev, grid);	/* deferred */
	grid->id = dev->next_id++;
	grid->submit_cycle = now;
	grid->last_issue_cycle = now;
	grid->state = GTBS_GRID_QUEUED;
	list_add_tail(&grid->node, &dev->grids);
	if (dev->backend && dev->backend->grid_arrive)
		dev->backend->grid_arrive(dev, grid);
	gtbs_grid_tenant_join(dev, grid);
	if (!grid->throttle) {
		list_add_tail(&grid->pending_node, &dev->pending);
		dev->nr_pending[grid->desc.prio_class]++;
		dev->pending_gen++;
	}
	dev->nr_grids++;
	dev->grids_submitted++;
	if (dev->policy->grid_arrive)
		dev->policy->grid_arrive(dev, grid);
	gtbs_dev_kick(dev, now);
}

/**
 * gtbs_grid_submit() - queue a grid
 * @dev: the device.
 * @grid: initialised by gtbs_grid_init(), state NEW.
 * @now: emulated cycle of submission.
 *
 * First runs the device up to @now (every earlier event happens before the
 * arrival), then appends the grid in arrival order, tells the policy, and
 * kicks every SM so that the next gtbs_dev_run_until() issues its blocks
 * at @now.
 *
 * Context: device lock held.
 */
void gtbs_grid_submit(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now)
{
	gtbs_lockdep_assert_held(dev);
	gtbs_dev_run_until(dev, now);
	gtbs_grid_arrive(dev, grid, now);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_submit);

/**
 * gtbs_grid_submit_at() - submit a grid that arrives at a given cycle
 * @dev: the device.
 * @grid: initialised by gtbs_grid_init(), state NEW.
 * @now: emulated cycle of the call, at or after &gtbs_dev.clock.
 * @at: emulated cycle of the arrival; at or before @now means @now.
 *
 * The grid waits, ARRIVING and unseen by the policy, on &gtbs_dev.arrivals;
 * the next gtbs_dev_run_until() or gtbs_dev_run_bounded() that reaches the
 * arrival cycle makes it arrive there, after the SMs' events at that cycle;
 * grids due at the same cycle arrive in submission order.  So a workload's
 * arrival offsets are exact in emulated cycles whatever the wall-clock
 * latency of the processes that submit it, and a grid submitted "now" to a
 * device that has not yet been run up to @now (an owner that catches up in
 * bounded steps) arrives at exactly @now all the same, with no event
 * processed here: O(log n) for n ARRIVING grids (a red-black tree,
 * &gtbs_dev.arrival_tree, finds the grid's place on &gtbs_dev.arrivals),
 * never O(events) or O(n).  The owner must run the device to the
 * arrival: gtbs_dev_next_event() and gtbs_dev_next_arrival() include it.
 * For an arrival at or before @now this is the same schedule as
 * gtbs_grid_submit() at @now.
 *
 * Context: device lock held.
 */
void gtbs_grid_submit_at(struct gtbs_dev *dev, struct gtbs_grid *grid,
			 u64 now, u64 at)
{
	gtbs_lockdep_assert_held(dev);
	at = max(max(at, now), dev->clock);
	grid->state = GTBS_GRID_ARRIVING;
	grid->submit_cycle = at;
	gtbs_arrivals_add(dev, grid);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_submit_at);

/* DONE, TIMED_OUT or CANCELLED: the grid has left the device. */
static bool gtbs_grid_left(const struct gtbs_grid *grid)
{
	return grid->state == GTBS_GRID_DONE ||
	       grid->state == GTBS_GRID_TIMED_OUT ||
	       grid->state == GTBS_GRID_CANCELLED;
}

/**
 * gtbs_grid_submit_after() - submit a grid in stream order
 * @dev: the device.
 * @grid: initialised by gtbs_grid_init(), state NEW.
 * @now: emulated cycle of the call, at or after &gtbs_dev.clock.
 * @pred: its predecessor, a grid of the device submitted before (in any
 *	state but NEW, including WAITING: chains are fine; one that has
 *	left the device too).
 * @after_cycles: cycles between @pred leaving the device and @grid's
 *	arrival, 0..%GTBS_MAX_AFTER_CYCLES.
 *
 * CUDA's stream order without a round trip through the owner: the grid
 * waits (WAITING, on &gtbs_dev.waiting, unseen by the policy) until @pred
 * leaves the device, whichever way (its last block ends, its job timeout
 * stops it, or it is cancelled), and is then handed to
 * gtbs_grid_submit_at() for that cycle plus @after_cycles, from inside
 * the event that ended @pred: so it arrives at exactly that cycle, after
 * the SMs' events of the cycle, behind the grids already due then (the
 * existing order of the arrivals), and the dependents of one predecessor
 * in their submission order.  If @pred has already left, the grid is
 * submitted at once for @pred's &gtbs_grid.leave_cycle plus
 * @after_cycles (@now if that has passed).  The owner must keep @pred
 * alive until it has left the device, which it does anyway: a grid is
 * freed only once DONE, TIMED_OUT or CANCELLED.
 *
 * Context: device lock held.
 */
void gtbs_grid_submit_after(struct gtbs_dev *dev, struct gtbs_grid *grid,
			    u64 now, struct gtbs_grid *pred, u64 after_cycles)
{
	gtbs_lockdep_assert_held(dev);
	after_cycles = min(after_cycles, GTBS_MAX_AFTER_CYCLES);
	grid->after_cycles = after_cycles;
	if (gtbs_grid_left(pred)) {
		gtbs_grid_submit_at(dev, grid, now,
				    pred->leave_cycle + after_cycles);
		return;
	}
	grid->state = GTBS_GRID_WAITING;
	grid->submit_cycle = max(now, dev->clock);
	grid->after = pred;
	list_add_tail(&grid->after_node, &pred->dependents);
	list_add_tail(&grid->node, &dev->waiting);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_submit_after);

/*
 * @grid has just left the device at @cycle (DONE, TIMED_OUT or
 * CANCELLED): note the cycle and release its WAITING dependents, in their
 * submission order, onto the arrivals for @cycle plus their gap.
 * O(d log n) for d dependents and n ARRIVING grids, inside one event:
 * Documentation/reliability.rst, "Bounded work under the device lock",
 * gives the bound and the time it takes.  Lock held.
 */
static void gtbs_grid_release_dependents(struct gtbs_dev *dev,
					 struct gtbs_grid *grid, u64 cycle)
{
	struct gtbs_grid *dep, *tmp;

	grid->leave_cycle = cycle;
	list_for_each_entry_safe(dep, tmp, &grid->dependents, after_node) {
		list_del_init(&dep->after_node);
		list_del_init(&dep->node);	/* from &gtbs_dev.waiting */
		dep->after = NULL;
		gtbs_grid_submit_at(dev, dep, cycle, cycle + dep->after_cycles);
	}
}

/**
 * gtbs_dev_next_arrival() - cycle of the next deferred arrival
 * @dev: the device.
 *
 * Context: device lock held.
 * Return: the emulated cycle of the first ARRIVING grid, or U64_MAX.
 */
u64 gtbs_dev_next_arrival(const struct gtbs_dev *dev)
{
	gtbs_lockdep_assert_held(dev);
	if (list_empty(&dev->arrivals))
		return U64_MAX;
	return list_entry(dev->arrivals.next, struct gtbs_grid,
			  node)->submit_cycle;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_next_arrival);

/**
 * gtbs_dev_next_expiry() - cycle of the next job timeout
 * @dev: the device.
 *
 * Context: device lock held.
 * Return: the &gtbs_grid.expire_cycle of the first grid on
 * &gtbs_dev.timeouts, or U64_MAX.
 */
u64 gtbs_dev_next_expiry(const struct gtbs_dev *dev)
{
	gtbs_lockdep_assert_held(dev);
	if (list_empty(&dev->timeouts))
		return U64_MAX;
	return list_first_entry(&dev->timeouts, struct gtbs_grid,
				timeout_node)->expire_cycle;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_next_expiry);

/*
 * &gtbs_dev.timeouts, indexed by &gtbs_dev.timeout_tree exactly as the
 * arrivals are by theirs (gtbs_arrivals_add()): a grid is filed after
 * every grid that expires at or before its cycle, in O(log n) for n
 * grids with a job timeout, and the list keeps the order of the linear
 * scan this replaces, (expiry, order filed).  A grid's own
 * %GPUTBS_SUBMIT_TIMEOUT may make each launch expire before all running
 * grids: the scan then walked all of them at every launch.
 */
static bool gtbs_timeout_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct gtbs_grid, timeout_rb)->expire_cycle <
	       rb_entry(b, struct gtbs_grid, timeout_rb)->expire_cycle;
}

/* Take @grid off &gtbs_dev.timeouts if it is there.  Lock held. */
static void gtbs_timeouts_del(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	if (list_empty(&grid->timeout_node))
		return;
	list_del_init(&grid->timeout_node);
	rb_erase(&grid->timeout_rb, &dev->timeout_tree);
	RB_CLEAR_NODE(&grid->timeout_rb);
}

/*
 * (Re)file a RUNNING grid on &gtbs_dev.timeouts by its expiry: its start
 * plus its timeout, no earlier than the device's clock (a timeout lowered
 * at run time below what a grid has run stops it at once).  O(log n).
 * Lock held.
 */
static void gtbs_grid_arm_timeout(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	u64 timeout = gtbs_grid_timeout(dev, grid);
	struct rb_node *next;

	gtbs_timeouts_del(dev, grid);
	grid->expire_cycle = U64_MAX;
	if (!timeout)
		return;
	/* start_cycle <= clock < 2^63 and timeout <= 2^62: no overflow */
	grid->expire_cycle = max(grid->start_cycle + timeout, dev->clock);
	rb_add(&grid->timeout_rb, &dev->timeout_tree, gtbs_timeout_less);
	next = rb_next(&grid->timeout_rb);
	list_add_tail(&grid->timeout_node,
		      next ? &rb_entry(next, struct gtbs_grid,
				       timeout_rb)->timeout_node :
			     &dev->timeouts);
}

/**
 * gtbs_grid_sm_reslice_due() - whether a grid's next block end on an SM
 *	starts a slice
 * @dev: the device.
 * @gs: the grid's state on the SM.
 *
 * Reslice of the paper's Algorithm 1, including the slices started by
 * other grids' launches and ends that the state has not caught up with
 * (gtbs_slice_due(); the slicing rules are predictor.c's DOC "Slices").
 *
 * Context: device lock held.
 * Return: the effective Reslice flag.
 */
bool gtbs_grid_sm_reslice_due(const struct gtbs_dev *dev,
			      const struct gtbs_grid_sm *gs)
{
	return gtbs_slice_due(&gs->pred, gs->slice_gen, dev->slice_gen);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_sm_reslice_due);

/*
 * OnLaunch on every SM: the grid's first block starts.  Applied to the
 * pairs the grid has (the SM of its first block); a pair created later
 * starts from the launch's state (gtbs_grid_sm_get()).  Lock held.
 */
static void gtbs_grid_launch(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_grid_sm *gs;

	/* a new slice for the others; this grid's own starts at launch */
	gtbs_slice_on_kernel_launch(&dev->slice_gen);
	grid->launched = true;
	grid->launch_gen = dev->slice_gen;
	grid->launch_unaware = dev->slice_unaware;
	grid->launch_literal = dev->pred_mode == GTBS_PRED_LITERAL;
	/* arguments checked at submit: R is 1..max_blocks_per_sm */
	list_for_each_entry(gs, &grid->sms, node)
		gtbs_slice_join(&gs->pred, &gs->slice_gen, grid->launch_gen,
				grid->desc.nr_blocks, grid->occ.residency,
				dev->cfg.nr_sms, grid->launch_unaware,
				grid->launch_literal);
}

/* Issue the next block of @grid on @sm at sm->now.  Device lock held. */
/**
 * gtbs_slot_run() - the block in a slot starts running
 * @dev: the device.
 * @sm: its SM, at &gtbs_sm.now.
 * @slot: the slot; its grid holds its resources (gtbs_sm_take()).
 * @progress: the block's work left, progress units at its grid's full
 *	rate (gtbs_block_progress()).
 * @restored: the block's context was just restored.
 *
 * Joins the block to its rate group and the SM's load, and tells the
 * predictor (OnBlockStart; for a restored block Block_Start is set back
 * by the cycles it ran before, gtbs_pred_on_block_resume()) and, unless
 * the block is a restored one, the owner (&gtbs_backend_ops.block_start:
 * a restored block's was at its issue, when its restore began, as the
 * SM's slot has been its since).  Used by a new block's issue and at the
 * end of a restore (preempt.c).
 *
 * Context: device lock held.
 */
void gtbs_slot_run(struct gtbs_dev *dev, struct gtbs_sm *sm,
		   struct gtbs_slot *slot, u64 progress, bool restored)
{
	struct gtbs_grid *grid = slot->grid;
	struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);
	u32 index = slot - sm->slots;
	struct gtbs_rate_group *g;

	gtbs_lockdep_assert_held(dev);
	slot->phase = GTBS_SLOT_RUN;
	slot->start_cycle = sm->now;
	slot->group = gtbs_group_get(sm, grid);
	g = &sm->groups[slot->group];
	g->blocks++;
	slot->progress_end = g->progress + progress;
	gtbs_sm_load(sm, grid, 1);
	/* the issue made the pair; the slot is free in the predictor */
	if (slot->ran)
		gtbs_pred_on_block_resume(&gs->pred, index, sm->now, slot->ran);
	else
		gtbs_pred_on_block_start(&gs->pred, index, sm->now);
	if (restored)
		return;		/* the owner was told at its issue */
	if (dev->backend && dev->backend->block_start)
		dev->backend->block_start(dev, sm, grid, index, slot->block,
					  sm->now);
}

/*
 * @grid has no block it may issue (its last is out, or it is throttled):
 * off the pending list, the policy told, and the grids behind it may now
 * issue, on any SM.  Lock held.
 */
void gtbs_pending_leave(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now)
{
	list_del_init(&grid->pending_node);
	dev->nr_pending[grid->desc.prio_class]--;
	dev->pending_gen++;
	if (dev->policy->grid_update)
		dev->policy->grid_update(dev, NULL, grid);
	gtbs_dev_kick(dev, now);
}

/* @grid issued its last block: it leaves the pending list.  Lock held. */
static void gtbs_grid_issued_all(struct gtbs_dev *dev, struct gtbs_grid *grid,
				 u64 now)
{
	gtbs_pending_leave(dev, grid, now);
}

static void gtbs_issue(struct gtbs_dev *dev, struct gtbs_sm *sm,
		       struct gtbs_grid *grid)
{
	struct gtbs_slot *slot = sm->slots;
	u64 work;

	while (slot->grid)
		slot++;
	if (dev->top_class > grid->desc.prio_class)
		dev->promotions++;
	/* before its wait ends: a lent class protects what it issues */
	slot->issue_class = gtbs_grid_class(dev, grid, sm->now);
	grid->last_issue_cycle = sm->now;
	if (grid->nr_saved) {
		/* a preempted block first: restored, or run again */
		gtbs_issue_saved(dev, sm, grid, slot);
		if (!gtbs_grid_has_blocks(grid))
			gtbs_grid_issued_all(dev, grid, sm->now);
		return;
	}
	slot->grid = grid;
	slot->block = grid->next_block++;
	slot->ran = 0;
	slot->preempts = 0;
	work = gtbs_grid_block_work(dev, grid, slot->block);
	/* its duration at its grid's full rate, charged to a cap at once */
	gtbs_sm_take(dev, sm, slot, work);
	gtbs_sm_grid_enter(sm, slot, grid);
	dev->blocks_dispatched++;
	if (!gtbs_grid_has_blocks(grid))
		gtbs_grid_issued_all(dev, grid, sm->now);
	if (grid->state == GTBS_GRID_QUEUED) {
		grid->state = GTBS_GRID_RUNNING;
		grid->start_cycle = sm->now;
		gtbs_grid_launch(dev, grid);
		gtbs_grid_arm_timeout(dev, grid);
		if (dev->backend && dev->backend->grid_start)
			dev->backend->grid_start(dev, grid);
	}
	gtbs_slot_run(dev, sm, slot, gtbs_block_progress(work, grid->full_div),
		      false);
}

/* The highest effective class with a block to issue at @now.  Lock held. */
static u32 gtbs_dev_top_class(const struct gtbs_dev *dev, u64 now)
{
	const struct gtbs_grid *grid;
	u32 top = 0, class;

	for (class = 0; class < GTBS_NR_PRIO_CLASSES; class++)
		if (dev->nr_pending[class])
			top = class;
	if (!dev->starve_cycles)
		return top;
	list_for_each_entry(grid, &dev->pending, pending_node)
		top = max(top, gtbs_grid_class(dev, grid, now));
	return top;
}

/*
 * A grid's residency on the SM changed: in the predictor's extended mode
 * (&gtbs_dev.pred_mode) a new slice with Resident_Blocks the new count;
 * nothing in the literal mode (predictor.c).  Compared
 * after the SM issued blocks at this cycle, so a block replaced at the
 * cycle it ended is no change; a count of 0 is compared again when a block
 * arrives.  The same rule as the trace replay (trace-format.rst).
 *
 * Only the grids whose count on the SM changed since the last check
 * (&gtbs_sm.res_changed) are compared: any other resident grid's
 * Resident_Blocks already equals its count, set at the check after its
 * last change (a launch resets Resident_Blocks only on a grid with no
 * block resident before it, and its launching block marks its slot), so
 * comparing it again would change nothing.  O(changed grids) pairs read,
 * not one per resident block, and none for grids of the literal mode,
 * which are not marked (sm.h).
 */
static void gtbs_sm_check_residency(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	u32 i;

	for_each_set_bit(i, sm->res_changed, dev->cfg.max_blocks_per_sm) {
		struct gtbs_grid *grid = sm->slots[i].grid;
		struct gtbs_grid_sm *gs;

		if (!grid)
			continue;
		gs = gtbs_grid_sm(grid, sm->id);
		/* extended mode only; the count is 1..max_blocks_per_sm */
		gtbs_pred_on_residency(&gs->pred, gs->resident);
	}
	bitmap_zero(sm->res_changed, GTBS_MAX_BLOCKS_PER_SM);
}

/* Let the policy fill @sm at sm->now.  Device lock held. */
static void gtbs_sm_dispatch(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	struct gtbs_grid *grid;
	u32 reason;

	gtbs_sm_unkick(dev, sm);
	/* a full SM picks only if it may preempt (preempt.c) */
	while ((sm->nr_resident < dev->cfg.max_blocks_per_sm ||
		dev->preempt_mode != GTBS_PREEMPT_DRAIN) &&
	       !list_empty(&dev->pending)) {
		dev->pick_cycle = sm->now;
		dev->top_class = gtbs_dev_top_class(dev, sm->now);
		reason = GTBS_PICK_POLICY;
		grid = dev->policy->pick_grid(dev, sm, &reason);
		if (dev->backend && dev->backend->pick)
			dev->backend->pick(dev, sm, grid, reason);
		if (!grid || !gtbs_grid_has_blocks(grid))
			break;
		/* a tenant over its cap is throttled here (tenant.c) */
		if (grid->tenant->max_ppm &&
		    gtbs_tenant_check(dev, grid->tenant, sm->now))
			continue;
		if (!gtbs_sm_fits(dev, sm, grid)) {
			if (dev->preempt_mode == GTBS_PREEMPT_DRAIN)
				break;
			/* a flush makes room at once; a save at its end */
			gtbs_preempt_make_room(dev, sm, grid);
			/*
			 * A flushed block's true-up may have throttled the
			 * grid's tenant (gtbs_tenant_unhold()): it left the
			 * pending list and may not issue; pick again.
			 */
			if (!gtbs_grid_has_blocks(grid))
				continue;
			if (!gtbs_sm_fits(dev, sm, grid))
				break;
		}
		if (!gtbs_grid_sm_get(dev, grid, sm->id)) {
			/*
			 * No pair to be had (grid.c, "Per-(grid, SM)
			 * state"): the SM issues at this cycle once the
			 * owner refilled; its residency is compared then.
			 */
			dev->spare_short = true;
			gtbs_sm_kick_own(dev, sm, sm->now);
			return;
		}
		gtbs_issue(dev, sm, grid);
	}
	gtbs_sm_check_residency(dev, sm);
}

static void gtbs_grid_leave(struct gtbs_dev *dev, struct gtbs_grid *grid,
			    u64 cycle)
{
	list_del_init(&grid->node);
	if (!list_empty(&grid->pending_node)) {
		list_del_init(&grid->pending_node);
		dev->nr_pending[grid->desc.prio_class]--;
		dev->pending_gen++;
	}
	gtbs_timeouts_del(dev, grid);
	grid->expire_cycle = U64_MAX;
	gtbs_grid_tenant_leave(dev, grid, cycle);
	dev->nr_grids--;
	/* OnKernelEnd: a new slice for the others if it ever ran a block */
	gtbs_slice_on_kernel_end(&dev->slice_gen, grid->next_block > 0);
	if (dev->policy->grid_end)
		dev->policy->grid_end(dev, grid);
	gtbs_dev_kick(dev, cycle);
}

/* A new prediction for @grid on @sm (end of OnBlockEnd).  Lock held. */
static void gtbs_grid_predicted(struct gtbs_dev *dev, struct gtbs_sm *sm,
				struct gtbs_grid *grid)
{
	const struct gtbs_pred_sm *pred = &gtbs_grid_sm(grid, sm->id)->pred;

	if (!grid->nr_predictions++)
		grid->first_pred = pred->pred_cycles;
	grid->pred_remaining = gtbs_pred_remaining(pred, sm->now);
	grid->pred_cycle = sm->now;
	dev->predictions++;
	if (dev->policy->predict)
		dev->policy->predict(dev, sm, grid);
	if (dev->backend && dev->backend->predict)
		dev->backend->predict(dev, sm, grid);
}

static void gtbs_retire(struct gtbs_dev *dev, struct gtbs_sm *sm,
			struct gtbs_slot *slot)
{
	struct gtbs_grid *grid = slot->grid;
	struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);
	u32 index = slot - sm->slots;
	u32 block = slot->block;
	u64 start = slot->start_cycle;
	u64 ran = slot->ran;

	gtbs_sm_release(dev, sm, slot);
	grid->blocks_done++;
	sm->blocks_run++;
	if (dev->backend && dev->backend->block_end)
		dev->backend->block_end(dev, sm, grid, index, block, start,
					sm->now);
	/* its running time: the runs before a switch count (preempt.c) */
	if (dev->policy->block_end)
		dev->policy->block_end(dev, sm, grid, index, start - ran,
				       sm->now);
	/* OnBlockEnd; the slot held this block, so this cannot fail */
	if (gtbs_slice_on_block_end(&gs->pred, &gs->slice_gen, dev->slice_gen,
				    index, sm->now) > 0)
		gtbs_grid_predicted(dev, sm, grid);
	if (dev->policy->grid_update)
		dev->policy->grid_update(dev, sm, grid);
	if (grid->blocks_done < grid->desc.nr_blocks)
		return;
	grid->state = GTBS_GRID_DONE;
	grid->end_cycle = sm->now;
	dev->grids_completed++;
	gtbs_grid_leave(dev, grid, sm->now);
	gtbs_grid_release_dependents(dev, grid, sm->now);
	if (dev->backend && dev->backend->grid_done)
		dev->backend->grid_done(dev, grid);
}

/*
 * Release every resident block of @grid at @now, on every SM it holds
 * (each SM's clock is brought to @now first: blocks that share the SM are
 * charged the load up to @now), and drop its unissued blocks.  Lock held.
 */
static void gtbs_grid_evict(struct gtbs_dev *dev, struct gtbs_grid *grid,
			    u64 now)
{
	u32 i, j;

	for (i = 0; i < dev->cfg.nr_sms && grid->resident; i++) {
		struct gtbs_sm *sm = dev->sms[i];

		if (!gtbs_grid_sm_resident(grid, i))
			continue;
		gtbs_sm_sync(dev, sm, now);
		for (j = 0; j < dev->cfg.max_blocks_per_sm; j++)
			if (sm->slots[j].grid == grid)
				gtbs_slot_free(dev, sm, &sm->slots[j]);
		gtbs_sm_update_next(dev, sm);
		gtbs_sm_refile(dev, sm);
	}
	gtbs_grid_drop_saved(dev, grid);
}

/**
 * gtbs_grid_cancel() - remove a grid before it completes
 * @dev: the device.
 * @grid: a WAITING, ARRIVING, QUEUED or RUNNING grid; other states are
 *	left alone.  A WAITING grid just stops waiting for its predecessor,
 *	an ARRIVING grid due after @now just leaves the arrivals.
 * @now: emulated cycle of the cancellation, at or after &gtbs_dev.clock.
 *
 * An ARRIVING grid due after @now leaves the arrivals and every SM
 * re-evaluates at @now, since a policy may have kept SMs idle for it (the
 * serial sjf and ljf wait for a shorter grid about to arrive).
 * First runs the device up to @now; if the grid completed (or timed out)
 * by then it stays so (and its &gtbs_backend_ops.grid_done or
 * &gtbs_backend_ops.grid_timeout was called).  Otherwise its unissued
 * blocks are dropped and its resident blocks release their SM resources
 * at once; no callback is made for the grid.  Either way the grid's own
 * WAITING dependents are released for the cycle of the cancellation plus
 * their gap (gtbs_grid_submit_after()): a cancelled predecessor has left
 * the device; an owner that cancels a whole stream cancels them too.
 * An owner that catches up in
 * bounded steps passes &gtbs_dev.clock, so that the run here only takes
 * the events left at that one cycle.
 *
 * Context: device lock held.
 */
void gtbs_grid_cancel(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now)
{
	gtbs_lockdep_assert_held(dev);
	if (grid->state == GTBS_GRID_WAITING) {
		/* never seen by the policy: it just stops waiting */
		list_del_init(&grid->node);
		list_del_init(&grid->after_node);
		grid->after = NULL;
		grid->state = GTBS_GRID_CANCELLED;
		grid->end_cycle = max(now, dev->clock);
		gtbs_grid_release_dependents(dev, grid, grid->end_cycle);
		return;
	}
	if (grid->state == GTBS_GRID_ARRIVING && now < grid->submit_cycle) {
		gtbs_arrivals_del(dev, grid);
		grid->state = GTBS_GRID_CANCELLED;
		grid->end_cycle = grid->submit_cycle;
		gtbs_grid_release_dependents(dev, grid, max(now, dev->clock));
		/* a policy may hold SMs idle for it (sjf, ljf): not any more */
		gtbs_dev_kick(dev, max(now, dev->clock));
		return;
	}
	if (grid->state != GTBS_GRID_QUEUED &&
	    grid->state != GTBS_GRID_RUNNING &&
	    grid->state != GTBS_GRID_ARRIVING)
		return;
	gtbs_dev_run_until(dev, now);
	if (grid->state != GTBS_GRID_QUEUED &&
	    grid->state != GTBS_GRID_RUNNING)
		return;
	gtbs_grid_evict(dev, grid, now);
	grid->state = GTBS_GRID_CANCELLED;
	grid->end_cycle = max(now, grid->submit_cycle);
	dev->grids_cancelled++;
	gtbs_grid_leave(dev, grid, now);
	gtbs_grid_release_dependents(dev, grid, grid->end_cycle);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_cancel);

/*
 * The job timeout of the first grid on &gtbs_dev.timeouts is due at @now:
 * stop it like a cancellation, as TIMED_OUT, and tell the owner.  Lock
 * held.
 */
static void gtbs_grid_expire(struct gtbs_dev *dev, struct gtbs_grid *grid,
			     u64 now)
{
	grid->state = GTBS_GRID_TIMED_OUT;
	grid->end_cycle = now;
	dev->grids_timed_out++;
	/* before the eviction: the owner accounts SM time up to @now */
	if (dev->backend && dev->backend->grid_timeout)
		dev->backend->grid_timeout(dev, grid);
	gtbs_grid_evict(dev, grid, now);
	gtbs_grid_leave(dev, grid, now);
	gtbs_grid_release_dependents(dev, grid, now);
}

/**
 * gtbs_dev_set_timeout() - set the device's job timeout
 * @dev: the device.
 * @timeout_cycles: emulated cycles a grid may run from its first block's
 *	start, 0..%GTBS_MAX_TIMEOUT_CYCLES; 0 turns the device's timeout off
 *	(grids' own timeouts still apply).
 * @now: emulated cycle of the change, at or after &gtbs_dev.clock.
 *
 * Runs the device up to @now, then applies the new value to every running
 * grid too: a grid that has already run longer than a lowered timeout is
 * stopped at @now, by the next run of the device.
 *
 * Context: device lock held.
 */
void gtbs_dev_set_timeout(struct gtbs_dev *dev, u64 timeout_cycles, u64 now)
{
	struct gtbs_grid *grid;

	gtbs_lockdep_assert_held(dev);
	gtbs_dev_run_until(dev, now);
	dev->timeout_cycles = min(timeout_cycles, GTBS_MAX_TIMEOUT_CYCLES);
	list_for_each_entry(grid, &dev->grids, node)
		if (grid->state == GTBS_GRID_RUNNING)
			gtbs_grid_arm_timeout(dev, grid);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_set_timeout);

/**
 * gtbs_dev_set_pred_mode() - choose how the predictor treats residency
 * @dev: the device.
 * @mode: an &enum gtbs_pred_mode: %GTBS_PRED_LITERAL (paper Algorithm 1 as
 *	printed) or %GTBS_PRED_EXTENDED.
 *
 * Applies to grids launched from now on (OnLaunch fixes a grid's mode on
 * every SM, gtbs_pred_set_literal()); running grids keep theirs, so a
 * grid's predictions never mix the two rules.
 *
 * Context: device lock held.
 * Return: 0, or -EINVAL (nothing changed) for an unknown @mode.
 */
int gtbs_dev_set_pred_mode(struct gtbs_dev *dev, u32 mode)
{
	gtbs_lockdep_assert_held(dev);
	if (mode >= GTBS_NR_PRED_MODES)
		return -EINVAL;
	dev->pred_mode = mode;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_set_pred_mode);

/**
 * gtbs_pred_mode_name() - the name of a predictor mode
 * @mode: an &enum gtbs_pred_mode.
 *
 * Context: any.
 * Return: "extended" or "literal" (the names of the sysfs attribute
 * ``predictor`` and of gputbs-sim's --predictor), NULL for an unknown
 * @mode.
 */
const char *gtbs_pred_mode_name(u32 mode)
{
	static const char * const names[GTBS_NR_PRED_MODES] = {
		[GTBS_PRED_EXTENDED] = "extended",
		[GTBS_PRED_LITERAL] = "literal",
	};

	return mode < GTBS_NR_PRED_MODES ? names[mode] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_mode_name);

/*
 * Recompute the cycle of @sm's next block completion: each rate group's
 * earliest block end (no division), then its cycles once per group.  If
 * it moved, @sm joins &gtbs_dev.next_moved.  Lock held.
 */
static void gtbs_sm_update_next(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	u64 best = U64_MAX, end = U64_MAX, phase = U64_MAX;
	u64 old = sm->next_end;
	u32 i, seen;

	sm->next_end = U64_MAX;
	if (sm->nr_groups == 1) {
		/* the common case: one rate, the smallest end is first */
		for (i = 0, seen = 0; seen < sm->nr_resident; i++) {
			if (!sm->slots[i].grid)
				continue;
			seen++;
			if (sm->slots[i].phase != GTBS_SLOT_RUN)
				phase = min(phase, sm->slots[i].phase_end);
			else
				end = min(end, sm->slots[i].progress_end);
		}
		sm->groups[0].scan_end = end;
	} else {
		for (i = 0; i < sm->nr_groups; i++)
			sm->groups[i].scan_end = U64_MAX;
		for (i = 0, seen = 0; seen < sm->nr_resident; i++) {
			struct gtbs_slot *slot = &sm->slots[i];
			struct gtbs_rate_group *g;

			if (!slot->grid)
				continue;
			seen++;
			if (slot->phase != GTBS_SLOT_RUN) {
				phase = min(phase, slot->phase_end);
				continue;
			}
			g = &sm->groups[slot->group];
			g->scan_end = min(g->scan_end, slot->progress_end);
		}
	}
	for (i = 0; i < sm->nr_groups; i++) {
		struct gtbs_rate_group *g = &sm->groups[i];

		if (g->scan_end <= g->progress) {
			best = 0;
			break;
		}
		best = min(best, gtbs_group_cycles_to(sm, g,
						      g->scan_end - g->progress));
	}
	if (best != U64_MAX)
		sm->next_end = sm->now + best;
	/* a save or restore ends (preempt.c) */
	if (phase != U64_MAX)
		sm->next_end = min(sm->next_end, max(phase, sm->now));
	if (sm->next_end != old)
		__set_bit(sm->id, dev->next_moved);
}

/**
 * gtbs_dev_next_moved() - the SMs whose next block completion moved
 * @dev: the device.
 *
 * &gtbs_dev.next_moved: bit i is set once SM i's gtbs_sm_next_event()
 * changed, and stays set until its owner clears it.  An owner that keeps
 * one timer per SM at that cycle (the module, kmod/gputbs_sm.c) reads and
 * clears only these bits after a run, O(SMs / BITS_PER_LONG) plus the SMs
 * that moved, rather than asking every SM: a SUBMIT that issues one block
 * moves one SM.  Nothing in the core reads the bitmap.
 *
 * Context: device lock held.
 * Return: the bitmap, %GTBS_MAX_SMS bits, of which &gtbs_dev_config.nr_sms
 * are used; the caller may clear bits with __clear_bit() under the lock.
 */
unsigned long *gtbs_dev_next_moved(struct gtbs_dev *dev)
{
	gtbs_lockdep_assert_held(dev);
	return dev->next_moved;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_next_moved);

/**
 * gtbs_sm_next_event() - cycle of an SM's next block completion
 * @dev: the device.
 * @sm: the SM.
 *
 * Context: device lock held.
 * Return: emulated cycle, or U64_MAX if no block is resident.  O(1): the
 * engine keeps it in &gtbs_sm.next_end.
 */
u64 gtbs_sm_next_event(const struct gtbs_dev *dev, const struct gtbs_sm *sm)
{
	gtbs_lockdep_assert_held(dev);
	return sm->next_end;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_sm_next_event);

/* Retire the blocks of @sm whose end has been reached.  Lock held. */
static void gtbs_sm_retire_due(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	u32 i;

	for (i = 0; i < dev->cfg.max_blocks_per_sm; i++) {
		struct gtbs_slot *slot = &sm->slots[i];

		if (!slot->grid)
			continue;
		if (slot->phase != GTBS_SLOT_RUN) {
			if (slot->phase_end <= sm->now)
				gtbs_slot_phase_done(dev, sm, slot);
		} else if (slot->progress_end <=
			   sm->groups[slot->group].progress) {
			gtbs_retire(dev, sm, slot);
		}
	}
}

/**
 * gtbs_sm_advance() - run one SM up to an emulated cycle
 * @dev: the device.
 * @sm: the SM.
 * @now: emulated cycle to advance to; earlier than the SM's clock means
 *	the SM's clock.
 *
 * Processes every completion due by @now in cycle order, each at its own
 * cycle, letting the SM issue blocks after each, and finally lets it issue
 * blocks at @now.
 *
 * Context: device lock held; does not sleep.
 * Return: the cycle of the SM's next completion, or U64_MAX.
 */
u64 gtbs_sm_advance(struct gtbs_dev *dev, struct gtbs_sm *sm, u64 now)
{
	u64 next;

	gtbs_lockdep_assert_held(dev);
	now = max(now, sm->now);
	for (;;) {
		next = sm->next_end;
		if (next > now || next == U64_MAX)
			break;
		gtbs_sm_sync(dev, sm, next);
		gtbs_sm_retire_due(dev, sm);
		gtbs_sm_dispatch(dev, sm);
		gtbs_sm_update_next(dev, sm);
	}
	gtbs_sm_sync(dev, sm, now);
	gtbs_sm_dispatch(dev, sm);
	gtbs_sm_update_next(dev, sm);
	gtbs_sm_refile(dev, sm);
	return sm->next_end;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_sm_advance);

/**
 * gtbs_dev_next_event() - the device's next event
 * @dev: the device.
 *
 * Context: device lock held.
 * Return: emulated cycle of the next block completion, deferred arrival or
 * job timeout (or of a kick not yet processed: an SM to re-evaluate at
 * once), or U64_MAX when there is none.  O(1).
 */
u64 gtbs_dev_next_event(const struct gtbs_dev *dev)
{
	gtbs_lockdep_assert_held(dev);
	/* the heap's first SM; pending kicks (due at once) count too */
	return min(min(min(min(dev->heap_key[0],
			       dev->kick_cycle),
			   gtbs_dev_next_arrival(dev)),
		       gtbs_dev_next_expiry(dev)),
		   gtbs_dev_next_refill(dev));
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_next_event);

/**
 * gtbs_dev_run_bounded() - run the device in emulated-cycle order, at most
 *	a given number of events
 * @dev: the device.
 * @until: emulated cycle to stop at.
 * @budget: in: the most events to process, 0..U32_MAX; out: what is left
 *	of it (the caller learns how many events were processed).
 *
 * Processes the device's events in global cycle order (lowest SM index
 * first on ties) up to and including @until, and stops early once @budget
 * events were processed.  An event is a block completion (with the blocks
 * the SM issues at once: at most &gtbs_dev_config.max_blocks_per_sm of
 * each, so one event is O(slots x pick)), a kick (an SM whose scheduling
 * state changed because a grid arrived or ended issues blocks at the
 * kick's cycle, &gtbs_dev.kick_cycle or &gtbs_sm.kick_cycle), a deferred
 * arrival or a job timeout; a kick that finds no block left to issue is
 * undone without counting: the SMs of the device's pending kick
 * (gtbs_dev_kick()) that come before the heap's next event are undone
 * together in O(SMs / BITS_PER_LONG), plus an O(log SMs) refile for each of them
 * also kicked on its own (a deferred issue; an SM is kicked at most once
 * at a time), so a run does at most (@budget + 1) x SMs such refiles, the
 * order of what its counted events cost anyway.  At one cycle, the refill
 * of tenants throttled by their caps comes first (a tenant refilled at a
 * cycle may take the slots freed at it, tenant.c), then SM events, then
 * arrivals, then timeouts (a grid whose last block ends at its expiry
 * completes).
 *
 * Stopping early changes nothing in the schedule: the next call goes on
 * from the same event, so running a device in slices of any size gives
 * exactly the events, cycles and decisions of one gtbs_dev_run_until()
 * (the module bounds its lock hold times this way, kmod/gputbs_sm.c).
 * &gtbs_dev.clock says how far the device got.  With &gtbs_dev.spare_only
 * it also stops before an SM event while fewer than &gtbs_dev.spare_low
 * per-(grid, SM) states are spare, and after an event whose dispatch found
 * none (grid.c, "Per-(grid, SM) state"): the owner refills the reserve
 * outside its lock and calls again.
 *
 * Context: device lock held (or a device private to the caller).
 * Return: true when every event due by @until was processed (the device
 * is at @until), false when the budget ran out first or the reserve of
 * spare pairs needs a refill.
 */
bool gtbs_dev_run_bounded(struct gtbs_dev *dev, u64 until, u32 *budget)
{
	gtbs_lockdep_assert_held(dev);
	dev->spare_short = false;
	for (;;) {
		/* the SM with the earliest event, lowest index on ties */
		struct gtbs_sm *top = dev->sms[dev->sm_heap[0]], *first = top;
		u64 top_key = dev->heap_key[0], next = top_key, arrival, expiry;
		u64 refill;
		u64 ev;
		u32 kicked = gtbs_kick_first(dev);
		bool kick = false;

		/* the device's pending kick as if filed in the heap */
		if (kicked < dev->cfg.nr_sms &&
		    (dev->kick_cycle < next ||
		     (dev->kick_cycle == next && kicked < top->id))) {
			first = dev->sms[kicked];
			next = dev->kick_cycle;
			kick = true;
		}
		arrival = gtbs_dev_next_arrival(dev);
		expiry = gtbs_dev_next_expiry(dev);
		refill = gtbs_dev_next_refill(dev);
		ev = min(min(min(next, arrival), expiry), refill);
		if (ev == U64_MAX || ev > until) {
			if (until != U64_MAX)
				dev->clock = max(dev->clock, until);
			return true;
		}
		if (ev == refill) {
			/*
			 * Before the SMs' events of its cycle: a tenant
			 * refilled at a cycle may take the slots freed then
			 * (tenant.c).
			 */
			if (!*budget)
				return false;
			(*budget)--;
			dev->clock = max(dev->clock, ev);
			gtbs_dev_refill(dev, refill);
			continue;
		}
		if (ev == next && kick && list_empty(&dev->pending)) {
			/*
			 * As below, for every SM of the pending kick before
			 * the heap's first event: each comes before it,
			 * after the others, and would undo its kick (its
			 * next end is past the heap's first's).
			 */
			dev->clock = max(dev->clock, ev);
			gtbs_kick_undo(dev, top_key == next ?
					    top->id : dev->cfg.nr_sms);
			continue;
		}
		if (ev == next && first->kicked && first->next_end > next &&
		    list_empty(&dev->pending)) {
			/*
			 * A kick that found nothing left to issue (another
			 * SM took the last block first): the SM has nothing
			 * to do before its next end, where it is synced
			 * exactly.  Not counted against @budget (see
			 * above): a grid's arrival at 132 SMs would
			 * otherwise exhaust a slice of the module's budget
			 * undoing its kicks.
			 */
			dev->clock = max(dev->clock, ev);
			gtbs_sm_unkick(dev, first);
			gtbs_sm_refile(dev, first);
			continue;
		}
		if (!*budget)
			return false;
		/* too few spare pairs for an SM event (grid.c): refill first */
		if (ev == next && dev->spare_only &&
		    dev->nr_spare < dev->spare_low) {
			dev->spare_short = true;
			return false;
		}
		(*budget)--;
		dev->clock = max(dev->clock, ev);
		if (ev == next) {
			gtbs_sm_advance(dev, first, next);
			if (dev->spare_short)
				return false;	/* an issue was deferred */
		} else if (ev == arrival) {
			/* the SMs' events at the cycle came first */
			gtbs_grid_arrive(dev, list_first_entry(&dev->arrivals,
							       struct gtbs_grid,
							       node),
					 arrival);
		} else {
			gtbs_grid_expire(dev, list_first_entry(&dev->timeouts,
							       struct gtbs_grid,
							       timeout_node),
					 expiry);
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_run_bounded);

/**
 * gtbs_dev_run_until() - run the whole device in emulated-cycle order
 * @dev: the device.
 * @until: emulated cycle to stop at.
 *
 * gtbs_dev_run_bounded() without a budget: processes every event due by
 * @until.  Because every SM's events are taken in global order, the
 * schedule does not depend on who calls this or how late: the KUnit suite,
 * the unit tests and the simulator call it in pure virtual time, and the
 * module's SM kthreads run the device (in bounded slices) with the
 * wall-clock cycle when a timer or kick wakes them, so the module and the
 * simulator agree cycle for cycle.
 *
 * On a device with &gtbs_dev.spare_only it stops early when the reserve
 * of per-(grid, SM) states runs short (&gtbs_dev.spare_short): the events
 * left wait for the owner's next gtbs_dev_run_bounded() after a refill.
 * (The module runs the device to the cycle first, so the calls of the
 * core's own entry points find nothing left to run.)
 *
 * Context: device lock held (or a device private to the caller).
 */
void gtbs_dev_run_until(struct gtbs_dev *dev, u64 until)
{
	u32 budget;

	gtbs_lockdep_assert_held(dev);
	do {
		budget = U32_MAX;
	} while (!gtbs_dev_run_bounded(dev, until, &budget) &&
		 !dev->spare_short);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_run_until);

/**
 * gtbs_dev_idle() - whether the device has nothing queued or running
 * @dev: the device.
 *
 * Context: device lock held.
 * Return: true when no grid is QUEUED or RUNNING.
 */
bool gtbs_dev_idle(const struct gtbs_dev *dev)
{
	gtbs_lockdep_assert_held(dev);
	return list_empty(&dev->grids);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_idle);

/* Zero the policy's private areas of @grid (it and its per-SM states). */
static void gtbs_grid_priv_clear(const struct gtbs_dev *dev,
				 struct gtbs_grid *grid)
{
	struct gtbs_grid_sm *gs;

	memset(grid->policy_priv, 0, sizeof(grid->policy_priv));
	list_for_each_entry(gs, &grid->sms, node)
		memset(gs->policy_priv, 0, sizeof(gs->policy_priv));
}

/*
 * Zero every private area of the policy: the device's, the SMs', and
 * those of every grid the device holds (arrived or arriving).
 */
static void gtbs_policy_priv_clear(struct gtbs_dev *dev)
{
	struct gtbs_tenant *t;
	struct gtbs_grid *grid;
	u32 i;

	memset(dev->policy_priv, 0, sizeof(dev->policy_priv));
	for (i = 0; i < dev->cfg.nr_sms; i++)
		memset(dev->sms[i]->policy_priv, 0,
		       sizeof(dev->sms[i]->policy_priv));
	list_for_each_entry(grid, &dev->grids, node)
		gtbs_grid_priv_clear(dev, grid);
	list_for_each_entry(grid, &dev->arrivals, node)
		gtbs_grid_priv_clear(dev, grid);
	list_for_each_entry(grid, &dev->waiting, node)
		gtbs_grid_priv_clear(dev, grid);
	list_for_each_entry(t, &dev->tenants, node)
		memset(t->policy_priv, 0, sizeof(t->policy_priv));
}

/*
 * Attach &gtbs_dev.policy: its private areas zero, its parameters at
 * their defaults, then its own &gtbs_policy_ops.attach.  Lock held.
 */
static void gtbs_policy_attach(struct gtbs_dev *dev)
{
	const struct gtbs_policy_ops *policy = dev->policy;
	u32 i;

	gtbs_policy_priv_clear(dev);
	for (i = 0; i < policy->nr_params; i++)
		*(u64 *)((char *)dev->policy_priv + policy->params[i].offset) =
			policy->params[i].def;
	if (policy->attach)
		policy->attach(dev);
}

/**
 * gtbs_dev_set_policy() - switch the scheduling policy
 * @dev: the device.
 * @policy: the new policy, registered (gtbs_policy_get(): the caller
 *	holds a reference until the device stops using it).
 * @now: emulated cycle of the switch.
 *
 * Safe while grids run: runs the device up to @now under the old policy,
 * detaches it (&gtbs_policy_ops.detach, then every private area of it is
 * zeroed, so that nothing of it outlives the switch), attaches the new
 * one (parameters at their defaults, &gtbs_policy_ops.attach rebuilds its
 * state from the grids) and kicks every SM.  Resident blocks finish where
 * they are; no block is lost or run twice, because the engine, not the
 * policy, owns the grids and their blocks.  Selecting the current policy
 * does nothing (its parameters keep their values).
 *
 * Context: device lock held.
 */
void gtbs_dev_set_policy(struct gtbs_dev *dev,
			 const struct gtbs_policy_ops *policy, u64 now)
{
	gtbs_lockdep_assert_held(dev);
	gtbs_dev_run_until(dev, now);
	if (policy == dev->policy)
		return;
	if (dev->policy->detach)
		dev->policy->detach(dev);
	dev->policy = policy;
	dev->policy_switches++;
	gtbs_policy_attach(dev);
	gtbs_dev_kick(dev, now);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_set_policy);

