#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/doc-examples.py - run the commands README.md and Documentation/
tell a user to run, as they are written there, so that they work when
pasted.

Commands come from README.md's ```sh blocks and from the literal blocks
(``::``) of Documentation/*.rst: every line (with its continuation lines:
a trailing backslash, a trailing &&, or an open single quote) whose first
word is a command a user runs (make, tools/vm/gputbs-vm, build/bin/...,
gputbs, gputbs-sim, trace-cmd, cat, echo, cd), a leading "$ " removed.
Synopses (option brackets, FILE-like placeholders) and output lines
("gputbs: FILE:LINE: ...") are not commands.

  - Host commands (make, tools/vm/gputbs-vm, build/bin/..., scripts/...) run
    as written from the top of the tree, each with a time limit.
  - Bare gputbs, cat, echo, cd and trace-cmd lines are what a user types
    inside the guest (or on a machine with the module loaded): they run,
    block by block, in one tools/vm/gputbs-vm guest, each block in a
    subshell starting in /.
  - SKIP below lists, with the reason, the commands that cannot run in
    make check (they are make check, run for hours, need a terminal, a
    GPU profile or a file the reader supplies).

Usage: scripts/doc-examples.py [--list] [--host-only|--guest-only] [FILE...]
Prints "ok - FILE:LINE: COMMAND" or "not ok - ..." per command and ends
with "examples: N passed, M failed, K skipped".
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (regular expression on the command, why it does not run in make check)
SKIP = [
    (r"^make( +-j\S+)? *(#.*)?$", "the full build; make check runs it first"),
    (r"^make check\b", "this is make check itself"),
    (r"^make (demo|bench|eval|eval-preempt|stress|fuzz|fit-timing)\b",
     "its own target (minutes to hours), not part of make check; make check "
     "runs the tests behind it"),
    (r"^make samples( |$)", "make check builds the samples itself (samples-ko, samples-so)"),
    (r"^make sim-eval\b", "the same sweep as the gputbs-sim eval --plot example"),
    (r"^sudo ", "needs a host where modules may be loaded"),
    (r"^gputbs top *(#.*)?$", "interactive (q quits); the README's gputbs top --iterations example runs"),
    (r"^gputbs monitor\b.*--format json *(#.*)?$",
     "waits for events until interrupted; tests/guest/gputbs-nl-cli-test.sh runs it with --count"),
    (r"import nsys .*app(_cuda_gpu_trace)?\.csv",
     "the reader's own nsys report; tests/userland/import-test.sh runs the importer"),
    (r"import nsys --device gtx480 good/h100-torch\.csv",
     "shows the error on purpose (exit 2); tests/userland/import-test.sh "
     "asserts its message"),
    (r"pairs/\*\.gtbs", "all 56 pairs in the guest, about 7 minutes"),
    (r"\bworkload\.gtbs\b", "a placeholder for the reader's own workload"),
    (r"\S\|\S", "a template: one of the alternatives a|b is meant"),
    (r"gputbs-trace-example|/tmp/ex\.(alone|corun)\.trace",
     "needs an NVIDIA GPU (none in make check); tests/userland/cuda-trace-test.sh "
     "runs the trace writer on synthetic records"),
    (r"^scripts/predict-compare\.sh ", "needs a build from before a change"),
    (r"gputbs-sim sweep .*-o (base|prio|llm)\.json",
     "the ranking sweeps, 10 to 14 minutes of CPU each; tests/userland/sweep-test.sh "
     "runs the sweep"),
    (r"^scripts/sweep-table\.py (base|prio|llm)\.json",
     "needs the ranking sweeps' JSON"),
]
HOST = re.compile(r"^(make|tools/|build/bin/|scripts/|python3)\b")
GUEST = re.compile(r"^(gputbs|gputbs-sim|trace-cmd|cat|echo|cd)( |$)")
OUTPUT = re.compile(r"^(gputbs|gputbs-sim)[:,]|^gputbs [a-z]+[:,]")


def strip_comment(cmd):
    """The command without a trailing shell comment (" # ..." outside quotes)."""
    quote = None
    for i, c in enumerate(cmd):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or cmd[i - 1] in " \t"):
            return cmd[:i].rstrip()
    return cmd


def is_synopsis(cmd):
    """An option synopsis: [--option] brackets or placeholders."""
    return bool(re.search(r"\[-|\[[A-Z]|\bFILE\b|\bDIR\b|\bLIST\b|\bPAIR\b|\bWORKLOAD\b|\bTRACE\b", cmd))


def join_lines(lines, i):
    """The command starting at lines[i]: with its continuation lines."""
    cmd = lines[i].strip()
    j = i
    while j + 1 < len(lines):
        body = strip_comment(cmd)
        if body.endswith("\\") or body.endswith("&&") or body.count("'") % 2:
            j += 1
            cmd += "\n" + lines[j].rstrip()
        else:
            break
    return cmd, j


def blocks_md(text):
    """(first line number, lines) of each ```sh block."""
    out, cur, start = [], None, 0
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if cur is None and s in ("```sh", "```bash"):
            cur, start = [], n + 1
        elif cur is not None and s.startswith("```"):
            out.append((start, cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def blocks_rst(text):
    """(first line number, lines) of each literal block."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        s = lines[i].rstrip()
        if s.endswith("::") and not s.lstrip().startswith(".. ") or \
                re.match(r"\s*\.\. code-block:: *(sh|bash|console)", s):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j >= len(lines):
                break
            ind = len(lines[j]) - len(lines[j].lstrip())
            base = len(lines[i]) - len(lines[i].lstrip())
            if ind <= base:
                i = j
                continue
            k, body = j, []
            while k < len(lines) and (not lines[k].strip() or
                                      len(lines[k]) - len(lines[k].lstrip()) >= ind):
                body.append(lines[k][ind:])
                k += 1
            out.append((j + 1, body))
            i = k
        else:
            i += 1
    return out


def commands(path):
    """(line, command, where, skip reason) of the file's commands."""
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    blocks = blocks_md(text) if path.endswith(".md") else blocks_rst(text)
    found = []
    for bno, (start, lines) in enumerate(blocks):
        i = 0
        while i < len(lines):
            raw = lines[i].strip()
            prompt = raw.startswith("$ ")
            if prompt:
                lines[i] = lines[i].replace("$ ", "", 1)
                raw = raw[2:]
            first = raw.split(" ")[0] if raw else ""
            if not raw or raw.startswith("#") or OUTPUT.match(raw) or \
                    not (HOST.match(raw) or GUEST.match(raw)) or \
                    first.endswith(":"):
                i += 1
                continue
            cmd, j = join_lines(lines, i)
            line = start + i
            i = j + 1
            if is_synopsis(cmd):
                continue
            where = "host" if HOST.match(cmd) else "guest"
            reason = None
            for rx, why in SKIP:
                if re.search(rx, strip_comment(cmd.split("\n")[0])) or \
                        re.search(rx, cmd) and "|" in rx:
                    reason = why
                    break
            found.append((line, cmd, where, reason, bno))
    return found


def main():
    args = sys.argv[1:]
    list_only = "--list" in args
    host_only = "--host-only" in args
    guest_only = "--guest-only" in args
    files = [a for a in args if not a.startswith("--")]
    if not files:
        files = ["README.md"] + sorted(
            "Documentation/" + f for f in os.listdir(os.path.join(ROOT, "Documentation"))
            if f.endswith(".rst"))
    passed = failed = skipped = 0
    guest = []
    os.chdir(ROOT)
    env = dict(os.environ)
    for path in files:
        for line, cmd, where, reason, bno in commands(path):
            shown = cmd.replace("\n", " ")
            if reason:
                skipped += 1
                print(f"skip - {path}:{line}: {shown}  ({reason})")
                continue
            if list_only:
                print(f"{where} - {path}:{line}: {shown}")
                continue
            if where == "guest":
                guest.append((path, line, cmd, bno))
                continue
            if guest_only:
                continue
            try:
                r = subprocess.run(["bash", "-c", cmd], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=900, env=env)
                rc, out = r.returncode, r.stdout.decode(errors="replace")
            except subprocess.TimeoutExpired:
                rc, out = 124, "timed out after 900 s\n"
            if rc == 0:
                passed += 1
                print(f"ok - {path}:{line}: {shown}")
            else:
                failed += 1
                print(f"not ok - {path}:{line}: {shown} (exit {rc})")
                print("".join("  | " + x + "\n" for x in out.splitlines()[-30:]), end="")
    if guest and not list_only and not host_only:
        # one guest: each command in a subshell starting in /, in the
        # order of the files
        script = ["cd /"]
        prev = None
        for n, (path, line, cmd, bno) in enumerate(guest):
            if (path, bno) != prev:
                script.append("cd /")
                prev = (path, bno)
            script.append(f"( {cmd}\n) >/tmp/ex.out 2>&1; rc=$?; echo \"EXAMPLE {n} $rc\"; "
                          "[ $rc = 0 ] || tail -n 20 /tmp/ex.out | sed 's/^/  | /'")
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "guest.log")
            tools = []
            for prog in ("trace-cmd", "gnuplot"):
                if shutil.which(prog):
                    tools += ["--host-bin", prog]
            # the BPF policies Documentation/bpf.rst loads from /bpf, as
            # its host command (make bpf-samples) built them
            build = os.environ.get("BUILD", "build")
            for obj in sorted(glob.glob(os.path.join(ROOT, build, "bpf", "*.bpf.o"))):
                tools += ["--host-file", f"{obj}=/bpf/{os.path.basename(obj)}"]
            r = subprocess.run(["tools/vm/gputbs-vm", "--timeout", "1500"] + tools +
                               ["--", "\n".join(script)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            out = r.stdout.decode(errors="replace")
            open(log, "w").write(out)
            status = dict(re.findall(r"^EXAMPLE (\d+) (\d+)", out, re.M))
            for n, (path, line, cmd, bno) in enumerate(guest):
                shown = cmd.replace("\n", " ")
                rc = status.get(str(n))
                if rc == "0":
                    passed += 1
                    print(f"ok - {path}:{line}: {shown} (guest)")
                else:
                    failed += 1
                    print(f"not ok - {path}:{line}: {shown} (guest, exit {rc})")
            if r.returncode != 0:
                failed += 1
                print(f"not ok - the guest of the examples exited {r.returncode}")
                print("".join("  | " + x + "\n" for x in out.splitlines()[-30:]), end="")
    print(f"examples: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
