#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/build-module.sh KDIR OUTDIR [make args...]
#
# Builds gputbs.ko (and gputbs_kunit.ko when KDIR has CONFIG_KUNIT) out of
# tree with W=1, in OUTDIR: the sources are mirrored into OUTDIR so object
# files never land in the work tree and several kernels can be built side
# by side.  Any compiler or kernel-doc warning fails the build.
set -euo pipefail

kdir=${1:?usage: build-module.sh KDIR OUTDIR [make args]}
out=${2:?usage: build-module.sh KDIR OUTDIR [make args]}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$kdir/Makefile" ]; then
	echo "build-module: no kernel build tree at '$kdir' (run scripts/deps.sh)" >&2
	exit 1
fi
mkdir -p "$out/tests"
rsync -a --delete "$root/Kbuild" "$root/kmod" "$root/sm-emu" "$root/uapi" "$out/"
rsync -a --delete "$root/tests/kunit" "$out/tests/"
out=$(cd "$out" && pwd)
log=$out/build.log
if ! make -C "$kdir" M="$out" W=1 "$@" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "build-module: build against $kdir failed" >&2
	exit 1
fi
# make's own notices ("make[1]: warning: jobserver unavailable") are not
# the compiler's
if grep -E 'warning:|error:' "$log" |
	grep -v -e 'Skipping BTF generation' -e '^make\(\[[0-9]*\]\)\?: ' >&2; then
	echo "build-module: warnings building against $kdir (W=1 must be clean)" >&2
	exit 1
fi
echo "build-module: $(cd "$out" && ls ./*.ko | tr '\n' ' ')against $kdir"
