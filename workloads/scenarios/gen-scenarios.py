#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gen-scenarios.py - write the modern scenario set of workloads/scenarios/.

Latency-critical DNN inference next to best-effort training on the h100
device preset (Documentation/evaluation.rst, "Modern scenarios").  Every
number in the generated files comes from this script, and every constant
of this script from the source named beside it; nothing is hand-typed in
the .gtbs files.  Run it from anywhere:

    workloads/scenarios/gen-scenarios.py          # rewrite the files
    workloads/scenarios/gen-scenarios.py --check  # exit 1 if they differ

It prints a table per program (grids, blocks, GFLOP, alone runtime) for
review.

Rule, per GEMM-like kernel (a convolution as an implicit GEMM):

  * the output is tiled in 128 x 128 tiles: blocks = ceil(M/128) *
    ceil(N/128) (times the batch of a batched GEMM, times the split-K
    slices, below);
  * every block has the tile configuration TILE below: 256 threads (8
    warps of 64 x 32), 128 registers per thread, 3 pipeline stages of a
    128 x 64 A tile and a 64 x 128 B tile in BF16 in shared memory,
    3 * (128*64 + 64*128) * 2 = 98,304 bytes; on the h100 preset
    (65,536 registers and 228 KiB per SM) that is R = 2 blocks per SM;
  * a block's duration alone at R is a roofline: t = max(t_flop, t_mem)
    with t_flop = 2 * 128 * 128 * K_slice * R / (FLOP_PER_SM_CYCLE * EFF)
    (R blocks share the SM's tensor cores) and t_mem = bytes * R /
    (BYTES_PER_SM_CYCLE * EFF), where bytes is the block's share of the
    kernel's compulsory DRAM traffic (A, B and C once, BF16);
  * mem= (the share of the per-warp demand on the memory pipe,
    Documentation/timing-model.rst) = t_mem / (t_flop + t_mem), the same
    rule as "gputbs import --ncu" applies to measured DRAM and SM
    throughput;
  * split-K: a GEMM whose tiles fill less than one wave (R * 132 blocks)
    and whose K is above 2 * KSLICE gets S = min(ceil(K / KSLICE),
    floor(R * 132 / tiles)) slices of K (CUTLASS's split-K), so that a
    weight-gradient GEMM with K = batch * H * W does not run on 2 SMs.
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# --- the device: the h100 preset (sm-emu/config.c) ------------------------
SMS = 132                 # NVIDIA H100 Tensor Core GPU Architecture
                          # whitepaper (2022), Table 3: H100 SXM5, 132 SMs
CLOCK_HZ = 1980e6         # the h100 preset's clock, 1980 MHz (maximum
                          # boost of H100 SXM5, sm-emu/config.c)
FLOP_PER_SM_CYCLE = 4096  # dense FP16/BF16 tensor core: 1024 FMA per clock
                          # per SM on A100 and 2x per SM on H100 (H100
                          # whitepaper, "H100 SM Architecture": "2x the
                          # MMA rate of A100 clock-for-clock"; A100
                          # whitepaper: 1024 dense FP16 FMA per clock per
                          # SM), 2 FLOP per FMA.  Check: the NVIDIA H100
                          # datasheet's BF16 Tensor Core 1,979 TFLOPS for
                          # H100 SXM is with sparsity, 989 dense, which is
                          # 4096 x 132 SMs x 1.83 GHz
DRAM_BYTES_PER_S = 3.35e12  # NVIDIA H100 datasheet, H100 SXM: GPU memory
                            # bandwidth 3.35 TB/s
BYTES_PER_SM_CYCLE = DRAM_BYTES_PER_S / CLOCK_HZ / SMS  # 12.8 B/cycle
EFF = 0.5                 # ASSUMPTION, not a measurement: the fraction of
                          # peak (FLOP and bandwidth alike) a block reaches;
                          # it scales every duration by the same factor

# --- the tile configuration -------------------------------------------------
TILE_M = TILE_N = 128     # the 128 x 128 threadblock tile of CUTLASS's
TILE_K = 64               # tensor-op GEMMs (cutlass_profiler names such as
STAGES = 3                # cutlass_tensorop_bf16_s16816gemm_bf16_128x128_
WARPS = 8                 # 64x3: ThreadblockShape 128x128x64, 3 stages),
THREADS = 32 * WARPS      # here with 8 warps of 64 x 32
REGS = 128                # ASSUMPTION: 128 registers per thread (64
                          # accumulators of a 64 x 32 warp tile per thread
                          # in FP32, plus fragments and addresses)
SHMEM = STAGES * (TILE_M * TILE_K + TILE_K * TILE_N) * 2   # 98,304 bytes
KSLICE = 2048             # split-K slice (see the rule above)
GEMV_KSLICE = 256         # CHOICE: the least K slice of a GEMV's split-K
                          # (4 of TILE_K)
BYTES = 2                 # BF16

# the h100 preset's occupancy (CUDA occupancy calculator rules, cc 9.0)
REG_UNIT, REGS_PER_SM, SHMEM_PER_SM = 256, 65536, 228 * 1024
R = min(32, 2048 // THREADS,
        REGS_PER_SM // (WARPS * math.ceil(REGS * 32 / REG_UNIT) * REG_UNIT),
        SHMEM_PER_SM // SHMEM)
assert R == 2

# --- requests ---------------------------------------------------------------
# MLPerf Inference (datacenter) Server scenario latency constraints, the
# 99th percentile: ResNet50-v1.5 15 ms, BERT 130 ms (MLPerf Inference
# rules, "Benchmarks" table, Server latency constraint).
SLO_MS = {'resnet50-infer': 15, 'bert-infer': 130}
LOAD = 0.3     # CHOICE: each inference stream offers 30% of what it could
               # serve alone: rate = LOAD / alone latency (req/s)
REQUESTS = 50   # CHOICE: requests per inference stream, so that the
                # simulator runs a scenario in seconds
SEEDS = {'resnet50-infer': 1, 'bert-infer': 2, 'llama3.1-8b': 3}


def cdiv(a, b):
    return -(-a // b)


class Kernel:
    """One GEMM-like grid: label, M, N, K, batch (batched GEMMs)."""

    def __init__(self, label, m, n, k, batch=1, flops=None, dram=None,
                 note='', token=False, gemv=False):
        self.label, self.m, self.n, self.k, self.batch = label, m, n, k, batch
        self.note = note
        self.token = token
        tiles = cdiv(m, TILE_M) * cdiv(n, TILE_N) * batch
        self.split = 1
        if tiles < R * SMS and gemv:
            self.split = max(1, min(cdiv(k, GEMV_KSLICE),
                                    (R * SMS) // tiles))
        elif tiles < R * SMS and k > 2 * KSLICE:
            self.split = max(1, min(cdiv(k, KSLICE), (R * SMS) // tiles))
        self.blocks = tiles * self.split
        self.flops = flops if flops is not None else 2 * m * n * k * batch
        self.dram = (dram if dram is not None else
                     (m * k + k * n + m * n) * BYTES * batch)
        # per block: its tile's FLOP (full tiles: the ragged edge computes
        # padding, as a tensor-op kernel does) and its share of the traffic
        kslice = cdiv(k, self.split)
        fl = (flops / self.blocks if flops is not None else
              2 * TILE_M * TILE_N * kslice)
        t_flop = fl * R / (FLOP_PER_SM_CYCLE * EFF)
        t_mem = self.dram / self.blocks * R / (BYTES_PER_SM_CYCLE * EFF)
        self.cycles = max(1, round(max(t_flop, t_mem)))
        self.mem_ppm = round(1e6 * t_mem / (t_flop + t_mem))
        self.waves = cdiv(self.blocks, R * SMS)
        self.alone = self.waves * self.cycles   # staircase, Equation 1

    def line(self):
        mem = '%d.%04d' % (self.mem_ppm // 10000, self.mem_ppm % 10000)
        return ('grid %s blocks=%d threads=%d regs=%d shmem=%d cycles=%d '
                'mem=%s' % (self.label, self.blocks, THREADS, REGS, SHMEM,
                            self.cycles, mem)) + (' token=1' if self.token
                                                  else '')

    def comment(self):
        s = '# M=%d N=%d K=%d' % (self.m, self.n, self.k)
        if self.batch > 1:
            s += ' x%d' % self.batch
        if self.split > 1:
            s += ' split-K %d' % self.split
        s += ': %.3f GFLOP, %.2f MB, %d wave%s' % (
            self.flops / 1e9, self.dram / 1e6, self.waves,
            '' if self.waves == 1 else 's')
        if self.note:
            s += '; ' + self.note
        return s


# --- ResNet-50: He, Zhang, Ren, Sun, "Deep Residual Learning for Image
# Recognition", CVPR 2016, Table 1, column "50-layer" ------------------------
# (stage name, output size, [(kernel, channels)] of a bottleneck block,
# blocks); input 224 x 224 x 3; conv1 7x7, 64, stride 2 (112 x 112);
# 3x3 max pool stride 2 (56 x 56); "downsampling is performed by conv3_1,
# conv4_1, and conv5_1 with a stride of 2" (Section 4.1, on the first 1x1
# convolution of the block, as in the paper); projection shortcuts (1x1)
# where the dimensions change (option B, Section 3.3); global average pool,
# 1000-d fc.
RESNET50 = [('conv2', 56, 64, 3), ('conv3', 28, 128, 4),
            ('conv4', 14, 256, 6), ('conv5', 7, 512, 3)]


def resnet50_convs():
    """(label, Hin, Hout, Cin, Cout, kernel size) of every convolution."""
    convs = [('conv1', 224, 112, 3, 64, 7)]
    cin, hin = 64, 56
    for stage, hout, c, blocks in RESNET50:
        for b in range(blocks):
            h0 = hin if b == 0 else hout
            pre = '%s_%d' % (stage, b + 1)
            convs.append((pre + 'a', h0, hout, cin, c, 1))
            convs.append((pre + 'b', hout, hout, c, c, 3))
            convs.append((pre + 'c', hout, hout, c, 4 * c, 1))
            if b == 0:
                convs.append((pre + 'p', h0, hout, cin, 4 * c, 1))
            cin = 4 * c
        hin = hout
    return convs


def resnet50(batch, train):
    ks = []
    convs = resnet50_convs()
    for label, hin, hout, cin, cout, ks_ in convs:
        m, n, k = batch * hout * hout, cout, cin * ks_ * ks_
        ks.append(Kernel(label, m, n, k))
    ks.append(Kernel('fc', batch, 1000, 2048))
    if not train:
        return ks
    # backward, in reverse layer order: data gradient (not for conv1,
    # whose input is the image) and weight gradient of each layer
    ks.append(Kernel('fc_dgrad', batch, 2048, 1000))
    ks.append(Kernel('fc_wgrad', 1000, 2048, batch))
    for label, hin, hout, cin, cout, ks_ in reversed(convs):
        if label != 'conv1':
            ks.append(Kernel(label + '_dgrad', batch * hin * hin, cin,
                             cout * ks_ * ks_))
        ks.append(Kernel(label + '_wgrad', cout, cin * ks_ * ks_,
                         batch * hout * hout))
    return ks


# --- BERT-base: Devlin, Chang, Lee, Toutanova, "BERT: Pre-training of Deep
# Bidirectional Transformers for Language Understanding", NAACL 2019,
# Section 3: BERT-base L=12 layers, H=768, A=12 heads, feed-forward size
# 4H = 3072; sequence length 128 (the length of 90% of its pre-training
# steps, Appendix A.2) -----------------------------------------------------
BERT_L, BERT_H, BERT_A, BERT_FF, BERT_SEQ = 12, 768, 12, 3072, 128


def bert(batch):
    ks = []
    m = batch * BERT_SEQ
    d = BERT_H // BERT_A
    for layer in range(BERT_L):
        p = 'l%d_' % layer
        ks.append(Kernel(p + 'qkv', m, 3 * BERT_H, BERT_H))
        # attention as one fused kernel (FlashAttention: Dao et al.,
        # NeurIPS 2022): a block per head and 128 query rows; S = QK^T
        # and O = PV: 4 * seq * seq * d FLOP per head; Q, K, V, O once
        heads = batch * BERT_A
        ks.append(Kernel(p + 'attn', BERT_SEQ, BERT_SEQ, d, batch=heads,
                         flops=4 * BERT_SEQ * BERT_SEQ * d * heads,
                         dram=4 * BERT_SEQ * d * BYTES * heads,
                         note='fused attention, %d heads' % heads))
        ks.append(Kernel(p + 'proj', m, BERT_H, BERT_H))
        ks.append(Kernel(p + 'ffn1', m, BERT_FF, BERT_H))
        ks.append(Kernel(p + 'ffn2', m, BERT_H, BERT_FF))
    return ks


# --- Llama 3.1 8B: Meta, "The Llama 3 Herd of Models", arXiv 2407.21783,
# Table 3 (8B: 32 layers, model dimension 4,096, FFN dimension 14,336,
# 32 attention heads, 8 key/value heads), vocabulary 128,256 tokens
# (Section 3.2.1 / the Llama 3.1 model card); head size 4096 / 32 = 128;
# SwiGLU feed-forward (gate and up projections fused in one GEMM of
# N = 2 x 14,336, then the down projection), BF16 weights -------------------
LLAMA_L, LLAMA_H, LLAMA_Q, LLAMA_KV, LLAMA_D = 32, 4096, 32, 8, 128
LLAMA_FF, LLAMA_VOCAB = 14336, 128256
# The request: MLPerf Inference v5.0's llama3.1-8b benchmark summarises
# CNN/DailyMail articles (mlcommons/inference, language/llama3.1-8b:
# 13,368 validation samples; its accuracy target gen_len 8,167,644
# characters over gen_num 13,368 outputs, 611 characters per summary).
PROMPT = 1024     # CHOICE: the prompt, tokens: See et al., "Get To The
                  # Point" (ACL 2017), CNN/DailyMail articles average 781
                  # words; at about 1.3 tokens per word (an assumption)
                  # and the instruction, about 1,024
OUT_TOKENS = 16   # CHOICE, for the simulator's cost: the output, tokens.
                  # MLPerf's summaries average 611 characters, about 150
                  # tokens at 4 characters per token (an assumption); 16
                  # keep a request of 16 decode steps (2,577 grids)
                  # simulated in seconds; TPOT is per token and does not
                  # depend on how many follow
LLM_SLO_TTFT_MS, LLM_SLO_TPOT_MS = 2000, 100  # MLPerf Inference v5.0
                  # rules, llama3.1-8b Server: TTFT 2 s, TPOT 100 ms (p99)
LLM_REQUESTS = 6  # CHOICE: requests of the LLM stream (the simulator's
                  # cost: the training loop covers their span)


def llama_layer(p, m, ctx, decode):
    """One decoder layer for m new tokens attending to ctx positions."""
    h, kvh = LLAMA_H, LLAMA_KV * LLAMA_D
    ks = [Kernel(p + 'qkv', m, h + 2 * kvh, h, gemv=decode)]
    group = LLAMA_Q // LLAMA_KV
    if decode:
        # per KV head: the group's query rows against the cached K and V
        ks.append(Kernel(p + 'attn', group, ctx, LLAMA_D, batch=LLAMA_KV,
                         flops=4 * LLAMA_Q * ctx * LLAMA_D,
                         dram=(2 * ctx * LLAMA_KV * LLAMA_D +
                               2 * LLAMA_Q * LLAMA_D) * BYTES,
                         note='decode attention, KV cache of %d' % ctx))
    else:
        # causal: half of 4 * m * m * d per query head
        ks.append(Kernel(p + 'attn', m, m, LLAMA_D, batch=LLAMA_Q,
                         flops=2 * m * m * LLAMA_D * LLAMA_Q,
                         dram=(2 * m * LLAMA_Q * LLAMA_D +
                               2 * m * kvh) * BYTES,
                         note='causal fused attention, %d heads' % LLAMA_Q))
    ks.append(Kernel(p + 'proj', m, h, h, gemv=decode))
    ks.append(Kernel(p + 'ffn1', m, 2 * LLAMA_FF, h, gemv=decode))
    ks.append(Kernel(p + 'ffn2', m, h, LLAMA_FF, gemv=decode))
    return ks


def llama_request(prompt, tokens):
    """Prefill of prompt tokens, then tokens - 1 decode steps."""
    ks = []
    for layer in range(LLAMA_L):
        ks += llama_layer('p%d_' % layer, prompt, prompt, False)
    ks.append(Kernel('p_head', 1, LLAMA_VOCAB, LLAMA_H, token=True, gemv=True,
                     note='LM head of the last position: token 1'))
    for t in range(1, tokens):
        ctx = prompt + t
        for layer in range(LLAMA_L):
            ks += llama_layer('d%d_%d_' % (t, layer), 1, ctx, True)
        ks.append(Kernel('d%d_head' % t, 1, LLAMA_VOCAB, LLAMA_H,
                         token=True, gemv=True,
                         note='token %d' % (t + 1)))
    return ks


PROGRAMS = [
    ('resnet50-infer', 'ResNet-50 inference, batch 1 (He et al. 2016, '
     'Table 1)', lambda: resnet50(1, False), 'models.gtbs'),
    ('bert-infer', 'BERT-base inference, batch 1, sequence 128 (Devlin et '
     'al. 2019)', lambda: bert(1), 'models.gtbs'),
    ('resnet50-train', 'ResNet-50 training step, batch 32: forward, data '
     'and weight gradients (He et al. 2016, Table 1)',
     lambda: resnet50(32, True), 'models.gtbs'),
    ('llama3.1-8b', 'Llama 3.1 8B request at batch 1: prefill of %d '
     'tokens, %d decode steps (Llama 3 Herd of Models, Table 3)' % (
         PROMPT, OUT_TOKENS - 1),
     lambda: llama_request(PROMPT, OUT_TOKENS), 'llama3.1-8b.inc'),
]

SCENARIOS = [
    ('resnet50-infer+train', ['resnet50-infer']),
    ('bert-infer+train', ['bert-infer']),
    ('resnet50-bert-infer+train', ['resnet50-infer', 'bert-infer']),
    ('llama3.1-8b-serve', ['llama3.1-8b']),
]

HEADER = """\
# SPDX-License-Identifier: GPL-2.0
# Generated by workloads/scenarios/gen-scenarios.py: do not edit; change
# the script and run it again.  Device: the h100 preset
# (gputbs-sim --device h100).  The rule and the source of every number:
# the script's docstring and Documentation/evaluation.rst, "Modern
# scenarios".
"""


def ms_to_s(cycles):
    return cycles / CLOCK_HZ * 1e3


def fmt_rate(rate):
    """A rate= value: whole requests per second, or 4 decimals below 10."""
    return '%.0f' % rate if rate >= 10 else '%.4f' % rate


def run_line(p, progs, prio):
    """The run line of inference stream p, with its comment."""
    rate = LOAD / (progs[p] / CLOCK_HZ)
    o = '# %s alone %d cycles = %.3f ms: rate %s / s\n' % (
        p, progs[p], ms_to_s(progs[p]), fmt_rate(rate))
    if p in SLO_MS:
        o += 'run %s requests=%d rate=%s arrival=poisson seed=%d slo=%dms' % (
            p, REQUESTS, fmt_rate(rate), SEEDS[p], SLO_MS[p])
    else:
        o += ('run %s requests=%d rate=%s arrival=poisson seed=%d '
              'slo-ttft=%dms slo-tpot=%dms' % (
                  p, LLM_REQUESTS, fmt_rate(rate), SEEDS[p],
                  LLM_SLO_TTFT_MS, LLM_SLO_TPOT_MS))
    return o + (' class=high' if prio else '') + '\n'


def gen():
    files, table = {}, []
    progs = {}
    out = {}
    for name, desc, make, fname in PROGRAMS:
        if fname not in out:
            out[fname] = [HEADER]
            out[fname].append(
                '# Tile: %dx%dx%d, %d threads, %d registers, %d bytes of '
                'shared memory, R=%d on h100; %d FLOP/cycle/SM at %.0f%%, '
                '%.2f bytes/cycle/SM at %.0f%%\n' % (
                    TILE_M, TILE_N, TILE_K, THREADS, REGS, SHMEM, R,
                    FLOP_PER_SM_CYCLE, EFF * 100, BYTES_PER_SM_CYCLE,
                    EFF * 100))
        o = out[fname]
        ks = make()
        alone = sum(k.alone for k in ks)
        progs[name] = alone
        o.append('\n# %s\n# %d grids, %d blocks, %.2f GFLOP; alone %d '
                 'cycles (%.3f ms at %.0f MHz, the staircase sum)\n' % (
                     desc, len(ks), sum(k.blocks for k in ks),
                     sum(k.flops for k in ks) / 1e9, alone,
                     ms_to_s(alone), CLOCK_HZ / 1e6))
        o.append('program %s\n' % name)
        for k in ks:
            # a decode step after the first: one comment for its grids
            step = k.label.split('_')[0]
            if step[0] == 'd' and step != 'd1':
                if k.label.endswith('_0_qkv'):
                    o.append('# decode step %s, context %d: the grids of '
                             'step 1 with its KV cache\n' % (
                                 step[1:], PROMPT + int(step[1:])))
                o.append(k.line() + '\n')
                continue
            o.append(k.comment() + '\n' + k.line() + '\n')
        table.append((name, len(ks), sum(k.blocks for k in ks),
                      sum(k.flops for k in ks) / 1e9, alone))
    for fname, o in out.items():
        files[fname] = ''.join(o)
    for sname, infer in SCENARIOS:
        need = set(f for n, _, _, f in PROGRAMS
                   if n in infer or n == 'resnet50-train')
        incs = ''.join('include %s\n' % f for f in
                       sorted(need, key=lambda f: f != 'models.gtbs'))
        for prio in (False, True):
            name = sname + ('-prio' if prio else '')
            o = [HEADER, '# Inference: open loop, Poisson arrivals at %.0f%% '
                 'of what the stream could serve alone, with the MLPerf '
                 'Server p99 bound as SLO; training: closed loop, one step '
                 'outstanding.\n' % (LOAD * 100)]
            if prio:
                o.append('# Priority classes: inference high, training low '
                         '(REEF\'s real-time and best-effort tasks; '
                         'XSched\'s and LithOS\'s high- and low-priority '
                         'ones).\n')
            o.append('%s\nworkload %s\n' % (incs, name))
            for p in infer:
                o.append(run_line(p, progs, prio))
            # the training loop runs as long as the inference streams:
            # their mean span (requests / rate) over its step time, plus one
            span = max((LLM_REQUESTS if p not in SLO_MS else REQUESTS) /
                       (LOAD / (progs[p] / CLOCK_HZ)) for p in infer)
            steps = int(span * CLOCK_HZ / progs['resnet50-train']) + 1
            o.append('# resnet50-train alone %d cycles = %.3f ms per step: '
                     '%d steps cover the inference streams\' %.1f ms\n' % (
                         progs['resnet50-train'],
                         ms_to_s(progs['resnet50-train']), steps,
                         span * 1e3))
            o.append('run resnet50-train requests=%d outstanding=1%s\n'
                     % (steps, ' class=low' if prio else ''))
            files[name + '.gtbs'] = ''.join(o)
    return files, table


def main():
    check = '--check' in sys.argv[1:]
    files, table = gen()
    print('%-16s %6s %8s %9s %12s %10s' % ('program', 'grids', 'blocks',
                                            'GFLOP', 'alone(cyc)',
                                            'alone(ms)'))
    for name, n, blocks, gflop, alone in table:
        print('%-16s %6d %8d %9.2f %12d %10.3f' % (name, n, blocks, gflop,
                                                   alone, ms_to_s(alone)))
    bad = 0
    for name, text in sorted(files.items()):
        path = os.path.join(HERE, name)
        if check:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print('%s: differs from the generator\'s output' % path)
                bad = 1
        else:
            with open(path, 'w') as f:
                f.write(text)
    return bad


if __name__ == '__main__':
    sys.exit(main())
