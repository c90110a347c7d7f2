// SPDX-License-Identifier: GPL-2.0
/*
 * example.cu - gputbs_trace.cuh on two kernels: a vector add and a tiled
 * matrix multiply, each alone and then both at once on two streams.
 *
 *   make cuda-trace                    # needs nvcc on PATH
 *   build/cuda/gputbs-trace-example /tmp/ex
 *   build/bin/gputbs predict --trace /tmp/ex.alone.trace
 *   build/bin/gputbs predict --trace /tmp/ex.corun.trace
 *
 * writes PREFIX.alone.trace (vecadd, then matmul, each alone) and
 * PREFIX.corun.trace (both launched together on two streams), in cycles
 * of the GPU's SM clock (cudaDevAttrClockRate; -c KHZ to give another,
 * -c 0 for ns).  Documentation/trace-format.rst, "Block traces of a real
 * GPU".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vector>

#include "gputbs_trace.cuh"

#define CHECK(x)							\
	do {								\
		cudaError_t e_ = (x);					\
		if (e_ != cudaSuccess) {				\
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__,	\
				__LINE__, #x, cudaGetErrorString(e_));	\
			exit(1);					\
		}							\
	} while (0)

#define VEC_N		(1 << 24)
#define VEC_THREADS	256
#define MM_N		1024
#define TILE		16

__global__ void vecadd(const float *a, const float *b, float *c, int n,
		       gtbs_trace_rec *trace)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	gtbs_trace_begin(trace);
	if (i < n)
		c[i] = a[i] + b[i];
	gtbs_trace_end(trace);
}

/* C = A B, n x n, n a multiple of TILE: the shared-memory tiled kernel. */
__global__ void matmul(const float *a, const float *b, float *c, int n,
		       gtbs_trace_rec *trace)
{
	__shared__ float as[TILE][TILE], bs[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;

	gtbs_trace_begin(trace);
	for (int t = 0; t < n / TILE; t++) {
		as[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
		bs[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = sum;
	gtbs_trace_end(trace);
}

struct run {
	const char *label;
	unsigned int blocks;
	unsigned int residency;
	gtbs_trace_rec *dev;
	std::vector<gtbs_trace_rec> host;
};

static void launch(run &vec, run &mm, const float *x, const float *y,
		   float *z, const float *ma, const float *mb, float *mc,
		   cudaStream_t sv, cudaStream_t sm, bool vec_on, bool mm_on)
{
	if (vec_on) {
		CHECK(cudaMemset(vec.dev, 0, vec.blocks * sizeof(gtbs_trace_rec)));
		vecadd<<<vec.blocks, VEC_THREADS, 0, sv>>>(x, y, z, VEC_N,
							    vec.dev);
		CHECK(cudaGetLastError());
	}
	if (mm_on) {
		CHECK(cudaMemset(mm.dev, 0, mm.blocks * sizeof(gtbs_trace_rec)));
		matmul<<<dim3(MM_N / TILE, MM_N / TILE), dim3(TILE, TILE), 0,
			 sm>>>(ma, mb, mc, MM_N, mm.dev);
		CHECK(cudaGetLastError());
	}
	CHECK(cudaDeviceSynchronize());
}

static void write_trace(const char *path, run *runs[], unsigned int n,
			unsigned long long khz, const char *what)
{
	std::vector<gtbs_trace_grid> grids(n);
	char comment[512];
	cudaDeviceProp prop;
	gtbs_trace_stats st;
	FILE *f;
	int ret;

	CHECK(cudaGetDeviceProperties(&prop, 0));
	snprintf(comment, sizeof(comment), "%s on %s (%d SMs): %s",
		 "gputbs-trace-example", prop.name,
		 prop.multiProcessorCount, what);
	for (unsigned int i = 0; i < n; i++) {
		runs[i]->host.resize(runs[i]->blocks);
		CHECK(gtbs_trace_fetch(runs[i]->host.data(), runs[i]->dev,
				       runs[i]->blocks));
		grids[i].label = runs[i]->label;
		grids[i].blocks = runs[i]->blocks;
		grids[i].residency = runs[i]->residency;
		grids[i].recs = runs[i]->host.data();
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	ret = gtbs_trace_write(f, grids.data(), n, khz, comment, &st);
	if (fclose(f) || ret) {
		fprintf(stderr, "%s: cannot write the trace (%s)\n", path,
			strerror(ret ? -ret : errno));
		exit(1);
	}
	printf("%s: %u grid%s, at most %u blocks per SM at once, %u block%s ended one cycle after their start\n",
	       path, n, n == 1 ? "" : "s", st.max_slots, st.bumped,
	       st.bumped == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
	unsigned long long khz = 0;
	bool khz_given = false;
	float *x, *y, *z, *ma, *mb, *mc;
	cudaStream_t sv, sm;
	char path[4096];
	int opt, clock = 0;

	while ((opt = getopt(argc, argv, "c:h")) != -1) {
		if (opt == 'c') {
			khz = strtoull(optarg, NULL, 10);
			khz_given = true;
		} else {
			fprintf(stderr, "Usage: %s [-c CLOCK_KHZ] PREFIX\n",
				argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "Usage: %s [-c CLOCK_KHZ] PREFIX\n", argv[0]);
		return 2;
	}
	if (!khz_given &&
	    cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0) ==
	    cudaSuccess && clock > 0)
		khz = (unsigned long long)clock;

	CHECK(cudaMalloc((void **)&x, VEC_N * sizeof(float)));
	CHECK(cudaMalloc((void **)&y, VEC_N * sizeof(float)));
	CHECK(cudaMalloc((void **)&z, VEC_N * sizeof(float)));
	CHECK(cudaMalloc((void **)&ma, MM_N * MM_N * sizeof(float)));
	CHECK(cudaMalloc((void **)&mb, MM_N * MM_N * sizeof(float)));
	CHECK(cudaMalloc((void **)&mc, MM_N * MM_N * sizeof(float)));
	CHECK(cudaMemset(x, 0, VEC_N * sizeof(float)));
	CHECK(cudaMemset(y, 0, VEC_N * sizeof(float)));
	CHECK(cudaMemset(ma, 0, MM_N * MM_N * sizeof(float)));
	CHECK(cudaMemset(mb, 0, MM_N * MM_N * sizeof(float)));
	CHECK(cudaStreamCreateWithFlags(&sv, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&sm, cudaStreamNonBlocking));

	run vec = { "vecadd", VEC_N / VEC_THREADS,
		    gtbs_trace_residency(vecadd, VEC_THREADS, 0), NULL, {} };
	run mm = { "matmul", (MM_N / TILE) * (MM_N / TILE),
		   gtbs_trace_residency(matmul, TILE * TILE, 0), NULL, {} };
	vec.dev = gtbs_trace_alloc(vec.blocks);
	mm.dev = gtbs_trace_alloc(mm.blocks);
	if (!vec.dev || !mm.dev || !vec.residency || !mm.residency) {
		fprintf(stderr, "cannot allocate the trace buffers or compute the residency\n");
		return 1;
	}

	/* warm up (module load, clocks), not recorded */
	launch(vec, mm, x, y, z, ma, mb, mc, sv, sm, true, true);

	run *alone[2] = { &vec, &mm };
	launch(vec, mm, x, y, z, ma, mb, mc, sv, sm, true, false);
	vec.host.resize(vec.blocks);
	CHECK(gtbs_trace_fetch(vec.host.data(), vec.dev, vec.blocks));
	launch(vec, mm, x, y, z, ma, mb, mc, sv, sm, false, true);
	/* the vecadd records of the alone run back into its buffer */
	CHECK(cudaMemcpy(vec.dev, vec.host.data(),
			 vec.blocks * sizeof(gtbs_trace_rec),
			 cudaMemcpyHostToDevice));
	snprintf(path, sizeof(path), "%s.alone.trace", argv[optind]);
	write_trace(path, alone, 2, khz,
		    "vecadd, then matmul, each alone");

	launch(vec, mm, x, y, z, ma, mb, mc, sv, sm, true, true);
	snprintf(path, sizeof(path), "%s.corun.trace", argv[optind]);
	write_trace(path, alone, 2, khz,
		    "vecadd and matmul launched together on two streams");
	printf("then: gputbs predict --trace %s.alone.trace\n", argv[optind]);
	return 0;
}
