#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise tools/bench/submit-ftrace.sh's function_graph passes.

  tools/bench/submit-ftrace.py DIR [FIRST LAST]

For the SUBMIT calls FIRST..LAST-1 (default 20..128: the batch on an idle
device, past the first calls' cold caches) of each DIR/pass-N.txt: the
median over calls of each traced function's inclusive time (summed within
one SUBMIT), less 0.9 us per traced call (what a call that does nothing
measures under TCG), and its share of pass 0's handler alone.
"""
import re
import statistics
import sys

LINE = re.compile(r'^\s*\d+\)\s+([!#@*+$ ]?\s*[\d.]+ us)?\s*\|\s*(.*)$')
ROOT = 'gputbs_ioctl_submit'
TRACER_US = 0.9


def fname(text):
    return text.split(' [')[0].split('.')[0]


def calls(path):
    """Per SUBMIT: {function: [us, calls]}."""
    out, stack, cur = [], [], None
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            dur, body = m.group(1), m.group(2).strip()
            us = float(re.sub(r'[^\d.]', '', dur[:-3])) if dur else None
            if body.endswith('() {'):
                name = fname(body[:-4])
                if name == ROOT:
                    cur, stack = {}, []
                if cur is not None:
                    stack.append(name)
            elif body.endswith('();') and us is not None:
                name = fname(body[:-3])
                if name == ROOT and cur is None:
                    out.append({ROOT: [us, 1]})
                elif cur is not None:
                    t = cur.setdefault(name, [0.0, 0])
                    t[0] += us
                    t[1] += 1
            elif body.startswith('}') and cur is not None and stack:
                name = stack.pop()
                t = cur.setdefault(name, [0.0, 0])
                t[0] += us or 0.0
                t[1] += 1
                if not stack:
                    out.append(cur)
                    cur = None
    return out


def main():
    d = sys.argv[1]
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    last = int(sys.argv[3]) if len(sys.argv) > 3 else 129
    base = None
    for n in range(10):
        try:
            sel = calls(f'{d}/pass-{n}.txt')[first:last]
        except FileNotFoundError:
            break
        names = sorted({k for c in sel for k in c})
        med = {k: (statistics.median(c.get(k, [0, 0])[0] for c in sel),
                   statistics.median(c.get(k, [0, 0])[1] for c in sel))
               for k in names}
        if n == 0:
            base = med[ROOT][0]
            print(f'pass 0: {ROOT}() alone: {base:.2f} us '
                  f'(median of {len(sel)} SUBMITs)')
            continue
        print(f'pass {n}: {ROOT}() {med[ROOT][0]:.2f} us traced')
        rows = sorted(((us - TRACER_US * k, us, k, name)
                       for name, (us, k) in med.items() if name != ROOT),
                      reverse=True)
        for net, us, k, name in rows:
            print(f'  {name:28} {k:4.0f}x  traced {us:7.2f} us  '
                  f'net {net:7.2f} us  {100 * net / base:5.1f}%')


if __name__ == '__main__':
    main()
