/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gtbs_shim_user.h - kernel names for the portable core built in userland.
 *
 * Included only by sm-emu/gtbs_shim.h outside the kernel.  Like the kernel
 * tree's tools/include/, it re-states the few kernel interfaces the core
 * uses (types, min/max, 64-bit division, the list_head subset) on libc,
 * with the kernel's semantics.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_SHIM_USER_H
#define _GTBS_SHIM_USER_H


#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int s32;
typedef long long s64;

#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		(-S64_MAX - 1)
#define BIT_ULL(n)	(1ULL << (n))

/* Core symbols are exported to the KUnit module only; nothing here. */
#define EXPORT_SYMBOL_IF_KUNIT(sym)
/* The policy API is exported to policy modules; a plug-in links to it. */
#define EXPORT_SYMBOL_GPL(sym)

/*
 * Policy modules: userland has none.  A plug-in (.so) is owned by the
 * program that loaded it, so the owner is NULL and needs no reference.
 */
struct module;
#define THIS_MODULE			((struct module *)0)
#define gtbs_module_get(m)		((void)(m), true)
#define gtbs_module_put(m)		((void)(m))

/*
 * The policy registry's lock: userland programs register their policies
 * (built-ins and plug-ins) from one thread before they run devices.
 */
#define GTBS_DEFINE_LOCK(name)		int name __attribute__((unused))
#define gtbs_lock(l)			((void)(l))
#define __acquires(x)
#define __releases(x)
#define gtbs_unlock(l)			((void)(l))
#define gtbs_pr_err(fmt, ...)		fprintf(stderr, "gputbs: " fmt, ##__VA_ARGS__)

#define min(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define swap(a, b) \
	do { __auto_type _t = (a); (a) = (b); (b) = _t; } while (0)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)	((((x) + (y) - 1) / (y)) * (y))
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

/*
 * The subset of <linux/bitops.h>, <linux/find.h> and <linux/bitmap.h> the
 * core uses, with the kernel's semantics: bit i of a bitmap is bit i %
 * BITS_PER_LONG of word i / BITS_PER_LONG; the bits of the last word past
 * nbits are don't-care (bitmap_fill() and bitmap_complement() set them,
 * bitmap_andnot() clears them, readers ignore them).  Non-atomic only:
 * userland owners serialise a device.
 */
#define BITS_PER_LONG		(8 * __SIZEOF_LONG__)
#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BITMAP_FIRST_WORD_MASK(start)	(~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits)	(~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

#define __assign_bit(nr, addr, value) \
	((value) ? __set_bit(nr, addr) : __clear_bit(nr, addr))

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[BIT_WORD(nr)] & BIT_MASK(nr);
}

static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	unsigned long i = BIT_WORD(offset), w;

	if (offset >= size)
		return size;
	for (w = addr[i] & BITMAP_FIRST_WORD_MASK(offset); !w; w = addr[i])
		if (++i * BITS_PER_LONG >= size)
			return size;
	return min(i * BITS_PER_LONG + __builtin_ctzl(w), size);
}

#define find_first_bit(addr, size)	find_next_bit(addr, size, 0)
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) = find_next_bit((addr), (size), (bit)), \
	     (bit) < (size); (bit)++)
#define for_each_set_bit_from(bit, addr, size) \
	for (; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size); \
	     (bit)++)

static inline unsigned int bitmap_weight(const unsigned long *src,
					 unsigned int nbits)
{
	unsigned int k, w = 0;

	for (k = 0; k < nbits / BITS_PER_LONG; k++)
		w += __builtin_popcountl(src[k]);
	if (nbits % BITS_PER_LONG)
		w += __builtin_popcountl(src[k] & BITMAP_LAST_WORD_MASK(nbits));
	return w;
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0xff, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_complement(unsigned long *dst,
				     const unsigned long *src,
				     unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		dst[k] = ~src[k];
}

static inline bool bitmap_andnot(unsigned long *dst, const unsigned long *src1,
				 const unsigned long *src2, unsigned int nbits)
{
	unsigned long any = 0;
	unsigned int k;

	for (k = 0; k < nbits / BITS_PER_LONG; k++)
		any |= dst[k] = src1[k] & ~src2[k];
	if (nbits % BITS_PER_LONG)
		any |= dst[k] = src1[k] & ~src2[k] &
				BITMAP_LAST_WORD_MASK(nbits);
	return any;
}

static inline void bitmap_or(unsigned long *dst, const unsigned long *src1,
			     const unsigned long *src2, unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		dst[k] = src1[k] | src2[k];
}

/* Clear bits @start to @start + @nbits - 1. */
static inline void bitmap_clear(unsigned long *map, unsigned int start,
				unsigned int nbits)
{
	unsigned int end = start + nbits, k;

	for (k = BIT_WORD(start); k * BITS_PER_LONG < end; k++)
		map[k] &= ~((k == BIT_WORD(start) ?
			     BITMAP_FIRST_WORD_MASK(start) : ~0UL) &
			    (k == BIT_WORD(end) ?
			     ~BITMAP_FIRST_WORD_MASK(end) : ~0UL));
}

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((unsigned __int128)a * b / c);
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

/* The subset of <linux/list.h> the core uses, with the kernel's semantics. */
struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void __list_add(struct list_head *entry, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	prev->next = entry;
}

static inline void list_add(struct list_head *entry, struct list_head *head)
{
	__list_add(entry, head, head->next);
}

static inline void list_add_tail(struct list_head *entry,
				 struct list_head *head)
{
	__list_add(entry, head->prev, head);
}

static inline void list_del(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	entry->next = NULL;
	entry->prev = NULL;
}

static inline void list_del_init(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	INIT_LIST_HEAD(entry);
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

/* Join @list at the front of @head and reinitialise @list. */
static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (list_empty(list))
		return;
	list->next->prev = head;
	list->prev->next = head->next;
	head->next->prev = list->prev;
	head->next = list->next;
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry_or_null(head, type, member) \
	(list_empty(head) ? NULL : list_entry((head)->next, type, member))
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_for_each_entry_reverse(pos, head, member) \
	for (pos = list_entry((head)->prev, __typeof__(*pos), member); \
	     &pos->member != (head); \
	     pos = list_prev_entry(pos, member))
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_entry(pos, head, member) \
	for (pos = list_entry((head)->next, __typeof__(*pos), member); \
	     &pos->member != (head); \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member) \
	for (pos = list_entry((head)->next, __typeof__(*pos), member), \
	     n = list_next_entry(pos, member); \
	     &pos->member != (head); \
	     pos = n, n = list_next_entry(n, member))

#endif /* _GTBS_SHIM_USER_H */
