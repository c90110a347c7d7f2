#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/build-samples.sh KDIR MODDIR OUTDIR [make args...]
#
# Builds the sample policy modules (samples/policies/, one .ko per source)
# out of tree with W=1 against KDIR, linking against the gputbs.ko built
# in MODDIR (its Module.symvers, KBUILD_EXTRA_SYMBOLS: the policy API is
# EXPORT_SYMBOL_GPL), and copies the .ko files into OUTDIR.  As
# build-module.sh does, the sources (and the core's headers, sm-emu/*.h)
# are mirrored into OUTDIR/kbuild so that object files never land in the
# work tree.  Any compiler, modpost or kernel-doc warning fails the build.
set -euo pipefail

usage="usage: build-samples.sh KDIR MODDIR OUTDIR [make args]"
kdir=${1:?$usage}
moddir=${2:?$usage}
out=${3:?$usage}
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$kdir/Makefile" ]; then
	echo "build-samples: no kernel build tree at '$kdir' (run scripts/deps.sh)" >&2
	exit 1
fi
if [ ! -f "$moddir/Module.symvers" ]; then
	echo "build-samples: no $moddir/Module.symvers: build gputbs.ko there first" >&2
	exit 1
fi
symvers=$(cd "$moddir" && pwd)/Module.symvers
kb=$out/kbuild
mkdir -p "$kb/sm-emu"
rsync -a --delete --include='*.c' --include=Kbuild --exclude='*' \
	"$root/samples/policies/" "$kb/"
rsync -a --delete --include='*.h' --exclude='*' "$root/sm-emu/" "$kb/sm-emu/"
kb=$(cd "$kb" && pwd)
log=$kb/build.log
if ! make -C "$kdir" M="$kb" W=1 KBUILD_EXTRA_SYMBOLS="$symvers" "$@" \
	modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "build-samples: build against $kdir failed" >&2
	exit 1
fi
# make's own notices ("make[1]: warning: jobserver unavailable") are not
# the compiler's
if grep -E 'warning:|error:|WARNING:' "$log" |
	grep -v -e 'Skipping BTF generation' -e '^make\(\[[0-9]*\]\)\?: ' >&2; then
	echo "build-samples: warnings building against $kdir (W=1 must be clean)" >&2
	exit 1
fi
cp "$kb"/*.ko "$out/"
echo "build-samples: $(cd "$kb" && ls ./*.ko | tr '\n' ' ')against $kdir, in $out"
