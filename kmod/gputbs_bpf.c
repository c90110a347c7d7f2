// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_bpf.c - thread block scheduling policies as BPF programs: the
 * gtbs_bpf_ops struct_ops type and the kfuncs its programs call.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: BPF policies
 *
 * A BPF program can be a gputbs policy, as sched_ext makes CPU scheduling
 * policies BPF programs: the module registers the struct_ops type
 * &struct gtbs_bpf_ops (register_bpf_struct_ops(), kernels since 6.9 with
 * module BTF), whose callbacks mirror the &struct gtbs_policy_ops a BPF
 * policy needs.  Attaching a map of the type (a struct_ops link,
 * ``gputbs policy load FILE.bpf.o``) registers a gputbs policy named by
 * &gtbs_bpf_ops.name, selectable like any other (sysfs ``policy``,
 * netlink); detaching it (the link's last reference closed, or
 * ``gputbs policy unload NAME``) withdraws the policy and switches the
 * device to fifo if it used it, grids running (gputbs_policy_withdraw():
 * the engine owns the grids, so none is lost).
 *
 * Context: every callback runs where the policy ops run, with the
 * device's spinlock held, in emulated time: the programs are never
 * sleepable (gputbs_bpf_check_member() refuses BPF_F_SLEEPABLE ones).
 * They read the engine's objects (the arguments are trusted pointers,
 * read only: gputbs_bpf_struct_access() refuses every write) and call the
 * kfuncs below; the grid a pick_grid program chooses is given with
 * gtbs_bpf_pick() and checked (gtbs_grid_eligible()) before the engine
 * uses it.  Documentation/bpf.rst is the reference.
 */
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "gputbs_bpf.h"
#include "gputbs_drv.h"

/**
 * struct gtbs_bpf_ops - a thread block scheduling policy in BPF
 * @pick_grid: required.  @sm may issue a block: choose the grid with
 *	gtbs_bpf_pick(), among those bpf_iter_gtbs_grid_next() yields (the
 *	eligible ones); choosing none leaves the SM idle until its next
 *	event (&gtbs_policy_ops.pick_grid).
 * @grid_arrive: optional.  @grid was submitted (&gtbs_policy_ops.grid_arrive).
 * @grid_end: optional.  @grid completed, was cancelled or timed out
 *	(&gtbs_policy_ops.grid_end).
 * @block_end: optional.  A block of @grid that ran in slot @slot of @sm
 *	from @start to @end, cycles, ended (&gtbs_policy_ops.block_end).
 * @name: the policy's name, [a-z0-9_-], 1..%GTBS_POLICY_NAME_LEN - 1
 *	characters, unique among the registered policies.
 *
 * Every callback runs with the device lock held: never sleepable.
 */
struct gtbs_bpf_ops {
	void (*pick_grid)(struct gtbs_dev *dev, struct gtbs_sm *sm);
	void (*grid_arrive)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*grid_end)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*block_end)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u64 start, u64 end);
	char name[GTBS_POLICY_NAME_LEN];
};

/**
 * struct gputbs_bpf_policy - the gputbs policy of one attached gtbs_bpf_ops
 * @ops: what the core sees, registered with gtbs_policy_register().
 * @bops: the attached ops (the struct_ops map's kernel copy).
 * @name: the policy's name, @ops.name.
 * @node: link in gputbs_bpf_policies.
 */
struct gputbs_bpf_policy {
	struct gtbs_policy_ops ops;
	const struct gtbs_bpf_ops *bops;
	char name[GTBS_POLICY_NAME_LEN];
	struct list_head node;
};

/* the device the policies run on: gputbs_bpf_init() */
static struct gputbs_device *gputbs_bpf_gdev;
/* serialises attach and detach; protects gputbs_bpf_policies */
static DEFINE_MUTEX(gputbs_bpf_lock);
static LIST_HEAD(gputbs_bpf_policies);

static const struct gtbs_bpf_ops *gputbs_bpf_ops_of(const struct gtbs_dev *dev)
{
	return container_of(dev->policy, struct gputbs_bpf_policy, ops)->bops;
}

/*
 * The pick: the program's gtbs_bpf_pick() stores the grid in the SM's
 * private area (the wrapper is the policy: sm_priv_size), read back here
 * and checked as the engine requires of every pick_grid.
 */
static struct gtbs_grid *gputbs_bpf_pick_grid(struct gtbs_dev *dev,
					      struct gtbs_sm *sm, u32 *reason)
{
	u64 *slot = gtbs_policy_priv(sm);
	struct gtbs_grid *grid;

	*slot = 0;
	gputbs_bpf_ops_of(dev)->pick_grid(dev, sm);
	grid = (struct gtbs_grid *)(uintptr_t)*slot;
	*slot = 0;
	if (grid && !gtbs_grid_eligible(dev, grid)) {
		pr_warn_ratelimited("gputbs: BPF policy %s picked grid %llu, which may not issue now\n",
				    dev->policy->name, grid->id);
		return NULL;
	}
	return grid;
}

static void gputbs_bpf_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	gputbs_bpf_ops_of(dev)->grid_arrive(dev, grid);
}

static void gputbs_bpf_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	gputbs_bpf_ops_of(dev)->grid_end(dev, grid);
}

static void gputbs_bpf_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
				 struct gtbs_grid *grid, u32 slot, u64 start,
				 u64 end)
{
	gputbs_bpf_ops_of(dev)->block_end(dev, sm, grid, slot, start, end);
}

/* --- kfuncs ------------------------------------------------------------ */

/*
 * The state behind &struct bpf_iter_gtbs_grid (gputbs_bpf.h).
 * @dev: the device, NULL once the iteration ended; @pos: the node in
 * &gtbs_dev.pending last yielded, or the list's head.
 */
struct gputbs_bpf_grid_iter {
	struct gtbs_dev *dev;
	struct list_head *pos;
} __aligned(8);

__bpf_kfunc_start_defs();

/**
 * bpf_iter_gtbs_grid_new() - start an iteration over the eligible grids
 * @it: the program's iterator (bpf_for_each(gtbs_grid, grid, dev)).
 * @dev: the device, an argument of the callback.
 *
 * The grids that may issue a block now (gtbs_grid_eligible()), in arrival
 * order (&gtbs_dev.pending): meaningful in &gtbs_bpf_ops.pick_grid, where
 * the engine set the class that may issue.
 *
 * Context: a gtbs_bpf_ops callback (device lock held).
 * Return: 0.
 */
__bpf_kfunc int bpf_iter_gtbs_grid_new(struct bpf_iter_gtbs_grid *it,
				       struct gtbs_dev *dev)
{
	struct gputbs_bpf_grid_iter *kit = (void *)it;

	BUILD_BUG_ON(sizeof(*kit) != sizeof(*it));
	kit->dev = dev;
	kit->pos = &dev->pending;
	return 0;
}

/**
 * bpf_iter_gtbs_grid_next() - the next eligible grid
 * @it: an iterator started with bpf_iter_gtbs_grid_new().
 *
 * Context: as bpf_iter_gtbs_grid_new().
 * Return: the grid (a trusted pointer), or NULL at the end.
 */
__bpf_kfunc struct gtbs_grid *bpf_iter_gtbs_grid_next(struct bpf_iter_gtbs_grid *it)
{
	struct gputbs_bpf_grid_iter *kit = (void *)it;
	struct gtbs_grid *grid;

	if (!kit->dev)
		return NULL;
	for (kit->pos = kit->pos->next; kit->pos != &kit->dev->pending;
	     kit->pos = kit->pos->next) {
		grid = list_entry(kit->pos, struct gtbs_grid, pending_node);
		if (gtbs_grid_eligible(kit->dev, grid))
			return grid;
	}
	kit->dev = NULL;
	return NULL;
}

/**
 * bpf_iter_gtbs_grid_destroy() - end an iteration
 * @it: the iterator.
 *
 * Context: as bpf_iter_gtbs_grid_new().
 */
__bpf_kfunc void bpf_iter_gtbs_grid_destroy(struct bpf_iter_gtbs_grid *it)
{
	struct gputbs_bpf_grid_iter *kit = (void *)it;

	kit->dev = NULL;
}

/**
 * gtbs_bpf_pick() - choose the grid @sm issues its next block from
 * @sm: the SM of &gtbs_bpf_ops.pick_grid.
 * @grid: a grid the iterator yielded.
 *
 * The last choice of the callback wins; the engine checks it
 * (gtbs_grid_eligible()) and issues nothing if it may not issue.
 *
 * Context: &gtbs_bpf_ops.pick_grid; elsewhere the choice is dropped.
 */
__bpf_kfunc void gtbs_bpf_pick(struct gtbs_sm *sm, struct gtbs_grid *grid)
{
	*(u64 *)gtbs_policy_priv(sm) = (uintptr_t)grid;
}

/**
 * gtbs_bpf_grid_eligible() - whether a grid may issue a block now
 * @dev: the device.
 * @grid: the grid.
 *
 * Context: a gtbs_bpf_ops callback; meaningful in pick_grid.
 * Return: gtbs_grid_eligible().
 */
__bpf_kfunc bool gtbs_bpf_grid_eligible(struct gtbs_dev *dev,
					struct gtbs_grid *grid)
{
	return gtbs_grid_eligible(dev, grid);
}

/**
 * gtbs_bpf_grid_remaining() - blocks of a grid waiting to issue
 * @grid: the grid.
 *
 * Context: a gtbs_bpf_ops callback.
 * Return: its unissued blocks plus its preempted blocks waiting to run
 * again (&gtbs_grid.nr_saved).
 */
__bpf_kfunc u32 gtbs_bpf_grid_remaining(struct gtbs_grid *grid)
{
	return grid->desc.nr_blocks - grid->next_block + grid->nr_saved;
}

/**
 * gtbs_bpf_grid_resident() - blocks of a grid holding a slot now
 * @grid: the grid.
 *
 * Context: a gtbs_bpf_ops callback.
 * Return: &gtbs_grid.resident, all SMs.
 */
__bpf_kfunc u32 gtbs_bpf_grid_resident(struct gtbs_grid *grid)
{
	return grid->resident;
}

/**
 * gtbs_bpf_grid_residency() - a grid's maximum residency per SM
 * @grid: the grid.
 *
 * Context: a gtbs_bpf_ops callback.
 * Return: R, the most of its blocks one SM holds at once
 * (&gtbs_occupancy.residency).
 */
__bpf_kfunc u32 gtbs_bpf_grid_residency(struct gtbs_grid *grid)
{
	return grid->occ.residency;
}

/**
 * gtbs_bpf_grid_class() - a grid's effective priority class
 * @dev: the device.
 * @grid: the grid.
 *
 * Context: a gtbs_bpf_ops callback.
 * Return: gtbs_grid_class() at the device's cycle (&enum gtbs_prio_class).
 */
__bpf_kfunc u32 gtbs_bpf_grid_class(struct gtbs_dev *dev,
				    struct gtbs_grid *grid)
{
	return gtbs_grid_class(dev, grid, dev->clock);
}

/**
 * gtbs_bpf_grid_predict() - the predictor's remaining time of a grid on an SM
 * @dev: the device.
 * @sm: the SM.
 * @grid: the grid.
 *
 * Context: a gtbs_bpf_ops callback.
 * Return: gtbs_pred_remaining() at @sm's cycle, cycles; U64_MAX where the
 * grid has no state on @sm (never issued a block there).
 */
__bpf_kfunc u64 gtbs_bpf_grid_predict(struct gtbs_dev *dev, struct gtbs_sm *sm,
				      struct gtbs_grid *grid)
{
	const struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);

	return gs ? gtbs_pred_remaining(&gs->pred, sm->now) : U64_MAX;
}

/**
 * gtbs_bpf_sm_free_slots() - free block slots of an SM
 * @dev: the device.
 * @sm: the SM.
 *
 * Context: a gtbs_bpf_ops callback.
 * Return: &gtbs_dev_config.max_blocks_per_sm less the blocks holding one.
 */
__bpf_kfunc u32 gtbs_bpf_sm_free_slots(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	return dev->cfg.max_blocks_per_sm - sm->nr_resident;
}

/**
 * gtbs_bpf_sm_now() - an SM's current cycle
 * @sm: the SM.
 *
 * Context: a gtbs_bpf_ops callback.
 * Return: &gtbs_sm.now, the cycle of the event the callback is for.
 */
__bpf_kfunc u64 gtbs_bpf_sm_now(struct gtbs_sm *sm)
{
	return sm->now;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(gputbs_bpf_kfunc_ids)
BTF_ID_FLAGS(func, bpf_iter_gtbs_grid_new, KF_ITER_NEW | KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_iter_gtbs_grid_next, KF_ITER_NEXT | KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_iter_gtbs_grid_destroy, KF_ITER_DESTROY)
BTF_ID_FLAGS(func, gtbs_bpf_pick, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_grid_eligible, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_grid_remaining, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_grid_resident, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_grid_residency, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_grid_class, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_grid_predict, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_sm_free_slots, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, gtbs_bpf_sm_now, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(gputbs_bpf_kfunc_ids)

static const struct btf_kfunc_id_set gputbs_bpf_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &gputbs_bpf_kfunc_ids,
};

/* --- the struct_ops type ----------------------------------------------- */

static bool gputbs_bpf_is_valid_access(int off, int size,
				       enum bpf_access_type type,
				       const struct bpf_prog *prog,
				       struct bpf_insn_access_aux *info)
{
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

/* The engine's objects are read only to the programs. */
static int gputbs_bpf_struct_access(struct bpf_verifier_log *log,
				    const struct bpf_reg_state *reg,
				    int off, int size)
{
	return -EACCES;
}

static const struct bpf_func_proto *
gputbs_bpf_get_func_proto(enum bpf_func_id func_id, const struct bpf_prog *prog)
{
	return bpf_base_func_proto(func_id, prog);
}

static const struct bpf_verifier_ops gputbs_bpf_verifier_ops = {
	.get_func_proto = gputbs_bpf_get_func_proto,
	.is_valid_access = gputbs_bpf_is_valid_access,
	.btf_struct_access = gputbs_bpf_struct_access,
};

static int gputbs_bpf_init_btf(struct btf *btf)
{
	return 0;
}

/* Every callback runs under the device's spinlock: none may sleep. */
static int gputbs_bpf_check_member(const struct btf_type *t,
				   const struct btf_member *member,
				   const struct bpf_prog *prog)
{
	return prog->sleepable ? -EINVAL : 0;
}

static int gputbs_bpf_init_member(const struct btf_type *t,
				  const struct btf_member *member,
				  void *kdata, const void *udata)
{
	const struct gtbs_bpf_ops *uops = udata;
	struct gtbs_bpf_ops *ops = kdata;

	if (__btf_member_bit_offset(t, member) !=
	    offsetof(struct gtbs_bpf_ops, name) * 8)
		return 0;
	/* a NUL-terminated name; gtbs_policy_check() checks the rest */
	if (!memchr(uops->name, '\0', sizeof(uops->name)))
		return -EINVAL;
	memcpy(ops->name, uops->name, sizeof(ops->name));
	return 1;
}

static int gputbs_bpf_validate(void *kdata)
{
	const struct gtbs_bpf_ops *ops = kdata;

	return ops->pick_grid ? 0 : -EINVAL;
}

static int gputbs_bpf_reg(void *kdata, struct bpf_link *link)
{
	const struct gtbs_bpf_ops *bops = kdata;
	struct gputbs_bpf_policy *p;
	int ret;

	if (!bops->pick_grid)
		return -EINVAL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->bops = bops;
	strscpy(p->name, bops->name, sizeof(p->name));
	p->ops.name = p->name;
	p->ops.pick_grid = gputbs_bpf_pick_grid;
	if (bops->grid_arrive)
		p->ops.grid_arrive = gputbs_bpf_grid_arrive;
	if (bops->grid_end)
		p->ops.grid_end = gputbs_bpf_grid_end;
	if (bops->block_end)
		p->ops.block_end = gputbs_bpf_block_end;
	p->ops.sm_priv_size = sizeof(u64);	/* gtbs_bpf_pick()'s choice */
	mutex_lock(&gputbs_bpf_lock);
	ret = gtbs_policy_register(&p->ops);
	if (!ret)
		list_add_tail(&p->node, &gputbs_bpf_policies);
	mutex_unlock(&gputbs_bpf_lock);
	if (ret) {
		kfree(p);
		return ret;
	}
	pr_info("gputbs: BPF policy %s attached\n", p->name);
	return 0;
}

static void gputbs_bpf_unreg(void *kdata, struct bpf_link *link)
{
	struct gputbs_bpf_policy *p, *found = NULL;

	mutex_lock(&gputbs_bpf_lock);
	list_for_each_entry(p, &gputbs_bpf_policies, node) {
		if (p->bops == kdata) {
			found = p;
			list_del(&p->node);
			break;
		}
	}
	mutex_unlock(&gputbs_bpf_lock);
	if (!found)
		return;
	/* no new selection finds it; then the device leaves it */
	gtbs_policy_unregister(&found->ops);
	gputbs_policy_withdraw(gputbs_bpf_gdev, &found->ops);
	pr_info("gputbs: BPF policy %s detached\n", found->name);
	kfree(found);
}

/* The stubs the trampolines are checked against (CFI). */
static void gputbs_bpf_stub_pick_grid(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
}

static void gputbs_bpf_stub_grid(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
}

static void gputbs_bpf_stub_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
				      struct gtbs_grid *grid, u32 slot,
				      u64 start, u64 end)
{
}

static struct gtbs_bpf_ops gputbs_bpf_cfi_stubs = {
	.pick_grid = gputbs_bpf_stub_pick_grid,
	.grid_arrive = gputbs_bpf_stub_grid,
	.grid_end = gputbs_bpf_stub_grid,
	.block_end = gputbs_bpf_stub_block_end,
};

static struct bpf_struct_ops gputbs_bpf_struct_ops = {
	.verifier_ops = &gputbs_bpf_verifier_ops,
	.init = gputbs_bpf_init_btf,
	.check_member = gputbs_bpf_check_member,
	.init_member = gputbs_bpf_init_member,
	.validate = gputbs_bpf_validate,
	.reg = gputbs_bpf_reg,
	.unreg = gputbs_bpf_unreg,
	.cfi_stubs = &gputbs_bpf_cfi_stubs,
	.name = "gtbs_bpf_ops",
	.owner = THIS_MODULE,
};

/**
 * gputbs_bpf_init() - register the struct_ops type and the kfuncs
 * @gdev: the device BPF policies run on.
 *
 * Without module BTF (a kernel without CONFIG_DEBUG_INFO_BTF_MODULES, or
 * a module built without the kernel's vmlinux) the registration fails:
 * gputbs then runs without BPF policies and says so once.
 *
 * Context: module init, after the device is made.
 */
void gputbs_bpf_init(struct gputbs_device *gdev)
{
	int ret;

	gputbs_bpf_gdev = gdev;
	ret = register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS,
					&gputbs_bpf_kfunc_set);
	if (!ret)
		ret = register_bpf_struct_ops(&gputbs_bpf_struct_ops,
					      gtbs_bpf_ops);
	if (ret)
		pr_notice("gputbs: no BPF policies (struct_ops gtbs_bpf_ops: %d)\n",
			  ret);
}
