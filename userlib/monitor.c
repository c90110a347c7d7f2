// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * monitor.c - libgputbs' client of the gputbs generic netlink family
 * (<linux/gputbs_netlink.h>), over libnl-genl-3.
 *
 * Requests go through libnl on their own socket: genl_ctrl_resolve() finds
 * the family, genlmsg_put() and nl_send_auto() send, nl_recvmsgs() runs
 * the callbacks that parse each reply against a policy.  The socket asks
 * for extended ACKs (NETLINK_EXT_ACK, NETLINK_CAP_ACK); libnl 3.7 does not
 * parse them, so the error callback does.  Events arrive on a second,
 * non-blocking socket that joined the "events" group; it is read with
 * recv() directly, so that ENOBUFS (the socket overflowed) reaches the
 * caller as such, and parsed with libnl's attribute functions.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <linux/magic.h>
#include <linux/netlink.h>

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "gputbs.h"
#include "gtbs_names.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define EV_BUF_SIZE	(64 * 1024)
#define EV_RCVBUF	(1024 * 1024)
/*
 * An interrupted dump (NLM_F_DUMP_INTR: the grids changed between its
 * messages) is tried again up to DUMP_RETRIES times, the k-th retry after
 * k ms: the changes come in bursts (grids ending and arriving together),
 * so retrying back to back tends to land in the same burst.  28 ms at most.
 */
#define DUMP_RETRIES	8

struct gputbs_monitor {
	struct nl_sock *req;
	struct nl_sock *ev;
	int family;
	char errmsg[256];
	/* parsed events of the last datagram not returned yet */
	struct gputbs_mon_event *queue;
	size_t qhead, qlen, qcap;
	unsigned char *buf;
};

/* libnl's error codes as errno values (the kernel's come as errno). */
static int nlerr(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return 0;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_PERM:
		return -EPERM;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_DUMP_INTR:
		return -EINTR;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_PROTO_MISMATCH:
	case NLE_NOADDR:
		return -EPROTONOSUPPORT;
	default:
		return -EIO;
	}
}

static int set_sockopt(struct nl_sock *sk, int opt)
{
	int one = 1;

	if (setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, opt, &one,
		       sizeof(one)))
		return -errno;
	return 0;
}

static int connect_sock(struct nl_sock **out)
{
	struct nl_sock *sk = nl_socket_alloc();
	int ret;

	*out = NULL;
	if (!sk)
		return -ENOMEM;
	ret = nlerr(genl_connect(sk));
	if (ret) {
		nl_socket_free(sk);
		return ret;
	}
	*out = sk;
	return 0;
}

GPUTBS_API int gputbs_monitor_open(unsigned int flags,
				   struct gputbs_monitor **out)
{
	struct gputbs_monitor *m;
	int ret, grp;

	*out = NULL;
	if (flags & ~GPUTBS_MONITOR_EVENTS)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	ret = connect_sock(&m->req);
	if (ret)
		goto err;
	/* extended ACKs, without the request echoed in them */
	set_sockopt(m->req, NETLINK_EXT_ACK);
	set_sockopt(m->req, NETLINK_CAP_ACK);
	m->family = genl_ctrl_resolve(m->req, GPUTBS_FAMILY_NAME);
	if (m->family < 0) {
		ret = nlerr(m->family);
		goto err;
	}
	if (flags & GPUTBS_MONITOR_EVENTS) {
		m->buf = malloc(EV_BUF_SIZE);
		ret = m->buf ? connect_sock(&m->ev) : -ENOMEM;
		if (ret)
			goto err;
		grp = genl_ctrl_resolve_grp(m->req, GPUTBS_FAMILY_NAME,
					    GPUTBS_MCGRP_EVENTS);
		if (grp < 0) {
			ret = nlerr(grp);
			goto err;
		}
		nl_socket_disable_seq_check(m->ev);
		nl_socket_set_buffer_size(m->ev, EV_RCVBUF, 0);
		ret = nlerr(nl_socket_set_nonblocking(m->ev));
		if (!ret)
			ret = nlerr(nl_socket_add_membership(m->ev, grp));
		if (ret)
			goto err;
	}
	*out = m;
	return 0;

err:
	gputbs_monitor_close(m);
	return ret;
}

GPUTBS_API void gputbs_monitor_close(struct gputbs_monitor *m)
{
	int saved = errno;

	if (!m)
		return;
	if (m->req)
		nl_socket_free(m->req);
	if (m->ev)
		nl_socket_free(m->ev);
	free(m->queue);
	free(m->buf);
	free(m);
	errno = saved;
}

GPUTBS_API int gputbs_monitor_fd(const struct gputbs_monitor *m)
{
	return m->ev ? nl_socket_get_fd(m->ev) : -EINVAL;
}

GPUTBS_API const char *gputbs_monitor_errmsg(const struct gputbs_monitor *m)
{
	return m->errmsg;
}

/* ---- parsing ------------------------------------------------------------- */

static __u32 get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static __u64 get_u64(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u64(tb[type]) : 0;
}

static void get_str(struct nlattr **tb, int type, char *buf, size_t len)
{
	buf[0] = '\0';
	if (tb[type])
		nla_strlcpy(buf, tb[type], len);
}

static struct nla_policy grid_policy[GPUTBS_A_GRID_MAX + 1] = {
	[GPUTBS_A_GRID_ID] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_PID] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_CLIENT_ID] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_HANDLE] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_LABEL] = { .type = NLA_STRING,
				  .maxlen = GPUTBS_LABEL_LEN },
	[GPUTBS_A_GRID_CLASS] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_STATE] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_NR_BLOCKS] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_BLOCKS_ISSUED] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_BLOCKS_DONE] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_RESIDENT] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_RESIDENCY] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_LIMITER] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_THREADS_PER_BLOCK] = { .type = NLA_U32 },
	[GPUTBS_A_GRID_SUBMIT_CYCLE] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_START_CYCLE] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_END_CYCLE] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_ALONE_CYCLES] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_NR_PREDICTIONS] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_PRED_REMAINING] = { .type = NLA_U64 },
	[GPUTBS_A_GRID_PRED_CYCLE] = { .type = NLA_U64 },
};

/* A grid from its attributes; the id and the state must be there. */
static int parse_grid(struct nlattr **tb, struct gputbs_mon_grid *g)
{
	memset(g, 0, sizeof(*g));
	if (!tb[GPUTBS_A_GRID_ID] || !tb[GPUTBS_A_GRID_STATE])
		return -EPROTO;
	g->id = get_u64(tb, GPUTBS_A_GRID_ID);
	g->client_id = get_u64(tb, GPUTBS_A_GRID_CLIENT_ID);
	g->pid = get_u32(tb, GPUTBS_A_GRID_PID);
	g->handle = get_u32(tb, GPUTBS_A_GRID_HANDLE);
	get_str(tb, GPUTBS_A_GRID_LABEL, g->label, sizeof(g->label));
	g->prio_class = get_u32(tb, GPUTBS_A_GRID_CLASS);
	g->state = get_u32(tb, GPUTBS_A_GRID_STATE);
	g->nr_blocks = get_u32(tb, GPUTBS_A_GRID_NR_BLOCKS);
	g->blocks_issued = get_u32(tb, GPUTBS_A_GRID_BLOCKS_ISSUED);
	g->blocks_done = get_u32(tb, GPUTBS_A_GRID_BLOCKS_DONE);
	g->resident = get_u32(tb, GPUTBS_A_GRID_RESIDENT);
	g->residency = get_u32(tb, GPUTBS_A_GRID_RESIDENCY);
	g->limiter = get_u32(tb, GPUTBS_A_GRID_LIMITER);
	g->threads_per_block = get_u32(tb, GPUTBS_A_GRID_THREADS_PER_BLOCK);
	g->submit_cycle = get_u64(tb, GPUTBS_A_GRID_SUBMIT_CYCLE);
	g->alone_cycles = get_u64(tb, GPUTBS_A_GRID_ALONE_CYCLES);
	g->nr_predictions = get_u64(tb, GPUTBS_A_GRID_NR_PREDICTIONS);
	if (tb[GPUTBS_A_GRID_START_CYCLE]) {
		g->flags |= GPUTBS_MON_GRID_STARTED;
		g->start_cycle = get_u64(tb, GPUTBS_A_GRID_START_CYCLE);
	}
	if (tb[GPUTBS_A_GRID_END_CYCLE]) {
		g->flags |= GPUTBS_MON_GRID_ENDED;
		g->end_cycle = get_u64(tb, GPUTBS_A_GRID_END_CYCLE);
	}
	if (tb[GPUTBS_A_GRID_PRED_REMAINING]) {
		g->flags |= GPUTBS_MON_GRID_PREDICTED;
		g->pred_remaining = get_u64(tb, GPUTBS_A_GRID_PRED_REMAINING);
		g->pred_cycle = get_u64(tb, GPUTBS_A_GRID_PRED_CYCLE);
	}
	return 0;
}

static struct nla_policy slot_policy[GPUTBS_A_SLOT_MAX + 1] = {
	[GPUTBS_A_SLOT_INDEX] = { .type = NLA_U32 },
	[GPUTBS_A_SLOT_GRID_ID] = { .type = NLA_U64 },
	[GPUTBS_A_SLOT_BLOCK] = { .type = NLA_U32 },
	[GPUTBS_A_SLOT_START_CYCLE] = { .type = NLA_U64 },
};

static struct nla_policy sm_policy[GPUTBS_A_SM_MAX + 1] = {
	[GPUTBS_A_SM_ID] = { .type = NLA_U32 },
	[GPUTBS_A_SM_RESIDENT_BLOCKS] = { .type = NLA_U32 },
	[GPUTBS_A_SM_FREE_BLOCKS] = { .type = NLA_U32 },
	[GPUTBS_A_SM_FREE_THREADS] = { .type = NLA_U32 },
	[GPUTBS_A_SM_FREE_WARPS] = { .type = NLA_U32 },
	[GPUTBS_A_SM_FREE_REGS] = { .type = NLA_U32 },
	[GPUTBS_A_SM_FREE_SHMEM] = { .type = NLA_U32 },
	[GPUTBS_A_SM_BLOCKS_RUN] = { .type = NLA_U64 },
	[GPUTBS_A_SM_BUSY_CYCLES] = { .type = NLA_U64 },
	[GPUTBS_A_SM_NOW_CYCLE] = { .type = NLA_U64 },
	[GPUTBS_A_SM_SHARING] = { .type = NLA_FLAG },
	[GPUTBS_A_SM_SLOT] = { .type = NLA_NESTED },
};

static int parse_sm(struct nlmsghdr *nlh, struct gputbs_mon_sm *sm)
{
	struct nlattr *tb[GPUTBS_A_SM_MAX + 1], *st[GPUTBS_A_SLOT_MAX + 1];
	struct nlattr *attr;
	int ret, rem;

	memset(sm, 0, sizeof(*sm));
	ret = genlmsg_parse(nlh, 0, tb, GPUTBS_A_SM_MAX, sm_policy);
	if (ret < 0)
		return -EPROTO;
	if (!tb[GPUTBS_A_SM_ID])
		return -EPROTO;
	sm->id = get_u32(tb, GPUTBS_A_SM_ID);
	sm->resident_blocks = get_u32(tb, GPUTBS_A_SM_RESIDENT_BLOCKS);
	sm->free_blocks = get_u32(tb, GPUTBS_A_SM_FREE_BLOCKS);
	sm->free_threads = get_u32(tb, GPUTBS_A_SM_FREE_THREADS);
	sm->free_warps = get_u32(tb, GPUTBS_A_SM_FREE_WARPS);
	sm->free_regs = get_u32(tb, GPUTBS_A_SM_FREE_REGS);
	sm->free_shmem = get_u32(tb, GPUTBS_A_SM_FREE_SHMEM);
	sm->sharing = !!tb[GPUTBS_A_SM_SHARING];
	sm->blocks_run = get_u64(tb, GPUTBS_A_SM_BLOCKS_RUN);
	sm->busy_cycles = get_u64(tb, GPUTBS_A_SM_BUSY_CYCLES);
	sm->now_cycle = get_u64(tb, GPUTBS_A_SM_NOW_CYCLE);
	/* multi-attr: walk the message's top-level attributes */
	nlmsg_for_each_attr(attr, nlh, GENL_HDRLEN, rem) {
		struct gputbs_mon_slot *s;

		if (nla_type(attr) != GPUTBS_A_SM_SLOT)
			continue;
		if (sm->nr_slots == GPUTBS_MON_MAX_SLOTS)
			return -EPROTO;
		if (nla_parse_nested(st, GPUTBS_A_SLOT_MAX, attr, slot_policy) ||
		    !st[GPUTBS_A_SLOT_GRID_ID])
			return -EPROTO;
		s = &sm->slots[sm->nr_slots++];
		s->index = get_u32(st, GPUTBS_A_SLOT_INDEX);
		s->block = get_u32(st, GPUTBS_A_SLOT_BLOCK);
		s->grid_id = get_u64(st, GPUTBS_A_SLOT_GRID_ID);
		s->start_cycle = get_u64(st, GPUTBS_A_SLOT_START_CYCLE);
	}
	return 0;
}

static struct nla_policy dev_policy[GPUTBS_A_DEV_MAX + 1] = {
	[GPUTBS_A_DEV_POLICY] = { .type = NLA_STRING },
	[GPUTBS_A_DEV_POLICIES] = { .type = NLA_STRING },
	[GPUTBS_A_DEV_NR_SMS] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_WARP_SIZE] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_SM_THREADS] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_SM_REGS] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_SM_SHMEM] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_SM_BLOCKS] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_SM_WARPS] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_TIME_SCALE_PS] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_EPOCH_NS] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_NOW_CYCLE] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_GRIDS_ARRIVING] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_GRIDS_QUEUED] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_GRIDS_RUNNING] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_GRIDS_SUBMITTED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_GRIDS_COMPLETED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_BLOCKS_DISPATCHED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_PREDICTIONS] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_PROMOTIONS] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_POLICY_SWITCHES] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_SHARING_SWITCHES] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_EVENTS_QUEUED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_EVENTS_SENT] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_EVENTS_DROPPED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_GRIDS_CANCELLED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_GRIDS_TIMED_OUT] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_TIMEOUT_NS] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_PARAM] = { .type = NLA_NESTED },
	[GPUTBS_A_DEV_PREEMPT_MODE] = { .type = NLA_U32 },
	[GPUTBS_A_DEV_BLOCKS_SWITCHED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_BLOCKS_FLUSHED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_BLOCKS_RESTORED] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_SWITCH_CYCLES] = { .type = NLA_U64 },
	[GPUTBS_A_DEV_FLUSHED_CYCLES] = { .type = NLA_U64 },
};

static struct nla_policy param_policy[GPUTBS_A_PARAM_MAX + 1] = {
	[GPUTBS_A_PARAM_NAME] = { .type = NLA_STRING },
	[GPUTBS_A_PARAM_VALUE] = { .type = NLA_U64 },
	[GPUTBS_A_PARAM_VALUE_NAME] = { .type = NLA_STRING },
	[GPUTBS_A_PARAM_MINIMUM] = { .type = NLA_U64 },
	[GPUTBS_A_PARAM_MAXIMUM] = { .type = NLA_U64 },
	[GPUTBS_A_PARAM_DEFAULT] = { .type = NLA_U64 },
	[GPUTBS_A_PARAM_UNIT] = { .type = NLA_STRING },
};

/* One param nest of dev-get into @p: 0, or -EPROTO. */
static int parse_param(struct nlattr *nest, struct gputbs_mon_param *p)
{
	struct nlattr *tb[GPUTBS_A_PARAM_MAX + 1];

	if (nla_parse_nested(tb, GPUTBS_A_PARAM_MAX, nest, param_policy) < 0 ||
	    !tb[GPUTBS_A_PARAM_NAME] || !tb[GPUTBS_A_PARAM_VALUE] ||
	    !tb[GPUTBS_A_PARAM_MINIMUM] || !tb[GPUTBS_A_PARAM_MAXIMUM] ||
	    !tb[GPUTBS_A_PARAM_DEFAULT])
		return -EPROTO;
	get_str(tb, GPUTBS_A_PARAM_NAME, p->name, sizeof(p->name));
	get_str(tb, GPUTBS_A_PARAM_VALUE_NAME, p->value_name,
		sizeof(p->value_name));
	get_str(tb, GPUTBS_A_PARAM_UNIT, p->unit, sizeof(p->unit));
	p->value = get_u64(tb, GPUTBS_A_PARAM_VALUE);
	p->minimum = get_u64(tb, GPUTBS_A_PARAM_MINIMUM);
	p->maximum = get_u64(tb, GPUTBS_A_PARAM_MAXIMUM);
	p->def = get_u64(tb, GPUTBS_A_PARAM_DEFAULT);
	return 0;
}

static int parse_dev(struct nlmsghdr *nlh, struct gputbs_mon_dev *d)
{
	struct nlattr *tb[GPUTBS_A_DEV_MAX + 1], *attr;
	size_t used = 0;
	int rem;

	memset(d, 0, sizeof(*d));
	if (genlmsg_parse(nlh, 0, tb, GPUTBS_A_DEV_MAX, dev_policy) < 0 ||
	    !tb[GPUTBS_A_DEV_POLICY] || !tb[GPUTBS_A_DEV_NR_SMS])
		return -EPROTO;
	get_str(tb, GPUTBS_A_DEV_POLICY, d->policy, sizeof(d->policy));
	nlmsg_for_each_attr(attr, nlh, GENL_HDRLEN, rem) {
		char name[GPUTBS_POLICY_NAME_LEN];
		int n;

		if (nla_type(attr) == GPUTBS_A_DEV_PARAM) {
			if (d->nr_params == GPUTBS_MON_MAX_PARAMS ||
			    parse_param(attr, &d->params[d->nr_params]))
				return -EPROTO;
			d->nr_params++;
			continue;
		}
		if (nla_type(attr) != GPUTBS_A_DEV_POLICIES)
			continue;
		nla_strlcpy(name, attr, sizeof(name));
		n = snprintf(d->policies + used, sizeof(d->policies) - used,
			     "%s%s", used ? " " : "", name);
		if (n < 0 || (size_t)n >= sizeof(d->policies) - used)
			return -EPROTO;
		used += n;
	}
	d->nr_sms = get_u32(tb, GPUTBS_A_DEV_NR_SMS);
	d->warp_size = get_u32(tb, GPUTBS_A_DEV_WARP_SIZE);
	d->sm_threads = get_u32(tb, GPUTBS_A_DEV_SM_THREADS);
	d->sm_regs = get_u32(tb, GPUTBS_A_DEV_SM_REGS);
	d->sm_shmem = get_u32(tb, GPUTBS_A_DEV_SM_SHMEM);
	d->sm_blocks = get_u32(tb, GPUTBS_A_DEV_SM_BLOCKS);
	d->sm_warps = get_u32(tb, GPUTBS_A_DEV_SM_WARPS);
	d->time_scale_ps = get_u32(tb, GPUTBS_A_DEV_TIME_SCALE_PS);
	d->grids_arriving = get_u32(tb, GPUTBS_A_DEV_GRIDS_ARRIVING);
	d->grids_queued = get_u32(tb, GPUTBS_A_DEV_GRIDS_QUEUED);
	d->grids_running = get_u32(tb, GPUTBS_A_DEV_GRIDS_RUNNING);
	d->epoch_ns = get_u64(tb, GPUTBS_A_DEV_EPOCH_NS);
	d->now_cycle = get_u64(tb, GPUTBS_A_DEV_NOW_CYCLE);
	d->grids_submitted = get_u64(tb, GPUTBS_A_DEV_GRIDS_SUBMITTED);
	d->grids_completed = get_u64(tb, GPUTBS_A_DEV_GRIDS_COMPLETED);
	d->blocks_dispatched = get_u64(tb, GPUTBS_A_DEV_BLOCKS_DISPATCHED);
	d->predictions = get_u64(tb, GPUTBS_A_DEV_PREDICTIONS);
	d->promotions = get_u64(tb, GPUTBS_A_DEV_PROMOTIONS);
	d->policy_switches = get_u64(tb, GPUTBS_A_DEV_POLICY_SWITCHES);
	d->sharing_switches = get_u64(tb, GPUTBS_A_DEV_SHARING_SWITCHES);
	d->events_queued = get_u64(tb, GPUTBS_A_DEV_EVENTS_QUEUED);
	d->events_sent = get_u64(tb, GPUTBS_A_DEV_EVENTS_SENT);
	d->events_dropped = get_u64(tb, GPUTBS_A_DEV_EVENTS_DROPPED);
	d->grids_cancelled = get_u64(tb, GPUTBS_A_DEV_GRIDS_CANCELLED);
	d->grids_timed_out = get_u64(tb, GPUTBS_A_DEV_GRIDS_TIMED_OUT);
	d->timeout_ns = get_u64(tb, GPUTBS_A_DEV_TIMEOUT_NS);
	d->preempt_mode = get_u32(tb, GPUTBS_A_DEV_PREEMPT_MODE);
	d->blocks_switched = get_u64(tb, GPUTBS_A_DEV_BLOCKS_SWITCHED);
	d->blocks_flushed = get_u64(tb, GPUTBS_A_DEV_BLOCKS_FLUSHED);
	d->blocks_restored = get_u64(tb, GPUTBS_A_DEV_BLOCKS_RESTORED);
	d->switch_cycles = get_u64(tb, GPUTBS_A_DEV_SWITCH_CYCLES);
	d->flushed_cycles = get_u64(tb, GPUTBS_A_DEV_FLUSHED_CYCLES);
	d->cap_period = get_u64(tb, GPUTBS_A_DEV_CAP_PERIOD);
	return 0;
}

static struct nla_policy tenant_policy[GPUTBS_A_TENANT_MAX + 1] = {
	[GPUTBS_A_TENANT_KIND] = { .type = NLA_U32 },
	[GPUTBS_A_TENANT_CGROUP_ID] = { .type = NLA_U64 },
	[GPUTBS_A_TENANT_CLIENT_ID] = { .type = NLA_U64 },
	[GPUTBS_A_TENANT_WEIGHT] = { .type = NLA_U32 },
	[GPUTBS_A_TENANT_MAX_PPM] = { .type = NLA_U32 },
	[GPUTBS_A_TENANT_SM_TIME] = { .type = NLA_U64 },
	[GPUTBS_A_TENANT_NOW_CYCLE] = { .type = NLA_U64 },
	[GPUTBS_A_TENANT_GRIDS] = { .type = NLA_U32 },
	[GPUTBS_A_TENANT_THROTTLED] = { .type = NLA_FLAG },
	[GPUTBS_A_TENANT_THROTTLED_CYCLES] = { .type = NLA_U64 },
	[GPUTBS_A_TENANT_THROTTLES] = { .type = NLA_U64 },
};

static int parse_tenant_msg(struct nlmsghdr *nlh, void *out)
{
	struct nlattr *tb[GPUTBS_A_TENANT_MAX + 1];
	struct gputbs_mon_tenant *t = out;

	memset(t, 0, sizeof(*t));
	if (genlmsg_parse(nlh, 0, tb, GPUTBS_A_TENANT_MAX, tenant_policy) < 0 ||
	    !tb[GPUTBS_A_TENANT_KIND] || !tb[GPUTBS_A_TENANT_WEIGHT])
		return -EPROTO;
	t->kind = get_u32(tb, GPUTBS_A_TENANT_KIND);
	t->weight = get_u32(tb, GPUTBS_A_TENANT_WEIGHT);
	t->cgroup_id = get_u64(tb, GPUTBS_A_TENANT_CGROUP_ID);
	t->client_id = get_u64(tb, GPUTBS_A_TENANT_CLIENT_ID);
	t->max_ppm = get_u32(tb, GPUTBS_A_TENANT_MAX_PPM);
	t->grids = get_u32(tb, GPUTBS_A_TENANT_GRIDS);
	t->sm_time = get_u64(tb, GPUTBS_A_TENANT_SM_TIME);
	t->now_cycle = get_u64(tb, GPUTBS_A_TENANT_NOW_CYCLE);
	t->throttled_cycles = get_u64(tb, GPUTBS_A_TENANT_THROTTLED_CYCLES);
	t->throttles = get_u64(tb, GPUTBS_A_TENANT_THROTTLES);
	t->throttled = !!tb[GPUTBS_A_TENANT_THROTTLED];
	return 0;
}

static struct nla_policy event_policy[GPUTBS_A_EVENT_MAX + 1] = {
	[GPUTBS_A_EVENT_CYCLE] = { .type = NLA_U64 },
	[GPUTBS_A_EVENT_TIME_NS] = { .type = NLA_U64 },
	[GPUTBS_A_EVENT_GRID] = { .type = NLA_NESTED },
	[GPUTBS_A_EVENT_BY_GRID_ID] = { .type = NLA_U64 },
	[GPUTBS_A_EVENT_SM] = { .type = NLA_U32 },
	[GPUTBS_A_EVENT_REASON] = { .type = NLA_U32 },
	[GPUTBS_A_EVENT_POLICY] = { .type = NLA_STRING },
	[GPUTBS_A_EVENT_OLD_POLICY] = { .type = NLA_STRING },
	[GPUTBS_A_EVENT_LOST] = { .type = NLA_U64 },
};

/* An event from a notification; -ENOENT for a command it does not know. */
static int parse_event(struct nlmsghdr *nlh, struct gputbs_mon_event *ev)
{
	struct nlattr *tb[GPUTBS_A_EVENT_MAX + 1], *gt[GPUTBS_A_GRID_MAX + 1];
	struct genlmsghdr *gnlh = nlmsg_data(nlh);

	memset(ev, 0, sizeof(*ev));
	switch (gnlh->cmd) {
	case GPUTBS_CMD_GRID_SUBMITTED_NTF:
		ev->type = GPUTBS_EVENT_GRID_SUBMITTED;
		break;
	case GPUTBS_CMD_GRID_STARTED_NTF:
		ev->type = GPUTBS_EVENT_GRID_STARTED;
		break;
	case GPUTBS_CMD_GRID_PREEMPTED_NTF:
		ev->type = GPUTBS_EVENT_GRID_PREEMPTED;
		break;
	case GPUTBS_CMD_GRID_COMPLETED_NTF:
		ev->type = GPUTBS_EVENT_GRID_COMPLETED;
		break;
	case GPUTBS_CMD_GRID_CANCELLED_NTF:
		ev->type = GPUTBS_EVENT_GRID_CANCELLED;
		break;
	case GPUTBS_CMD_POLICY_CHANGED_NTF:
		ev->type = GPUTBS_EVENT_POLICY_CHANGED;
		break;
	case GPUTBS_CMD_EVENTS_LOST_NTF:
		ev->type = GPUTBS_EVENT_LOST;
		break;
	case GPUTBS_CMD_GRID_TIMED_OUT_NTF:
		ev->type = GPUTBS_EVENT_GRID_TIMED_OUT;
		break;
	default:
		return -ENOENT;
	}
	if (genlmsg_parse(nlh, 0, tb, GPUTBS_A_EVENT_MAX, event_policy) < 0)
		return -EPROTO;
	ev->cycle = get_u64(tb, GPUTBS_A_EVENT_CYCLE);
	ev->time_ns = get_u64(tb, GPUTBS_A_EVENT_TIME_NS);
	switch (ev->type) {
	case GPUTBS_EVENT_LOST:
		if (!tb[GPUTBS_A_EVENT_LOST])
			return -EPROTO;
		ev->lost = get_u64(tb, GPUTBS_A_EVENT_LOST);
		return 0;
	case GPUTBS_EVENT_POLICY_CHANGED:
		if (!tb[GPUTBS_A_EVENT_POLICY])
			return -EPROTO;
		get_str(tb, GPUTBS_A_EVENT_POLICY, ev->policy,
			sizeof(ev->policy));
		get_str(tb, GPUTBS_A_EVENT_OLD_POLICY, ev->old_policy,
			sizeof(ev->old_policy));
		return 0;
	default:
		break;
	}
	if (!tb[GPUTBS_A_EVENT_GRID] ||
	    nla_parse_nested(gt, GPUTBS_A_GRID_MAX, tb[GPUTBS_A_EVENT_GRID],
			     grid_policy) ||
	    parse_grid(gt, &ev->grid))
		return -EPROTO;
	ev->by_grid_id = get_u64(tb, GPUTBS_A_EVENT_BY_GRID_ID);
	ev->sm = get_u32(tb, GPUTBS_A_EVENT_SM);
	ev->reason = get_u32(tb, GPUTBS_A_EVENT_REASON);
	return 0;
}

/* ---- requests ------------------------------------------------------------ */

/**
 * struct request - one request and what its callbacks found
 * @m: the monitor.
 * @parse: parses one reply message into @arg; 0 or a negative errno.
 * @arg: for @parse.
 * @err: the first error: the kernel's, or @parse's.
 * @done: the ACK, the error or the end of the dump came.
 */
struct request {
	struct gputbs_monitor *m;
	int (*parse)(struct nlmsghdr *nlh, void *arg);
	void *arg;
	int err;
	bool done;
};

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int ret;

	if (r->err || !r->parse)
		return NL_OK;
	ret = r->parse(nlh, r->arg);
	if (ret)
		r->err = ret;
	return NL_OK;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct request *r = arg;

	(void)msg;
	r->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	return on_finish(msg, arg);
}

/*
 * The extended ACK of an error: NLMSGERR_ATTR_MSG, or the attribute that
 * was missing.  The TLVs follow struct nlmsgerr, and the request too
 * unless the kernel capped it (NLM_F_CAPPED).
 */
static void parse_extack(struct gputbs_monitor *m, struct nlmsgerr *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = NLMSG_HDRLEN + sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	off = NLMSG_ALIGN(off);
	if (off >= nlh->nlmsg_len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlh + off),
		      nlh->nlmsg_len - off, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(m->errmsg, tb[NLMSGERR_ATTR_MSG],
			    sizeof(m->errmsg));
	else if (tb[NLMSGERR_ATTR_MISS_TYPE])
		snprintf(m->errmsg, sizeof(m->errmsg), "missing attribute %u",
			 nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE] && tb[NLMSGERR_ATTR_MSG]) {
		size_t n = strlen(m->errmsg);

		snprintf(m->errmsg + n, sizeof(m->errmsg) - n, " (attribute %u)",
			 nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
	}
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct request *r = arg;

	(void)nla;
	if (!r->err)
		r->err = e->error < 0 ? e->error : -EPROTO;
	parse_extack(r->m, e);
	r->done = true;
	return NL_STOP;
}

/*
 * Send @cmd with the attributes @fill puts (may be NULL), as a dump if
 * @dump, and run @parse on each reply until the ACK, the error or the end
 * of the dump.  Returns 0 or a negative errno; -EINTR for a dump that the
 * kernel flagged as interrupted.
 */
static int request(struct gputbs_monitor *m, __u8 cmd, bool dump,
		   int (*fill)(struct nl_msg *msg, const void *arg),
		   const void *fill_arg,
		   int (*parse)(struct nlmsghdr *nlh, void *arg), void *arg)
{
	struct request r = { .m = m, .parse = parse, .arg = arg };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int ret;

	m->errmsg[0] = '\0';
	msg = nlmsg_alloc();
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!msg || !cb) {
		ret = -ENOMEM;
		goto out;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, m->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, GPUTBS_FAMILY_VERSION)) {
		ret = -ENOMEM;
		goto out;
	}
	if (fill) {
		ret = fill(msg, fill_arg);
		if (ret)
			goto out;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &r);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	/* NLM_F_ACK (libnl's auto-ACK): a do request ends with its ACK */
	ret = nl_send_auto(m->req, msg);
	if (ret < 0) {
		ret = nlerr(ret);
		goto out;
	}
	ret = 0;
	while (!r.done) {
		ret = nl_recvmsgs(m->req, cb);
		if (ret == -NLE_DUMP_INTR) {
			ret = -EINTR;
			break;
		}
		if (ret < 0 && !r.done) {
			ret = nlerr(ret);
			break;
		}
		ret = 0;
	}
	if (!ret)
		ret = r.err;
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	return ret;
}

/* Copy @len bytes of @src into the caller's @size-byte @dst. */
static void copy_out(void *dst, size_t size, const void *src, size_t len)
{
	memset(dst, 0, size);
	memcpy(dst, src, size < len ? size : len);
}

static int parse_dev_cb(struct nlmsghdr *nlh, void *arg)
{
	return parse_dev(nlh, arg);
}

GPUTBS_API int gputbs_monitor_get_device(struct gputbs_monitor *m,
					 struct gputbs_mon_dev *dev,
					 size_t size)
{
	struct gputbs_mon_dev d;
	int ret;

	memset(&d, 0, sizeof(d));
	ret = request(m, GPUTBS_CMD_DEV_GET, false, NULL, NULL, parse_dev_cb,
		      &d);
	if (!ret && !d.nr_sms)
		ret = -EPROTO;	/* no reply */
	if (!ret)
		copy_out(dev, size, &d, sizeof(d));
	return ret;
}

/* A growing array of replies of @len bytes each, @size bytes apart. */
struct array {
	void *data;
	size_t nr, cap, size, len;
	int (*parse)(struct nlmsghdr *nlh, void *out);
};

static int array_add(struct nlmsghdr *nlh, void *arg)
{
	struct array *a = arg;
	union {
		struct gputbs_mon_grid grid;
		struct gputbs_mon_sm sm;
		struct gputbs_mon_tenant tenant;
	} item;
	int ret;

	ret = a->parse(nlh, &item);
	if (ret)
		return ret;
	if (a->nr == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		void *p = realloc(a->data, cap * a->size);

		if (!p)
			return -ENOMEM;
		a->data = p;
		a->cap = cap;
	}
	copy_out((char *)a->data + a->nr * a->size, a->size, &item, a->len);
	a->nr++;
	return 0;
}

static int parse_grid_msg(struct nlmsghdr *nlh, void *out)
{
	struct nlattr *tb[GPUTBS_A_GRID_MAX + 1];

	if (genlmsg_parse(nlh, 0, tb, GPUTBS_A_GRID_MAX, grid_policy) < 0)
		return -EPROTO;
	return parse_grid(tb, out);
}

static int parse_sm_msg(struct nlmsghdr *nlh, void *out)
{
	return parse_sm(nlh, out);
}

static int dump(struct gputbs_monitor *m, __u8 cmd,
		int (*parse)(struct nlmsghdr *nlh, void *out), size_t len,
		void **out, size_t size, size_t *nr)
{
	struct array a = { .size = size, .len = len, .parse = parse };
	int ret, tries;

	*out = NULL;
	*nr = 0;
	if (!size)
		return -EINVAL;
	for (tries = 0; tries < DUMP_RETRIES; tries++) {
		if (tries)
			nanosleep(&(struct timespec){ .tv_nsec = tries * 1000000L },
				  NULL);
		a.nr = 0;
		ret = request(m, cmd, true, NULL, NULL, array_add, &a);
		if (ret != -EINTR)
			break;
		ret = -EAGAIN;	/* changed under the dump: again */
	}
	if (ret) {
		free(a.data);
		return ret;
	}
	*out = a.data;
	*nr = a.nr;
	return 0;
}

GPUTBS_API int gputbs_monitor_dump_grids(struct gputbs_monitor *m,
					 struct gputbs_mon_grid **grids,
					 size_t size, size_t *nr)
{
	return dump(m, GPUTBS_CMD_GRID_GET, parse_grid_msg,
		    sizeof(struct gputbs_mon_grid), (void **)grids, size, nr);
}

GPUTBS_API int gputbs_monitor_dump_sms(struct gputbs_monitor *m,
				       struct gputbs_mon_sm **sms, size_t size,
				       size_t *nr)
{
	return dump(m, GPUTBS_CMD_SM_GET, parse_sm_msg,
		    sizeof(struct gputbs_mon_sm), (void **)sms, size, nr);
}

GPUTBS_API int gputbs_monitor_dump_tenants(struct gputbs_monitor *m,
					   struct gputbs_mon_tenant **tenants,
					   size_t size, size_t *nr)
{
	return dump(m, GPUTBS_CMD_TENANT_GET, parse_tenant_msg,
		    sizeof(struct gputbs_mon_tenant), (void **)tenants, size,
		    nr);
}

static int fill_u64(struct nl_msg *msg, const void *arg)
{
	const __u64 *v = arg;

	return nla_put_u64(msg, GPUTBS_A_GRID_ID, *v) ? -EMSGSIZE : 0;
}

static int fill_u32(struct nl_msg *msg, const void *arg)
{
	const __u32 *v = arg;

	return nla_put_u32(msg, GPUTBS_A_SM_ID, *v) ? -EMSGSIZE : 0;
}

static int fill_policy(struct nl_msg *msg, const void *arg)
{
	return nla_put_string(msg, GPUTBS_A_DEV_POLICY, arg) ? -EMSGSIZE : 0;
}

/* param-set's request: a name and either a value or its text */
struct param_req {
	const char *name;
	const char *text;
	__u64 value;
};

static int fill_param(struct nl_msg *msg, const void *arg)
{
	const struct param_req *r = arg;

	if (nla_put_string(msg, GPUTBS_A_PARAM_NAME, r->name) ||
	    (r->text ? nla_put_string(msg, GPUTBS_A_PARAM_VALUE_NAME, r->text) :
		       nla_put_u64(msg, GPUTBS_A_PARAM_VALUE, r->value)))
		return -EMSGSIZE;
	return 0;
}

/* One reply of a do request into a one-element array. */
static int get_one(struct gputbs_monitor *m, __u8 cmd,
		   int (*fill)(struct nl_msg *msg, const void *arg),
		   const void *fill_arg,
		   int (*parse)(struct nlmsghdr *nlh, void *out), size_t len,
		   void *out, size_t size)
{
	struct array a = { .size = size, .len = len, .parse = parse };
	int ret;

	if (!size)
		return -EINVAL;
	ret = request(m, cmd, false, fill, fill_arg, array_add, &a);
	if (!ret && a.nr != 1)
		ret = -EPROTO;
	if (!ret)
		memcpy(out, a.data, size);
	free(a.data);
	return ret;
}

GPUTBS_API int gputbs_monitor_get_grid(struct gputbs_monitor *m, __u64 id,
				       struct gputbs_mon_grid *grid,
				       size_t size)
{
	return get_one(m, GPUTBS_CMD_GRID_GET, fill_u64, &id, parse_grid_msg,
		       sizeof(*grid), grid, size);
}

GPUTBS_API int gputbs_monitor_get_sm(struct gputbs_monitor *m, __u32 id,
				     struct gputbs_mon_sm *sm, size_t size)
{
	return get_one(m, GPUTBS_CMD_SM_GET, fill_u32, &id, parse_sm_msg,
		       sizeof(*sm), sm, size);
}

GPUTBS_API int gputbs_monitor_set_policy(struct gputbs_monitor *m,
					 const char *name)
{
	return request(m, GPUTBS_CMD_POLICY_SET, false, fill_policy, name,
		       NULL, NULL);
}

GPUTBS_API int gputbs_monitor_set_param(struct gputbs_monitor *m,
					const char *name, __u64 value)
{
	struct param_req r = { .name = name, .value = value };

	if (!name)
		return -EINVAL;
	return request(m, GPUTBS_CMD_PARAM_SET, false, fill_param, &r, NULL,
		       NULL);
}

GPUTBS_API int gputbs_monitor_set_param_text(struct gputbs_monitor *m,
					     const char *name,
					     const char *text)
{
	struct param_req r = { .name = name, .text = text };

	if (!name || !text)
		return -EINVAL;
	return request(m, GPUTBS_CMD_PARAM_SET, false, fill_param, &r, NULL,
		       NULL);
}

static int fill_preempt(struct nl_msg *msg, const void *arg)
{
	static const int budget_attrs[4] = {
		GPUTBS_A_DEV_PREEMPT_BUDGET_LOW,
		GPUTBS_A_DEV_PREEMPT_BUDGET_NORMAL,
		GPUTBS_A_DEV_PREEMPT_BUDGET_HIGH,
		GPUTBS_A_DEV_PREEMPT_BUDGET_REALTIME,
	};
	const struct gputbs_preempt_set *r = arg;
	unsigned int i;

	if (nla_put_u32(msg, GPUTBS_A_DEV_PREEMPT_MODE, r->mode))
		return -EMSGSIZE;
	if (r->switch_bytes_per_cycle &&
	    nla_put_u32(msg, GPUTBS_A_DEV_SWITCH_BYTES_PER_CYCLE,
			r->switch_bytes_per_cycle))
		return -EMSGSIZE;
	for (i = 0; i < 4; i++)
		if ((r->budget_mask & (1u << i)) &&
		    nla_put_u64(msg, budget_attrs[i], r->budget[i]))
			return -EMSGSIZE;
	return 0;
}

GPUTBS_API int gputbs_monitor_set_preempt(struct gputbs_monitor *m,
					  const struct gputbs_preempt_set *req,
					  size_t size)
{
	if (!req || size < sizeof(*req) || req->pad ||
	    (req->budget_mask & ~0xfu))
		return -EINVAL;
	return request(m, GPUTBS_CMD_PREEMPT_SET, false, fill_preempt, req,
		       NULL, NULL);
}

static int fill_tenant(struct nl_msg *msg, const void *arg)
{
	const struct gputbs_tenant_set *r = arg;
	__u32 max = r->max_ppm == GPUTBS_TENANT_MAX_NONE ? 0 : r->max_ppm;

	if ((r->cgroup_id &&
	     nla_put_u64(msg, GPUTBS_A_TENANT_CGROUP_ID, r->cgroup_id)) ||
	    (r->client_id &&
	     nla_put_u64(msg, GPUTBS_A_TENANT_CLIENT_ID, r->client_id)) ||
	    (r->weight && nla_put_u32(msg, GPUTBS_A_TENANT_WEIGHT, r->weight)) ||
	    (r->max_ppm && nla_put_u32(msg, GPUTBS_A_TENANT_MAX_PPM, max)))
		return -EMSGSIZE;
	return 0;
}

GPUTBS_API int gputbs_monitor_set_tenant(struct gputbs_monitor *m,
					 const struct gputbs_tenant_set *req,
					 size_t size)
{
	if (!req || size < sizeof(*req) || !req->cgroup_id == !req->client_id)
		return -EINVAL;
	return request(m, GPUTBS_CMD_TENANT_SET, false, fill_tenant, req,
		       NULL, NULL);
}

GPUTBS_API int gputbs_cgroup_id(const char *path, __u64 *id)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + sizeof(__u64)];
	} h;
	struct statfs sfs;
	struct stat st;
	int mount_id;

	if (!path || !id)
		return -EINVAL;
	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (statfs(path, &sfs))
		return -errno;
	if (sfs.f_type != CGROUP2_SUPER_MAGIC)
		return -EMEDIUMTYPE;
	h.fh.handle_bytes = sizeof(__u64);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return -errno;
	if (h.fh.handle_bytes != sizeof(__u64))
		return -EPROTO;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

/* ---- events ---------------------------------------------------------------- */

static int queue_event(struct gputbs_monitor *m,
		       const struct gputbs_mon_event *ev)
{
	if (m->qhead == m->qlen)
		m->qhead = m->qlen = 0;
	if (m->qlen == m->qcap) {
		size_t cap = m->qcap ? 2 * m->qcap : 16;
		void *p = realloc(m->queue, cap * sizeof(*m->queue));

		if (!p)
			return -ENOMEM;
		m->queue = p;
		m->qcap = cap;
	}
	m->queue[m->qlen++] = *ev;
	return 0;
}

/* Read one datagram and queue its events: 0, or a negative errno. */
static int read_events(struct gputbs_monitor *m)
{
	struct gputbs_mon_event ev;
	struct nlmsghdr *nlh;
	ssize_t n;
	int len, ret;

	do {
		n = recv(nl_socket_get_fd(m->ev), m->buf, EV_BUF_SIZE,
			 MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	len = (int)n;
	for (nlh = (struct nlmsghdr *)m->buf; nlmsg_ok(nlh, len);
	     nlh = nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_type != m->family ||
		    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
			continue;
		ret = parse_event(nlh, &ev);
		if (ret == -ENOENT)
			continue;	/* a newer module's event */
		if (ret)
			return ret;
		ret = queue_event(m, &ev);
		if (ret)
			return ret;
	}
	return 0;
}

GPUTBS_API int gputbs_monitor_recv(struct gputbs_monitor *m,
				   struct gputbs_mon_event *ev, size_t size)
{
	int ret;

	if (!m->ev || !size)
		return -EINVAL;
	while (m->qhead == m->qlen) {
		ret = read_events(m);
		if (ret)
			return ret;
	}
	copy_out(ev, size, &m->queue[m->qhead++], sizeof(*ev));
	return 0;
}

GPUTBS_API const char *gputbs_event_name(unsigned int type)
{
	static const char * const names[] = {
		[GPUTBS_EVENT_GRID_SUBMITTED] = "grid-submitted",
		[GPUTBS_EVENT_GRID_STARTED] = "grid-started",
		[GPUTBS_EVENT_GRID_PREEMPTED] = "grid-preempted",
		[GPUTBS_EVENT_GRID_COMPLETED] = "grid-completed",
		[GPUTBS_EVENT_GRID_CANCELLED] = "grid-cancelled",
		[GPUTBS_EVENT_POLICY_CHANGED] = "policy-changed",
		[GPUTBS_EVENT_LOST] = "events-lost",
		[GPUTBS_EVENT_GRID_TIMED_OUT] = "grid-timed-out",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown";
}

GPUTBS_API const char *gputbs_grid_state_name(unsigned int state)
{
	/* the netlink spec\'s spellings, from the one table */
	static const char * const names[] = {
		GTBS_GRID_STATE_NL_NAMES(GPUTBS_GRID_STATE_)
	};

	if (state < sizeof(names) / sizeof(names[0]))
		return names[state];
	return "unknown";
}

GPUTBS_API const char *gputbs_preemption_reason_name(unsigned int reason)
{
	static const char * const names[] = {
		GTBS_PREEMPT_REASON_NAMES(GPUTBS_PREEMPTION_REASON_)
	};

	if (reason < sizeof(names) / sizeof(names[0]))
		return names[reason];
	return "unknown";
}
