/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_trace.cuh - record per thread block its SM and its start and end
 * time on a real NVIDIA GPU, for gputbs predict and for workloads
 * (Documentation/trace-format.rst, "Block traces of a real GPU").
 *
 * In a kernel:
 *
 *	__global__ void k(..., gtbs_trace_rec *trace)
 *	{
 *		gtbs_trace_begin(trace);
 *		... the kernel's work ...
 *		gtbs_trace_end(trace);
 *	}
 *
 * gtbs_trace_begin() makes the block's first thread read %smid and
 * %globaltimer; gtbs_trace_end() waits for all the block's threads
 * (__syncthreads(), so every thread must reach it: call it where the
 * kernel would return, not inside a branch) and reads %globaltimer again.
 * On the host, gtbs_trace_alloc() gives a zeroed device buffer for a grid,
 * gtbs_trace_fetch() copies it back, gtbs_trace_residency() gives R for
 * the trace's grid line, and gtbs_trace_write() (gputbs_trace_writer.h)
 * writes the file.  tools/cuda/example.cu uses all of them.
 *
 * %globaltimer is a ns counter; on many GPUs it advances in steps of
 * about 1 us (32 ns on some), so a short block may start and end at the
 * same reading: the writer then ends it one cycle after its start and
 * counts it (&gtbs_trace_stats.bumped).  The two extra instructions per
 * block and the __syncthreads() are the tracer's cost.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef GPUTBS_TRACE_CUH
#define GPUTBS_TRACE_CUH

#include <cuda_runtime.h>

#include "gputbs_trace_writer.h"

/* The SM this thread runs on (PTX special register %smid). */
static __device__ __forceinline__ unsigned int gtbs_smid(void)
{
	unsigned int r;

	asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
	return r;
}

/* The global nanosecond timer (PTX special register %globaltimer). */
static __device__ __forceinline__ unsigned long long gtbs_globaltimer(void)
{
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/* The block's linear index in its grid. */
static __device__ __forceinline__ unsigned int gtbs_block_index(void)
{
	return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

static __device__ __forceinline__ bool gtbs_first_thread(void)
{
	return !threadIdx.x && !threadIdx.y && !threadIdx.z;
}

/* At the start of a block: its SM and start time, by its first thread. */
static __device__ __forceinline__ void gtbs_trace_begin(gtbs_trace_rec *trace)
{
	if (gtbs_first_thread()) {
		gtbs_trace_rec *r = &trace[gtbs_block_index()];

		r->start = gtbs_globaltimer();
		r->smid = gtbs_smid();
	}
}

/* At the end of a block, reached by all its threads: its end time. */
static __device__ __forceinline__ void gtbs_trace_end(gtbs_trace_rec *trace)
{
	__syncthreads();
	if (gtbs_first_thread())
		trace[gtbs_block_index()].end = gtbs_globaltimer();
}

/* A zeroed device buffer for @blocks records; NULL on failure. */
static inline gtbs_trace_rec *gtbs_trace_alloc(unsigned int blocks)
{
	gtbs_trace_rec *d = NULL;

	if (cudaMalloc((void **)&d, blocks * sizeof(*d)) != cudaSuccess)
		return NULL;
	if (cudaMemset(d, 0, blocks * sizeof(*d)) != cudaSuccess) {
		cudaFree(d);
		return NULL;
	}
	return d;
}

/* Copy @blocks records back to @host (after the grid completed). */
static inline cudaError_t gtbs_trace_fetch(gtbs_trace_rec *host,
					   const gtbs_trace_rec *dev,
					   unsigned int blocks)
{
	return cudaMemcpy(host, dev, blocks * sizeof(*host),
			  cudaMemcpyDeviceToHost);
}

/* R: the most blocks of @kernel an SM holds at once; 0 on failure. */
template <typename K>
static inline unsigned int gtbs_trace_residency(K kernel, int threads,
						size_t dyn_shmem)
{
	int r = 0;

	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r, kernel, threads,
							  dyn_shmem) !=
	    cudaSuccess)
		return 0;
	return r > 0 ? (unsigned int)r : 0;
}

#endif /* GPUTBS_TRACE_CUH */
