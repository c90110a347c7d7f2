#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# slurm-test.sh - a gputbs-sim sweep as Slurm job arrays on a real
# single-node Slurm, merged, against the sweep run in one piece
# (Documentation/evaluation.rst, "Sweeps on a cluster").
#
# Usage: slurm-test.sh PATH-TO-gputbs-sim     (as root; make check-slurm)
#
# It starts, in a temporary directory and on ports of its own, a munged
# with its own key and socket, then Slurm's slurmctld and slurmd from a
# slurm.conf written here (one node, this machine's CPUs; no cgroups,
# accounting or system files), so it neither needs nor touches a Slurm or
# munge the machine may already run.  Then:
#
#   doc       Documentation/evaluation.rst's copy of scripts/sweep.sbatch
#             is the file
#   env       SLURM_ARRAY_TASK_ID=1 _MIN=0 _COUNT=2 picks shard 2/2
#   array     scripts/sweep.sbatch as sbatch --array=0-1, merged by a
#             dependent job (the commands of the documentation), is the
#             serial sweep's JSON byte for byte
#   array     as --array=5-7%2 (three shards, the first ID 5, two at a
#             time), merged here to text, is the serial sweep's text byte
#             for byte
#
# Every daemon it started is stopped on exit and the directory removed; on
# a failure the daemons' and the jobs' logs are printed.  The sweep is
# short (8 points, about 2 s of CPU).  The last line is
# "slurm: N passed, M failed".
set -eu

sim=${1:?usage: slurm-test.sh PATH-TO-gputbs-sim}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $sim in /*) ;; *) sim=$PWD/$sim ;; esac
cd "$root"

# the test may itself run in a Slurm job: its array variables would pick
# a shard for the serial sweeps
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX \
	SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_STEP SLURM_ARRAY_JOB_ID \
	SLURM_JOB_ID SLURM_CONF

tmp=
pids=()
jobs_submitted=()
out=/dev/null
# shellcheck source=tests/userland/lib.sh
. "$root/tests/userland/lib.sh"

say() { echo "slurm-test: $*"; }

logs() {
	local f
	[ -n "$tmp" ] || return 0
	for f in "$tmp"/*.err "$tmp"/*.log "$tmp"/jobs/*.out; do
		[ -s "$f" ] || continue
		echo "--- $f (last 30 lines)"
		tail -n 30 "$f"
	done
}

stop() {	# stop PID: TERM, then KILL after 10 s
	local i
	kill -TERM "$1" 2>/dev/null || return 0
	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

cleanup() {
	local rc=$? i
	# nothing stops the cleanup, not even a reader that went away
	trap '' PIPE HUP INT TERM
	trap - EXIT
	if [ ${#jobs_submitted[@]} -ne 0 ] && [ -n "${SLURM_CONF:-}" ]; then
		timeout 10 scancel "${jobs_submitted[@]}" 2>/dev/null || true
	fi
	# slurmd, slurmctld, munged: the reverse of their start
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		stop "${pids[i]}"
	done
	if [ "$failed" -ne 0 ] || [ "$rc" -ne 0 ]; then
		logs
	fi
	[ -z "$tmp" ] || rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# A failure that ends the test: counted, then the summary, status 1.
abort() {
	fail "$*"
	summary slurm || true
	exit 1
}

# --- what it needs ---------------------------------------------------------
[ "$(id -u)" = 0 ] || abort "needs root (slurmd runs the jobs as their user)"
for c in munged munge unmunge slurmctld slurmd sbatch sinfo scancel python3; do
	command -v "$c" >/dev/null 2>&1 ||
		abort "$c not found: install slurm-wlm and munge (make deps-check)"
done
[ -x "$sim" ] || abort "$sim: not an executable"

# --- the documentation's copy of scripts/sweep.sbatch is the file -----------
doc_copy() {	# the code block after "``scripts/sweep.sbatch``, in full"
	python3 - "$root/Documentation/evaluation.rst" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = next(n for n, l in enumerate(lines) if l.startswith("``scripts/sweep.sbatch``, in full"))
i = next(n for n in range(i, len(lines)) if lines[n].startswith(".. code-block::")) + 1
body = []
for l in lines[i:]:
    if l and not l.startswith("   "):
        break
    body.append(l[3:])
print("\n".join(body).strip("\n"))
PY
}
if doc_copy | cmp -s - "$root/scripts/sweep.sbatch"; then ok; else
	doc_copy | diff -u - "$root/scripts/sweep.sbatch" | sed 's/^/  | /'
	fail "Documentation/evaluation.rst's copy of scripts/sweep.sbatch is not the file"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gputbs-slurm-test.XXXXXX")
# munged wants its socket's directory searchable by all and nothing
# writable by others on the way to its key
chmod 755 "$tmp"
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/jobs"
out=$tmp/out

# --- munge: its own key, socket and daemon ---------------------------------
head -c 1024 /dev/urandom >"$tmp/munge.key"
chmod 600 "$tmp/munge.key"
sock=$tmp/munge.socket
munged --foreground --socket="$sock" --key-file="$tmp/munge.key" \
	--log-file="$tmp/munged.log" --pid-file="$tmp/munged.pid" \
	--seed-file="$tmp/munged.seed" 2>>"$tmp/munged.log" &
pids+=($!)
for _ in $(seq 100); do
	[ -S "$sock" ] && break
	sleep 0.1
done
if munge --socket="$sock" -n 2>"$out" | unmunge --socket="$sock" >>"$out" 2>&1; then
	ok
else
	sed 's/^/  | /' "$out"
	abort "munged on $sock does not encode and decode a credential"
fi

# --- Slurm: slurm.conf, slurmctld, slurmd ----------------------------------
# two free TCP ports, not Slurm's 6817/6818, so that a system Slurm is left
# alone
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])') || abort "no free TCP ports"
read -r ctld_port d_port <<<"$ports"
node=$(hostname -s)
# this machine as slurmd sees it: CPUs, sockets, cores, threads, memory
hw=$(slurmd -C | sed -n 's/^NodeName=[^ ]* \(.*\)$/\1/p' |
	sed 's/ *RealMemory=\([0-9]*\).*/ RealMemory=\1/')
case $hw in *CPUs=*RealMemory=*) ;; *) abort "slurmd -C: no CPUs and RealMemory in '$hw'" ;; esac
conf=$tmp/slurm.conf
cat >"$conf" <<EOF
# written by tests/cluster/slurm-test.sh
ClusterName=gputbs-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=gputbs Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
# the jobs' simulator: the one under test (sbatch passes the environment on)
export GPUTBS_SIM=$sim
# in the foreground (-D), so that their PIDs are ours to stop; what they
# print before their log files open goes to *.err
slurmctld -D -f "$conf" >"$tmp/slurmctld.err" 2>&1 &
pids+=($!)
slurmd -D -f "$conf" >"$tmp/slurmd.err" 2>&1 &
pids+=($!)
state=
for _ in $(seq 120); do
	state=$(timeout 5 sinfo -h -n "$node" -o %t 2>/dev/null || true)
	[ "$state" = idle ] && break
	for p in "${pids[@]}"; do
		kill -0 "$p" 2>/dev/null || abort "a daemon exited (pid $p)"
	done
	sleep 0.5
done
if [ "$state" = idle ]; then ok; else
	abort "node $node not idle in 60 s (sinfo: '$state')"
fi
say "slurmctld on port $ctld_port, slurmd on $d_port, node $node idle"

# --- the sweep in one piece --------------------------------------------------
# 8 points: 2 policies x 4 loads, 5 ms of requests each
scen=workloads/scenarios/resnet50-infer+train.gtbs
# shellcheck disable=SC2054 # the commas are the options' own
sweep=(--policies fifo,srtf --load 0.2,0.6,1.0,1.4 --duration 5ms "$scen")
"$sim" sweep "${sweep[@]}" --format json -o "$tmp/serial.json" ||
	abort "the serial sweep failed"
"$sim" sweep "${sweep[@]}" -o "$tmp/serial.txt" ||
	abort "the serial sweep (text) failed"

# --- a Slurm array task's variables pick its shard ---------------------------
if ! "$sim" sweep "${sweep[@]}" --format json --shard 2/2 -o "$tmp/shard2.json" ||
	! SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=2 \
		"$sim" sweep "${sweep[@]}" --format json -o "$tmp/task1.json"; then
	fail "the shard 2/2 or the array task 1 of 0-1 failed"
elif cmp "$tmp/shard2.json" "$tmp/task1.json" && grep -q '"shard": "2/2"' "$tmp/task1.json"; then
	ok
else
	fail "SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=2 is not --shard 2/2"
fi

# sbatch ARGS...: prints the job ID; with --wait, returns the job's status
submit() {
	local id rc=0
	id=$(timeout 300 sbatch --parsable "$@" 2>>"$out") || rc=$?
	echo "${id%%;*}"
	return $rc
}

# job_ok ID: every task of the job (an array's, or the one) COMPLETED.
# sbatch --wait alone does not tell: a job cancelled before it ran (its
# dependency never met) has exit code 0.
job_ok() {
	local states
	states=$(timeout 10 scontrol -o show job "$1" |
		sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
	if [ -z "$states" ] || echo "$states" | grep -qvx COMPLETED; then
		echo "job $1: not every task COMPLETED:" "$(echo "$states" | tr "\n" " ")"
		return 1
	fi
}

# --- sbatch --array=0-1, merged by a dependent job -----------------------------
# the documentation's two commands (evaluation.rst), with --wait on the
# second so that it ends when the merge has run
a=$tmp/a
: >"$out"
jid=$(submit --array=0-1 -o "$tmp/jobs/a-%A_%a.out" scripts/sweep.sbatch \
	"$a" "${sweep[@]}") || true
if [ -n "$jid" ]; then
	jobs_submitted+=("$jid")
	say "job array $jid (0-1) submitted"
	mid=$(submit --wait --dependency="afterok:$jid" --kill-on-invalid-dep=yes \
		-o "$tmp/jobs/a-merge.out" \
		--wrap "$sim sweep --merge --format json -o $a/sweep.json $a/shard-*.json") ||
		true
	[ -z "$mid" ] || jobs_submitted+=("$mid")
	if [ -n "$mid" ] && job_ok "$jid" >>"$out" && job_ok "$mid" >>"$out"; then
		ok
	else
		sed 's/^/  | /' "$out"
		fail "array 0-1 and its merge job did not both complete"
	fi
else
	sed 's/^/  | /' "$out"
	fail "sbatch --array=0-1 scripts/sweep.sbatch refused the job"
fi
shards=$(cd "$a" 2>/dev/null && echo shard-*.json)
if [ "$shards" = "shard-0.json shard-1.json" ] &&
	grep -q '"shard": "1/2"' "$a/shard-0.json" &&
	grep -q '"shard": "2/2"' "$a/shard-1.json"; then
	ok
else
	fail "array 0-1: shards '$shards', not shard-0.json (1/2) and shard-1.json (2/2)"
fi
if cmp "$tmp/serial.json" "$a/sweep.json"; then ok; else
	fail "array 0-1 merged is not the serial sweep's JSON"
fi

# --- sbatch --array=5-7%2: three shards from task ID 5, 2 at a time ----------
b=$tmp/b
: >"$out"
jid=$(submit --wait --array=5-7%2 -o "$tmp/jobs/b-%A_%a.out" \
	scripts/sweep.sbatch "$b" "${sweep[@]}") || true
[ -z "$jid" ] || jobs_submitted+=("$jid")
if [ -n "$jid" ] && job_ok "$jid" >>"$out"; then
	ok
else
	sed 's/^/  | /' "$out"
	fail "array 5-7%2 did not complete"
fi
if "$sim" sweep --merge -o "$b/sweep.txt" "$b"/shard-7.json "$b"/shard-5.json \
	"$b"/shard-6.json && cmp "$tmp/serial.txt" "$b/sweep.txt" &&
	grep -q '"shard": "3/3"' "$b/shard-7.json"; then
	ok
else
	fail "array 5-7%2 merged is not the serial sweep's text"
fi

summary slurm
