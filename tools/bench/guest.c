// SPDX-License-Identifier: GPL-2.0
/*
 * guest.c - gputbs-bench: the in-guest benchmarks of the module.
 *
 *   gputbs-bench abi [--reps R] [--iters N] [--slow-iters M] [--chunks C]
 *	cost of getpid(), GPUTBS_IOCTL_INFO, SUBMIT, SUBMIT + WAIT of a
 *	1-block grid of one cycle (the shortest block the uapi accepts), a
 *	poll() on a ready fd and the wake-up of a poll() blocked until a
 *	grid completes, all in the same run, R times
 *   gputbs-bench fidelity [--reps R] [--blocks N] [--cycles T] ...
 *	a grid of N blocks alone, R times: makespan in wall time against
 *	the modelled one, and every block end's wall-clock lateness and
 *	actual/modelled duration, from a kprobe on the module's block_end
 *	callback (gputbs_grid_block_end) with trace_clock mono;
 *	--no-trace: the makespan alone, without the probe
 *   gputbs-bench mem [--grids N] [--reps R] [--arriving]
 *	kernel memory (/proc/meminfo, /proc/slabinfo) before and after
 *	submitting N grids that stay queued (--arriving: that arrive far in
 *	the future), and after closing their files
 *   gputbs-bench timer [--reps R] [--iters N] [--period-us P]
 *	the guest's own timer lateness: clock_nanosleep() to absolute
 *	times P us apart, without gputbs (the floor of every figure above)
 *   gputbs-bench memsnap LABEL
 *	one /proc/meminfo snapshot (around module loads, for memory per SM)
 *   gputbs-bench policy [--policies LIST] [--grids G] [--blocks N]
 *		[--cycles T] [--reps R]
 *	CPU per block event of each policy of LIST (default fifo,bpf_fifo:
 *	a BPF policy against the built-in it copies, Documentation/bpf.rst):
 *	G grids (default 128) of N blocks (default 100) of T cycles
 *	(default 100: the device is always behind, so the SM kthreads run
 *	without pause) submitted at once and waited for, R times (default
 *	5), the policies taking turns within each repetition.  CPU is the
 *	on-CPU time of every "gputbs/sm*" kthread (/proc/PID/schedstat,
 *	ns) plus this process's system time (the submit and wait path), its
 *	growth divided by G x N block events (one event: a block's dispatch
 *	and completion, as gputbs-bench-sched counts them)
 *
 * Every result is one line "GPUTBS-BENCH-JSON {...}" on stdout, read by
 * tools/bench/bench.py on the host (scripts/bench.sh).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/gputbs.h>

#include "../lib/json.h"

#define PREFIX		"GPUTBS-BENCH-JSON "
#define TRACEFS		"/sys/kernel/tracing"
#define KPROBE_GROUP	"gputbs_bench"
#define KPROBE_EVENT	"blkend"
#define KPROBE_FUNC	"gputbs:gputbs_grid_block_end"

static const char *dev_path = "/dev/gputbs";
static struct gputbs_info info;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "gputbs-bench: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int dev_open(void)
{
	int fd = open(dev_path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("open %s: %s", dev_path, strerror(errno));
	return fd;
}

static void dev_info(int fd)
{
	if (ioctl(fd, GPUTBS_IOCTL_INFO, &info))
		die("INFO: %s", strerror(errno));
}

/* A grid of @blocks blocks of @cycles cycles each, 32 threads. */
static void grid_init(struct gputbs_submit *s, uint32_t blocks,
		      uint64_t cycles)
{
	memset(s, 0, sizeof(*s));
	s->nr_blocks = blocks;
	s->threads_per_block = 32;
	s->work_model = GPUTBS_WORK_DIST;
	s->block_cycles = cycles;
	snprintf(s->label, sizeof(s->label), "bench");
}

static uint32_t submit(int fd, struct gputbs_submit *s)
{
	if (ioctl(fd, GPUTBS_IOCTL_SUBMIT, s))
		die("SUBMIT: %s", strerror(errno));
	return s->handle;
}

static void wait_grid(int fd, uint32_t handle, uint32_t flags,
		      struct gputbs_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->handle = handle;
	w->flags = flags;
	w->timeout_ns = INT64_MAX;
	while (ioctl(fd, GPUTBS_IOCTL_WAIT, w))
		if (errno != EINTR)
			die("WAIT: %s", strerror(errno));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Percentile @p (0..100) of @n sorted values, nearest rank. */
static uint64_t pct_u64(const uint64_t *v, size_t n, double p)
{
	size_t i = (size_t)(p / 100.0 * n + 0.999999);

	if (!n)
		return 0;
	if (i < 1)
		i = 1;
	return v[(i > n ? n : i) - 1];
}

static double pct_double(const double *v, size_t n, double p)
{
	size_t i = (size_t)(p / 100.0 * n + 0.999999);

	if (!n)
		return 0;
	if (i < 1)
		i = 1;
	return v[(i > n ? n : i) - 1];
}

static uint64_t median_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return pct_u64(v, n, 50);
}

/*
 * Each result is one line, PREFIX and a JSON object (json-c's, through
 * tools/lib/json.c), which scripts/bench.sh finds in the guest's output.
 */
static void json_line_open(struct json *j, const char *bench)
{
	fputs(PREFIX, stdout);
	json_init_line(j, stdout);
	json_obj(j, NULL);
	json_str(j, "bench", bench);
}

static void json_line_end(struct json *j)
{
	json_obj_end(j);
	if (json_end(j))
		die("out of memory");
	fflush(stdout);
}

static void json_array_u64(struct json *j, const char *name,
			   const uint64_t *v, size_t n)
{
	size_t i;

	json_arr(j, name);
	for (i = 0; i < n; i++)
		json_u64(j, NULL, v[i]);
	json_arr_end(j);
}

static void json_array_double(struct json *j, const char *name,
			      const double *v, size_t n)
{
	size_t i;

	json_arr(j, name);
	for (i = 0; i < n; i++)
		json_double(j, NULL, v[i]);
	json_arr_end(j);
}

static void json_device(struct json *j)
{
	json_u64(j, "nr_sms", info.nr_sms);
	json_u64(j, "time_scale_ps", info.time_scale_ps);
	json_u64(j, "max_grids_per_fd", info.max_grids_per_fd);
}

/* ---- abi ------------------------------------------------------------------ */

enum {
	ABI_GETPID, ABI_ENOTTY, ABI_INFO, ABI_SUBMIT, ABI_SUBMIT_STREAM, ABI_SW,
	ABI_SW_SUBMIT, ABI_SW_WAIT, ABI_SW_WAKE, ABI_POLL_READY, ABI_POLL_WAKE,
	ABI_NR
};

static const char *const abi_names[ABI_NR] = {
	"getpid_ns", "ioctl_enotty_ns", "info_ns", "submit_ns", "submit_stream_ns",
	"submit_wait_ns", "submit_wait_submit_part_ns",
	"submit_wait_wait_part_ns", "submit_wait_end_to_return_ns",
	"poll_ready_ns", "poll_wakeup_end_to_return_ns",
};

/* Picoseconds per call of @n runs of @stmt. */
#define TIME_LOOP(n, stmt) ({					\
	uint64_t _t0 = now_ns(), _i;				\
	for (_i = 0; _i < (n); _i++) { stmt; }			\
	(now_ns() - _t0) * 1000 / (n);				\
})

/* Values are stored in picoseconds and printed in ns. */
static int cmd_abi(int argc, char **argv)
{
	struct json j;
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "iters", required_argument, NULL, 'n' },
		{ "slow-iters", required_argument, NULL, 'm' },
		{ "chunks", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int reps = 11, iters = 2000, slow = 100, chunks = 20;
	unsigned int r, i, k, batch, done, nb, per_chunk, poll_skipped = 0;
	uint64_t *res[ABI_NR], *tmp[4], *ch[4], poll_cycles;
	struct gputbs_submit s;
	struct gputbs_wait w;
	struct pollfd pfd;
	int c, fd;

	while ((c = getopt_long(argc, argv, "r:n:m:c:", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			reps = strtoul(optarg, NULL, 10);
			break;
		case 'n':
			iters = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			slow = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			chunks = strtoul(optarg, NULL, 10);
			break;
		default:
			return 2;
		}
	}
	if (!reps || !iters || !slow || !chunks || chunks > iters)
		die("abi: --reps, --iters, --slow-iters, --chunks must be >= 1, chunks <= iters");
	per_chunk = iters / chunks;
	for (i = 0; i < ABI_NR; i++)
		res[i] = calloc(reps, sizeof(uint64_t));
	for (i = 0; i < 4; i++)
		tmp[i] = calloc(slow, sizeof(uint64_t));
	for (i = 0; i < 4; i++)
		ch[i] = calloc(iters + 1, sizeof(uint64_t));
	fd = dev_open();
	dev_info(fd);
	pfd = (struct pollfd) { .fd = fd, .events = POLLIN };
	/* a block long enough that poll() sleeps first: >= 200 us of wall time */
	poll_cycles = (200000ULL * 1000 + info.time_scale_ps - 1) /
		      info.time_scale_ps;
	batch = info.max_grids_per_fd > 8 ? info.max_grids_per_fd - 8 : 1;
	if (batch > 64)
		batch = 64;

	for (r = 0; r < reps; r++) {
		/*
		 * getpid(), an ioctl the module does not know (-ENOTTY: the
		 * syscall, VFS and LSM path of every ioctl, and the module's
		 * dispatch), INFO, and poll() on a ready fd (a completed
		 * grid not yet reaped), alternating in chunks: each gets the
		 * median of its chunks' means, so a burst of host noise hits
		 * all of them alike and is voted out.
		 */
		grid_init(&s, 1, 1);
		submit(fd, &s);
		if (poll(&pfd, 1, -1) != 1)
			die("poll: %s", strerror(errno));
		for (k = 0; k < chunks; k++) {
			ch[0][k] = TIME_LOOP(per_chunk, syscall(SYS_getpid));
			ch[3][k] = TIME_LOOP(per_chunk,
				if (ioctl(fd, _IOR(GPUTBS_IOCTL_BASE, 0x7f, int),
					  &c) != -1 || errno != ENOTTY)
					die("unknown ioctl: not ENOTTY"));
			ch[1][k] = TIME_LOOP(per_chunk,
				if (ioctl(fd, GPUTBS_IOCTL_INFO, &info))
					die("INFO: %s", strerror(errno)));
			ch[2][k] = TIME_LOOP(per_chunk,
				if (poll(&pfd, 1, 0) != 1)
					die("poll: not ready"));
		}
		wait_grid(fd, 0, GPUTBS_WAIT_ANY, &w);
		res[ABI_GETPID][r] = median_u64(ch[0], chunks);
		res[ABI_INFO][r] = median_u64(ch[1], chunks);
		res[ABI_POLL_READY][r] = median_u64(ch[2], chunks);
		res[ABI_ENOTTY][r] = median_u64(ch[3], chunks);

		/*
		 * SUBMIT in batches on a fresh file: one block each, long
		 * enough that nothing completes during the batch (no other
		 * grid's completion is processed inside a timed call); the
		 * file is closed untimed, which cancels them.
		 */
		for (done = 0, nb = 0; done < iters; done += batch, nb++) {
			unsigned int n = iters - done < batch ? iters - done : batch;
			int bfd = dev_open();
			uint64_t t0;

			grid_init(&s, 1, 1ULL << 40);
			t0 = now_ns();
			for (i = 0; i < n; i++)
				submit(bfd, &s);
			ch[0][nb] = (now_ns() - t0) * 1000 / n;
			close(bfd);
		}
		res[ABI_SUBMIT][r] = median_u64(ch[0], nb);

		/*
		 * SUBMIT in a stream of 1-cycle grids: each call also
		 * retires the grid before it, whose cycle has passed.
		 */
		for (done = 0, nb = 0; done < iters; done += batch, nb++) {
			unsigned int n = iters - done < batch ? iters - done : batch;
			uint64_t t0;

			grid_init(&s, 1, 1);
			t0 = now_ns();
			for (i = 0; i < n; i++)
				submit(fd, &s);
			ch[0][nb] = (now_ns() - t0) * 1000 / n;
			for (i = 0; i < n; i++)
				wait_grid(fd, 0, GPUTBS_WAIT_ANY, &w);
		}
		res[ABI_SUBMIT_STREAM][r] = median_u64(ch[0], nb);

		/* SUBMIT + WAIT of one 1-cycle block, one at a time */
		for (i = 0; i < slow; i++) {
			uint64_t t0, t1, t2;
			uint32_t h;

			grid_init(&s, 1, 1);
			t0 = now_ns();
			h = submit(fd, &s);
			t1 = now_ns();
			wait_grid(fd, h, 0, &w);
			t2 = now_ns();
			tmp[0][i] = t2 - t0;
			tmp[1][i] = t1 - t0;
			tmp[2][i] = t2 - t1;
			tmp[3][i] = t2 > w.end_ns ? t2 - w.end_ns : 0;
		}
		res[ABI_SW][r] = median_u64(tmp[0], slow) * 1000;
		res[ABI_SW_SUBMIT][r] = median_u64(tmp[1], slow) * 1000;
		res[ABI_SW_WAIT][r] = median_u64(tmp[2], slow) * 1000;
		res[ABI_SW_WAKE][r] = median_u64(tmp[3], slow) * 1000;

		/* poll() blocked until a grid completes: end -> return */
		for (i = 0, k = 0; i < slow; i++) {
			uint64_t t;

			grid_init(&s, 1, poll_cycles);
			submit(fd, &s);
			if (poll(&pfd, 1, 0) != 0) {
				/* already done: no wake-up to time */
				poll_skipped++;
				wait_grid(fd, 0, GPUTBS_WAIT_ANY, &w);
				continue;
			}
			if (poll(&pfd, 1, -1) != 1)
				die("poll: %s", strerror(errno));
			t = now_ns();
			wait_grid(fd, 0, GPUTBS_WAIT_ANY, &w);
			tmp[0][k++] = t > w.end_ns ? t - w.end_ns : 0;
		}
		res[ABI_POLL_WAKE][r] = k ? median_u64(tmp[0], k) * 1000 : 0;
	}
	close(fd);

	json_line_open(&j, "abi");
	json_device(&j);
	json_u64(&j, "reps", reps);
	json_u64(&j, "iters", iters);
	json_u64(&j, "chunks", chunks);
	json_u64(&j, "slow_iters", slow);
	json_u64(&j, "submit_batch", batch);
	json_u64(&j, "block_cycles", 1);
	json_u64(&j, "poll_block_cycles", poll_cycles);
	json_u64(&j, "poll_skipped", poll_skipped);
	for (i = 0; i < ABI_NR; i++) {
		double v[1024];
		unsigned int n;

		for (n = 0; n < reps && n < 1024; n++)
			v[n] = res[i][n] / 1000.0;
		json_array_double(&j, abi_names[i], v, n);
	}
	json_line_end(&j);
	return 0;
}

/* ---- fidelity ---------------------------------------------------------------- */

struct blkend {
	uint64_t ts;		/* ns, CLOCK_MONOTONIC (trace_clock mono, us) */
	uint32_t sm, slot, block;
	uint64_t start, end;	/* cycles */
	bool by_sm_thread;	/* processed by a gputbs/smN kthread */
};

static int write_file(const char *path, const char *text, bool append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

static void kprobe_remove(void)
{
	write_file(TRACEFS "/events/" KPROBE_GROUP "/" KPROBE_EVENT "/enable",
		   "0", false);
	write_file(TRACEFS "/kprobe_events",
		   "-:" KPROBE_GROUP "/" KPROBE_EVENT "\n", true);
}

/* 0, or a negative errno when kprobe events are not available. */
static int kprobe_setup(void)
{
	int ret;

	kprobe_remove();
	ret = write_file(TRACEFS "/kprobe_events",
			 "p:" KPROBE_GROUP "/" KPROBE_EVENT " " KPROBE_FUNC
			 " sm=$arg2:u32 slot=$arg3:u32 block=$arg4:u32"
			 " start=$arg5:u64 end=$arg6:u64\n", true);
	if (ret)
		return ret;
	if (write_file(TRACEFS "/trace_clock", "mono", false) ||
	    write_file(TRACEFS "/buffer_size_kb", "8192", false) ||
	    write_file(TRACEFS "/tracing_on", "1", false))
		return -EIO;
	return write_file(TRACEFS "/events/" KPROBE_GROUP "/" KPROBE_EVENT
			  "/enable", "1", false);
}

static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	ssize_t k;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf)
		die("%s: %s", path, strerror(errno));
	for (;;) {
		if (cap - n < 65536) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory");
		}
		k = read(fd, buf + n, cap - n - 1);
		if (k < 0)
			die("%s: %s", path, strerror(errno));
		if (!k)
			break;
		n += k;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static uint64_t field_u64(const char *line, const char *name)
{
	const char *p = strstr(line, name);

	return p ? strtoull(p + strlen(name), NULL, 0) : UINT64_MAX;
}

/* Parse the trace buffer's kprobe lines into @ev (capacity @cap). */
static size_t parse_trace(char *text, struct blkend *ev, size_t cap)
{
	size_t n = 0;
	char *line, *save;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *mark = strstr(line, " " KPROBE_EVENT ": ("), *p;
		unsigned long long sec, usec;

		if (!mark || line[0] == '#' || n == cap)
			continue;
		/* "... <sec>.<usec>: blkend: (" */
		*mark = '\0';
		p = strrchr(line, ' ');
		if (!p || sscanf(p + 1, "%llu.%llu:", &sec, &usec) != 2)
			continue;
		*mark = ' ';
		ev[n].ts = sec * 1000000000ULL + usec * 1000ULL;
		ev[n].sm = field_u64(mark, " sm=");
		ev[n].slot = field_u64(mark, " slot=");
		ev[n].block = field_u64(mark, " block=");
		ev[n].start = field_u64(mark, " start=");
		ev[n].end = field_u64(mark, " end=");
		while (*line == ' ')
			line++;
		ev[n].by_sm_thread = !strncmp(line, "gputbs/sm", 9);
		n++;
	}
	return n;
}

static uint64_t cycles_to_ns(uint64_t cycles)
{
	/* as the module's gputbs_cycles_to_ns(): rounded up */
	return info.epoch_ns +
	       (cycles * info.time_scale_ps + 999) / 1000;
}

static int cmp_end(const void *a, const void *b)
{
	const struct blkend *x = a, *y = b;

	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * When the SM processed cycle @cycle: the latest block end processed on
 * @sm at that cycle (a block that starts at @cycle was issued in the same
 * pass), else the cycle's due time (the grid's arrival, processed by the
 * SUBMIT ioctl at that cycle).  @ev sorted by cmp_end().
 */
static uint64_t processed_at(const struct blkend *ev, size_t n, uint32_t sm,
			     uint64_t cycle)
{
	size_t lo = 0, hi = n;
	uint64_t ts = 0;

	while (lo < hi) {	/* first (sm, end) >= (sm, cycle) */
		size_t mid = (lo + hi) / 2;

		if (ev[mid].sm < sm || (ev[mid].sm == sm && ev[mid].end < cycle))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && ev[lo].sm == sm && ev[lo].end == cycle; lo++)
		ts = ev[lo].ts > ts ? ev[lo].ts : ts;
	return ts ? ts : cycles_to_ns(cycle);
}

static int cmd_fidelity(int argc, char **argv)
{
	struct json j;
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "blocks", required_argument, NULL, 'b' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "rsd-ppm", required_argument, NULL, 'd' },
		{ "threads", required_argument, NULL, 't' },
		{ "regs", required_argument, NULL, 'g' },
		{ "shmem", required_argument, NULL, 's' },
		{ "no-trace", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	/* default: JPEG-d's idct, the shortest ERCBench block (R = 8) */
	unsigned int reps = 11, blocks = 1000, threads = 64, regs = 24;
	unsigned int shmem = 2048, rsd = 295800, r, i;
	uint64_t cycles = 5238;
	uint64_t *mk_model, *mk_user, *mk_emul, *late_p50, *late_p99, *late_max;
	uint64_t *n_events, *n_by_sm, *lat;
	double *ratio, *err, *r_p50, *r_p99, *r_min, *r_max, *e_p50, *e_p99;
	struct blkend *ev;
	bool trace = true;
	int c, fd, kp;

	while ((c = getopt_long(argc, argv, "r:b:c:d:t:g:s:n", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			reps = strtoul(optarg, NULL, 10);
			break;
		case 'b':
			blocks = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			cycles = strtoull(optarg, NULL, 10);
			break;
		case 'd':
			rsd = strtoul(optarg, NULL, 10);
			break;
		case 't':
			threads = strtoul(optarg, NULL, 10);
			break;
		case 'g':
			regs = strtoul(optarg, NULL, 10);
			break;
		case 's':
			shmem = strtoul(optarg, NULL, 10);
			break;
		case 'n':
			trace = false;
			break;
		default:
			return 2;
		}
	}
	if (!reps || !blocks || !cycles)
		die("fidelity: --reps, --blocks and --cycles must be >= 1");
	mk_model = calloc(reps, 8);
	mk_user = calloc(reps, 8);
	mk_emul = calloc(reps, 8);
	late_p50 = calloc(reps, 8);
	late_p99 = calloc(reps, 8);
	late_max = calloc(reps, 8);
	n_events = calloc(reps, 8);
	n_by_sm = calloc(reps, 8);
	r_p50 = calloc(reps, sizeof(double));
	r_p99 = calloc(reps, sizeof(double));
	r_min = calloc(reps, sizeof(double));
	r_max = calloc(reps, sizeof(double));
	e_p50 = calloc(reps, sizeof(double));
	e_p99 = calloc(reps, sizeof(double));
	err = calloc(blocks + 16, sizeof(double));
	ev = calloc(blocks + 16, sizeof(*ev));
	lat = calloc(blocks + 16, 8);
	ratio = calloc(blocks + 16, sizeof(double));
	if (!ev || !lat || !ratio || !r_max || !err || !e_p99)
		die("out of memory");
	fd = dev_open();
	dev_info(fd);
	kp = trace ? kprobe_setup() : -ENOENT;
	if (kp && trace)
		fprintf(stderr, "gputbs-bench: kprobe on %s unavailable (%s): makespan only\n",
			KPROBE_FUNC, strerror(-kp));

	for (r = 0; r < reps; r++) {
		struct gputbs_submit s;
		struct gputbs_wait w;
		uint64_t t0, t2, last = 0;
		size_t n = 0, len;
		char *text;

		if (!kp)
			write_file(TRACEFS "/trace", "", false);	/* clear */
		grid_init(&s, blocks, cycles);
		s.threads_per_block = threads;
		s.regs_per_thread = regs;
		s.shmem_per_block = shmem;
		s.block_rsd_ppm = rsd;
		s.seed = r + 1;
		t0 = now_ns();
		submit(fd, &s);
		wait_grid(fd, s.handle, 0, &w);
		t2 = now_ns();
		mk_model[r] = cycles_to_ns(w.end_cycle) - cycles_to_ns(w.submit_cycle);
		mk_user[r] = t2 - t0;
		if (!kp) {
			text = read_all(TRACEFS "/trace", &len);
			n = parse_trace(text, ev, blocks + 16);
			free(text);
		}
		n_events[r] = n;
		n_by_sm[r] = 0;
		for (i = 0; i < n; i++) {
			uint64_t due = cycles_to_ns(ev[i].end);

			lat[i] = ev[i].ts > due ? ev[i].ts - due : 0;
			last = ev[i].ts > last ? ev[i].ts : last;
			n_by_sm[r] += ev[i].by_sm_thread;
		}
		mk_emul[r] = n ? last - t0 : 0;
		qsort(ev, n, sizeof(*ev), cmp_end);
		for (i = 0; i < n; i++) {
			uint64_t ts0 = processed_at(ev, n, ev[i].sm, ev[i].start);
			double model = (double)(cycles_to_ns(ev[i].end) -
						cycles_to_ns(ev[i].start));

			ratio[i] = ((double)ev[i].ts - (double)ts0) / model;
			err[i] = ratio[i] > 1 ? ratio[i] - 1 : 1 - ratio[i];
		}
		qsort(lat, n, 8, cmp_u64);
		qsort(ratio, n, sizeof(double), cmp_double);
		qsort(err, n, sizeof(double), cmp_double);
		e_p50[r] = pct_double(err, n, 50);
		e_p99[r] = pct_double(err, n, 99);
		late_p50[r] = pct_u64(lat, n, 50);
		late_p99[r] = pct_u64(lat, n, 99);
		late_max[r] = n ? lat[n - 1] : 0;
		r_p50[r] = pct_double(ratio, n, 50);
		r_p99[r] = pct_double(ratio, n, 99);
		r_min[r] = n ? ratio[0] : 0;
		r_max[r] = n ? ratio[n - 1] : 0;
	}
	if (!kp)
		kprobe_remove();
	close(fd);

	json_line_open(&j, "fidelity");
	json_device(&j);
	json_u64(&j, "reps", reps);
	json_u64(&j, "blocks", blocks);
	json_u64(&j, "block_cycles", cycles);
	json_u64(&j, "block_rsd_ppm", rsd);
	json_u64(&j, "threads", threads);
	json_u64(&j, "regs", regs);
	json_u64(&j, "shmem", shmem);
	json_boolean(&j, "kprobe", !kp);
	json_array_u64(&j, "makespan_model_ns", mk_model, reps);
	json_array_u64(&j, "makespan_user_ns", mk_user, reps);
	json_array_u64(&j, "makespan_emul_ns", mk_emul, reps);
	json_array_u64(&j, "lateness_p50_ns", late_p50, reps);
	json_array_u64(&j, "lateness_p99_ns", late_p99, reps);
	json_array_u64(&j, "lateness_max_ns", late_max, reps);
	json_array_double(&j, "ratio_p50", r_p50, reps);
	json_array_double(&j, "ratio_p99", r_p99, reps);
	json_array_double(&j, "ratio_min", r_min, reps);
	json_array_double(&j, "ratio_max", r_max, reps);
	json_array_double(&j, "error_p50", e_p50, reps);
	json_array_double(&j, "error_p99", e_p99, reps);
	json_array_u64(&j, "block_ends_traced", n_events, reps);
	json_array_u64(&j, "block_ends_by_sm_threads", n_by_sm, reps);
	json_line_end(&j);
	return 0;
}

/* ---- timer --------------------------------------------------------------------- */

/*
 * The guest's own timer lateness, without gputbs: clock_nanosleep() to an
 * absolute CLOCK_MONOTONIC time @period_us apart, how late it returns.
 * The floor under every wall-clock figure of the module in this guest.
 */
static int cmd_timer(int argc, char **argv)
{
	struct json j;
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "iters", required_argument, NULL, 'n' },
		{ "period-us", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int reps = 11, iters = 200, period = 200, r, i;
	uint64_t *lat, *p50, *p99;
	int c;

	while ((c = getopt_long(argc, argv, "r:n:p:", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			reps = strtoul(optarg, NULL, 10);
			break;
		case 'n':
			iters = strtoul(optarg, NULL, 10);
			break;
		case 'p':
			period = strtoul(optarg, NULL, 10);
			break;
		default:
			return 2;
		}
	}
	if (!reps || !iters || !period)
		die("timer: --reps, --iters and --period-us must be >= 1");
	lat = calloc(iters, 8);
	p50 = calloc(reps, 8);
	p99 = calloc(reps, 8);
	if (!lat || !p50 || !p99)
		die("out of memory");
	for (r = 0; r < reps; r++) {
		uint64_t due = now_ns();

		for (i = 0; i < iters; i++) {
			struct timespec ts;
			uint64_t t;

			due += period * 1000ULL;
			ts.tv_sec = due / 1000000000ULL;
			ts.tv_nsec = due % 1000000000ULL;
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &ts, NULL) == EINTR)
				;
			t = now_ns();
			lat[i] = t > due ? t - due : 0;
			due = t;
		}
		qsort(lat, iters, 8, cmp_u64);
		p50[r] = pct_u64(lat, iters, 50);
		p99[r] = pct_u64(lat, iters, 99);
	}
	json_line_open(&j, "timer");
	json_u64(&j, "reps", reps);
	json_u64(&j, "iters", iters);
	json_u64(&j, "period_us", period);
	json_array_u64(&j, "lateness_p50_ns", p50, reps);
	json_array_u64(&j, "lateness_p99_ns", p99, reps);
	json_line_end(&j);
	return 0;
}

/* ---- memory ------------------------------------------------------------------- */

static const char *const mem_fields[] = {
	"MemTotal", "MemFree", "MemAvailable", "Slab", "SReclaimable",
	"SUnreclaim", "KernelStack", "PageTables", "VmallocUsed", "Percpu",
};
#define NR_MEM_FIELDS (sizeof(mem_fields) / sizeof(mem_fields[0]))
#define MAX_CACHES 512

struct mem_snap {
	uint64_t kb[NR_MEM_FIELDS];
	unsigned int nr_caches;
	char name[MAX_CACHES][40];
	uint64_t active_bytes[MAX_CACHES];
	uint64_t total_bytes[MAX_CACHES];
};

static char snap_buf[1 << 20];

/* Read @path into snap_buf without allocating. */
static void read_static(const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t k;

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	while ((k = read(fd, snap_buf + n, sizeof(snap_buf) - 1 - n)) > 0)
		n += k;
	close(fd);
	snap_buf[n] = '\0';
}

static void mem_snapshot(struct mem_snap *m, bool slabs)
{
	char *line, *save;
	unsigned int i;

	read_static("/proc/meminfo");
	for (line = strtok_r(snap_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		for (i = 0; i < NR_MEM_FIELDS; i++) {
			size_t l = strlen(mem_fields[i]);

			if (!strncmp(line, mem_fields[i], l) && line[l] == ':')
				m->kb[i] = strtoull(line + l + 1, NULL, 10);
		}
	m->nr_caches = 0;
	if (!slabs)
		return;
	read_static("/proc/slabinfo");
	for (line = strtok_r(snap_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long active, num, size;
		char name[40];

		if (line[0] == '#' || !strncmp(line, "slabinfo", 8) ||
		    m->nr_caches == MAX_CACHES)
			continue;
		if (sscanf(line, "%39s %llu %llu %llu", name, &active, &num,
			   &size) != 4)
			continue;
		i = m->nr_caches++;
		memcpy(m->name[i], name, sizeof(name));
		m->active_bytes[i] = active * size;
		m->total_bytes[i] = num * size;
	}
}

static void json_meminfo(struct json *j, const char *name,
			 const struct mem_snap *m)
{
	unsigned int i;

	json_obj(j, name);
	for (i = 0; i < NR_MEM_FIELDS; i++)
		json_u64(j, mem_fields[i], m->kb[i]);
	json_obj_end(j);
}

#define GRIDS_PER_DEVICE "/sys/module/gputbs/parameters/max_grids_per_device"

/*
 * A module with a device-wide grid limit (ENOSPC) gets it raised to @n for
 * the run; returns the old value to restore, or 0 if there is none.
 */
static unsigned long grid_limit_raise(unsigned long n)
{
	char buf[32];
	unsigned long old;
	int fd = open(GRIDS_PER_DEVICE, O_RDONLY);
	ssize_t k;

	if (fd < 0)
		return 0;
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return 0;
	buf[k] = '\0';
	old = strtoul(buf, NULL, 10);
	if (old >= n)
		return 0;
	snprintf(buf, sizeof(buf), "%lu", n);
	if (write_file(GRIDS_PER_DEVICE, buf, false))
		die("cannot raise %s to %lu", GRIDS_PER_DEVICE, n);
	return old;
}

/* Slab caches whose size changed from @a to @b: name, active/total bytes. */
static void json_slab_delta(struct json *js, const char *name,
			    const struct mem_snap *a, const struct mem_snap *b)
{
	unsigned int i, j;

	json_arr(js, name);
	for (i = 0; i < b->nr_caches; i++) {
		for (j = 0; j < a->nr_caches; j++)
			if (!strcmp(a->name[j], b->name[i]))
				break;
		if (j == a->nr_caches)
			continue;
		if (a->active_bytes[j] == b->active_bytes[i] &&
		    a->total_bytes[j] == b->total_bytes[i])
			continue;
		json_obj(js, NULL);
		json_str(js, "cache", b->name[i]);
		json_s64(js, "active_bytes",
			 (int64_t)(b->active_bytes[i] - a->active_bytes[j]));
		json_s64(js, "total_bytes",
			 (int64_t)(b->total_bytes[i] - a->total_bytes[j]));
		json_obj_end(js);
	}
	json_arr_end(js);
}

static int cmd_mem(int argc, char **argv)
{
	struct json j;
	static const struct option opts[] = {
		{ "grids", required_argument, NULL, 'n' },
		{ "reps", required_argument, NULL, 'r' },
		{ "arriving", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	static struct mem_snap before, after, closed;
	uint64_t t_submit, t_close;
	bool arriving = false;
	unsigned int grids = 10000, reps = 1, nr_fds, i, r;
	unsigned long old_limit;
	int c;
	struct gputbs_submit s;
	int *fds, fd;

	while ((c = getopt_long(argc, argv, "n:r:a", opts, NULL)) != -1) {
		if (c == 'n')
			grids = strtoul(optarg, NULL, 10);
		else if (c == 'r')
			reps = strtoul(optarg, NULL, 10);
		else if (c == 'a')
			arriving = true;
		else
			return 2;
	}
	if (!grids || !reps)
		die("mem: --grids and --reps must be >= 1");
	fd = dev_open();
	dev_info(fd);
	close(fd);
	/* every file and buffer exists before the first snapshot */
	nr_fds = (grids + info.max_grids_per_fd - 1) / info.max_grids_per_fd;
	fds = calloc(nr_fds, sizeof(*fds));
	if (!fds)
		die("out of memory");
	/* never completes: 2^40 cycles */
	grid_init(&s, 1, 1ULL << 40);
	old_limit = grid_limit_raise(grids);
	for (r = 0; r < reps; r++) {
		for (i = 0; i < nr_fds; i++)
			fds[i] = dev_open();
		printf("gputbs-bench: mem: %u grids on %u files (%u/%u)\n",
		       grids, nr_fds, r + 1, reps);
		fflush(stdout);
		if (arriving) {
			/*
			 * ARRIVING, not QUEUED: due 2^39 cycles from now, so
			 * the grids are allocated exactly as queued ones but
			 * never reach the scheduler (and cancel in O(1))
			 */
			s.flags = GPUTBS_SUBMIT_AT_CYCLE;
			s.arrival_cycle = (now_ns() - info.epoch_ns) * 1000 /
					  info.time_scale_ps + (1ULL << 39);
		}
		sleep(1);
		mem_snapshot(&before, true);
		t_submit = now_ns();
		for (i = 0; i < grids; i++)
			submit(fds[i / info.max_grids_per_fd], &s);
		t_submit = now_ns() - t_submit;
		sleep(1);
		mem_snapshot(&after, true);
		t_close = now_ns();
		for (i = 0; i < nr_fds; i++)
			close(fds[i]);
		t_close = now_ns() - t_close;
		sleep(1);
		mem_snapshot(&closed, true);

		json_line_open(&j, "mem");
		json_device(&j);
		json_u64(&j, "rep", r);
		json_u64(&j, "grids", grids);
		json_u64(&j, "files", nr_fds);
		json_u64(&j, "grid_blocks", 1);
		json_boolean(&j, "arriving", arriving);
		json_u64(&j, "submit_all_ns", t_submit);
		json_u64(&j, "close_all_ns", t_close);
		json_meminfo(&j, "before_kb", &before);
		json_meminfo(&j, "after_kb", &after);
		json_meminfo(&j, "closed_kb", &closed);
		json_slab_delta(&j, "slab_delta", &before, &after);
		json_slab_delta(&j, "slab_delta_closed", &before, &closed);
		json_line_end(&j);
	}
	if (old_limit) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%lu", old_limit);
		write_file(GRIDS_PER_DEVICE, buf, false);
	}
	free(fds);
	return 0;
}

static int cmd_memsnap(int argc, char **argv)
{
	struct json j;
	static struct mem_snap m;

	if (argc != 2)
		die("usage: gputbs-bench memsnap LABEL");
	sync();
	sleep(1);
	mem_snapshot(&m, false);
	json_line_open(&j, "memsnap");
	json_str(&j, "label", argv[1]);
	json_meminfo(&j, "kb", &m);
	json_line_end(&j);
	return 0;
}

/* ---- policy: CPU per block event of each policy ---------------------- */

#define SYSFS_POLICY "/sys/class/misc/gputbs/policy"

/* on-CPU ns of every SM kthread (gputbs/smN) and this process's system time */
static uint64_t policy_cpu_ns(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct rusage ru;
	uint64_t sum = 0;
	unsigned int threads = 0;

	if (!d)
		die("/proc: %s", strerror(errno));
	while ((e = readdir(d))) {
		char path[300], comm[32], buf[128];
		unsigned long long ns;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f) ||
		    strncmp(comm, "gputbs/sm", 9)) {
			fclose(f);
			continue;
		}
		fclose(f);
		snprintf(path, sizeof(path), "/proc/%s/schedstat", e->d_name);
		f = fopen(path, "r");
		if (!f || !fgets(buf, sizeof(buf), f) ||
		    sscanf(buf, "%llu", &ns) != 1)
			die("policy: %s: %s (a kernel without CONFIG_SCHED_INFO?)",
			    path, f ? "unreadable" : strerror(errno));
		fclose(f);
		sum += ns;
		threads++;
	}
	closedir(d);
	if (!threads)
		die("policy: no gputbs/sm* kthread in /proc");
	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage: %s", strerror(errno));
	return sum + (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL +
	       (uint64_t)ru.ru_stime.tv_usec * 1000;
}

/* one run: @grids grids of @blocks blocks at once on @fds; CPU ns spent */
static uint64_t policy_run(const char *policy, int *fds, unsigned int nr_fds,
			   unsigned int grids, unsigned int blocks,
			   uint64_t cycles, uint32_t *handles)
{
	struct gputbs_submit s;
	struct gputbs_wait w;
	uint64_t c0, c1;
	unsigned int i;

	if (write_file(SYSFS_POLICY, policy, false))
		die("policy: selecting %s: %s", policy, strerror(errno));
	grid_init(&s, blocks, cycles);
	c0 = policy_cpu_ns();
	for (i = 0; i < grids; i++) {
		s.handle = 0;
		handles[i] = submit(fds[i % nr_fds], &s);
	}
	for (i = 0; i < grids; i++) {
		wait_grid(fds[i % nr_fds], handles[i], 0, &w);
		if (w.blocks_done != blocks)
			die("policy: %s: grid %u ran %u of %u blocks", policy,
			    handles[i], w.blocks_done, blocks);
	}
	c1 = policy_cpu_ns();
	return c1 - c0;
}

static int cmd_policy(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policies", required_argument, NULL, 'p' },
		{ "grids", required_argument, NULL, 'g' },
		{ "blocks", required_argument, NULL, 'n' },
		{ "cycles", required_argument, NULL, 't' },
		{ "reps", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int grids = 128, blocks = 100, reps = 5, nr_fds, nr_pol = 0;
	unsigned int i, p, r;
	char list[256] = "fifo,bpf_fifo", *pol[16], *tok, initial[64] = "";
	uint64_t cycles = 100, *ps[16];
	uint32_t *handles;
	struct json j;
	int c, *fds;

	while ((c = getopt_long(argc, argv, "p:g:n:t:r:", opts, NULL)) != -1) {
		if (c == 'p')
			snprintf(list, sizeof(list), "%s", optarg);
		else if (c == 'g')
			grids = strtoul(optarg, NULL, 10);
		else if (c == 'n')
			blocks = strtoul(optarg, NULL, 10);
		else if (c == 't')
			cycles = strtoull(optarg, NULL, 10);
		else if (c == 'r')
			reps = strtoul(optarg, NULL, 10);
		else
			return 2;
	}
	for (tok = strtok(list, ","); tok && nr_pol < 16; tok = strtok(NULL, ","))
		pol[nr_pol++] = tok;
	if (!grids || !blocks || !cycles || !reps || !nr_pol)
		die("policy: --grids, --blocks, --cycles, --reps and --policies must be non-empty");
	fds = calloc(grids, sizeof(*fds));
	handles = calloc(grids, sizeof(*handles));
	if (!fds || !handles)
		die("out of memory");
	fds[0] = dev_open();
	dev_info(fds[0]);
	nr_fds = (grids + info.max_grids_per_fd - 1) / info.max_grids_per_fd;
	for (i = 1; i < nr_fds; i++)
		fds[i] = dev_open();
	{
		char *text;
		size_t len;

		text = read_all(SYSFS_POLICY, &len);
		if (text && strchr(text, '['))
			snprintf(initial, sizeof(initial), "%s",
				 strchr(text, '[') + 1);
		initial[strcspn(initial, "]")] = '\0';
		free(text);
	}
	for (p = 0; p < nr_pol; p++) {
		ps[p] = calloc(reps, sizeof(uint64_t));
		if (!ps[p])
			die("out of memory");
	}
	/* a warm-up under each: per-(grid, SM) states, caches, the JIT */
	for (p = 0; p < nr_pol; p++)
		policy_run(pol[p], fds, nr_fds, grids, blocks, cycles, handles);
	for (r = 0; r < reps; r++)
		for (p = 0; p < nr_pol; p++)
			ps[p][r] = policy_run(pol[p], fds, nr_fds, grids,
					      blocks, cycles, handles) *
				   1000 / ((uint64_t)grids * blocks);
	if (initial[0])
		write_file(SYSFS_POLICY, initial, false);
	json_line_open(&j, "policy");
	json_device(&j);
	json_u64(&j, "grids", grids);
	json_u64(&j, "blocks", blocks);
	json_u64(&j, "cycles", cycles);
	json_obj(&j, "ps_per_event");
	for (p = 0; p < nr_pol; p++)
		json_array_u64(&j, pol[p], ps[p], reps);
	json_obj_end(&j);
	json_line_end(&j);
	for (i = 0; i < nr_fds; i++)
		close(fds[i]);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: gputbs-bench abi|fidelity|mem|memsnap|policy|timer [OPTIONS]\n"
		"\n"
		"In-guest benchmarks of /dev/gputbs (Documentation/performance.rst):\n"
		"  abi       [--reps R] [--iters N] [--slow-iters M]\n"
		"  fidelity  [--reps R] [--blocks N] [--cycles T] [--rsd-ppm P]\n"
		"            [--threads T] [--regs R] [--shmem B] [--no-trace]\n"
		"  mem       [--grids N] [--reps R] [--arriving]\n"
		"  timer     [--reps R] [--iters N] [--period-us P]\n"
		"  memsnap   LABEL\n"
		"  policy    [--policies LIST] [--grids G] [--blocks N] [--cycles T]\n"
		"            [--reps R]\n"
		"Results: one line \"" PREFIX "{...}\" each.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "abi"))
		return cmd_abi(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fidelity"))
		return cmd_fidelity(argc - 1, argv + 1);
	if (!strcmp(argv[1], "mem"))
		return cmd_mem(argc - 1, argv + 1);
	if (!strcmp(argv[1], "timer"))
		return cmd_timer(argc - 1, argv + 1);
	if (!strcmp(argv[1], "memsnap"))
		return cmd_memsnap(argc - 1, argv + 1);
	if (!strcmp(argv[1], "policy"))
		return cmd_policy(argc - 1, argv + 1);
	usage(stderr);
	return 2;
}
