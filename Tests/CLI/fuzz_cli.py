#!/usr/bin/env python3
"""Runs the built layout-bench on mutated scenario files (written by the Swift test
ScenarioFuzzTests into CORPUS) and checks that none crashes: each either works (exit 0) or
prints exactly one line, `layout-bench: error: FILE: PATH-OR-POSITION: message`, and exits 1.
No signal exit, no other status. A sample also goes through `run --quick`, which must leave
either a complete results directory or nothing.

Then the hardening classes of issue 34 (fuzz_hardening.py, docs/robustness.md): special files as
every input and output, numbers at and beyond every conversion, gzip that expands past the cap,
stdout that fails, and signals at random moments. They are seeded: the seed is printed, and
`--seed S` (or LAYOUT_BENCH_FUZZ_SEED) repeats a run; `--only` and `--case` narrow it to a class
or to the cases whose name contains a text.

Usage: Tests/CLI/fuzz_cli.py CORPUS BINARY [--seed S] [--only issue8,corpus,special,numbers,bomb,stdout,signals,drivers,streams]
                             [--case TEXT] [--keep]
"""
import argparse, json, os, random, re, shutil, subprocess, sys, tempfile

import fuzz_hardening

PARTS = ["issue8", "corpus"] + fuzz_hardening.CLASSES

# The command-line inputs of issue 8, each with the exit status and the start of the one error
# line it must give (None: it must work). {tmp} is a scratch directory, {file} a file in it.
ISSUE_INPUTS = [
    (["run", "list-query", "--quick", "--out", "/proc/x"], 1, "layout-bench: error: --out /proc/x: cannot create the results directory"),
    (["run", "list-query", "--quick", "--out", "{file}"], 1, "layout-bench: error: --out {file}: exists and is not a directory"),
    (["dump", "list-query", "--mode", "binary", "--out", "/proc/x/y.csv"], 1, "layout-bench: error: --out /proc/x/y.csv: cannot write the file"),
    (["run", "list-query", "--items", "-5"], 64, "Error: --items expects an item count >= 1, got -5"),
    (["dump", "list-query", "--mode", "binary", "--offset", "NaN"], 64, "Error: --offset expects a finite number"),
    (["dump", "list-query", "--mode", "binary", "--offset", "-40", "--rect", "-10,-40,390,844", "--out", "{tmp}/d.csv"], 0, None),
    (["render", "list-query", "--mode", "binary", "--offset", "-40", "--out", "{tmp}/r.svg"], 0, None),
]

def check_issue_inputs(binary):
    failures = []
    tmp = tempfile.mkdtemp(prefix="layout-bench-inputs-")
    file = os.path.join(tmp, "a-file")
    open(file, "w").write("x")
    for arguments, status, start in ISSUE_INPUTS:
        arguments = [a.format(tmp=tmp, file=file) for a in arguments]
        result = subprocess.run([binary] + arguments, capture_output=True, text=True, timeout=120)
        first = (result.stderr.splitlines() or [""])[0]
        if result.returncode != status or (start and not first.startswith(start.format(tmp=tmp, file=file))):
            failures.append(f"{' '.join(arguments)}: exit {result.returncode}, stderr {result.stderr.strip()[:500]!r}")
        if status == 1 and len(result.stderr.splitlines()) != 1:
            failures.append(f"{' '.join(arguments)}: expected one error line, got {result.stderr!r}")
    if sorted(os.listdir(tmp)) != ["a-file", "d.csv", "r.svg"]:
        failures.append(f"unexpected files: {os.listdir(tmp)}")
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"fuzz-cli: {len(ISSUE_INPUTS)} command lines of issue 8, {len(failures)} failures")
    return failures

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("LAYOUT_BENCH_FUZZ_SEED") or random.randrange(1 << 32)))
    parser.add_argument("--only", default=",".join(PARTS), help="comma-separated parts: " + ",".join(PARTS))
    parser.add_argument("--case", help="only the hardening cases whose name contains this text")
    parser.add_argument("--keep", action="store_true", help="keep the hardening classes' scratch directory")
    arguments = parser.parse_args()
    parts = [part for part in arguments.only.split(",") if part]
    if unknown := set(parts) - set(PARTS):
        parser.error(f"unknown parts {sorted(unknown)}; known: {','.join(PARTS)}")
    # A shell starts a background job with SIGINT ignored, and that stays ignored across exec:
    # the signal cases' children must start with the default disposition.
    import signal
    signal.signal(signal.SIGINT, signal.default_int_handler)
    failed = False
    if "issue8" in parts or "corpus" in parts:
        failed = fuzz_corpus(arguments.corpus, arguments.binary, "issue8" in parts, "corpus" in parts)
    classes = [c for c in fuzz_hardening.CLASSES if c in parts]
    if classes:
        failed |= bool(fuzz_hardening.run_classes(arguments.binary, arguments.seed, classes, arguments.case, arguments.keep))
    return 1 if failed else 0

def fuzz_corpus(corpus, binary, issue_inputs, mutations):
    issue_failures = check_issue_inputs(binary) if issue_inputs else []
    for failure in issue_failures:
        print("FAIL " + failure)
    files = sorted(f for f in os.listdir(corpus) if f.endswith(".json")) if mutations else []
    if not files:
        if mutations:
            print("fuzz-cli: no corpus (the fuzz test did not run); mutations skipped")
        return bool(issue_failures)
    work = tempfile.mkdtemp(prefix="layout-bench-fuzz-")
    failures, counts = [], {"ok": 0, "refused": 0, "slow": 0}
    for index, name in enumerate(files):
        path = os.path.join(corpus, name)
        mode = "binary"
        try:
            modes = json.load(open(path)).get("modes")
            if isinstance(modes, list) and modes and isinstance(modes[0], str) and modes[0] and not modes[0].startswith("-"):
                mode = modes[0]
        except Exception:
            pass
        commands = [[binary, "dump", path, "--mode", mode, "--out", os.path.join(work, "dump.csv")]]
        if index % 8 == 0:
            commands.append([binary, "run", path, "--quick", "--out", os.path.join(work, f"run-{index}")])
        for command in commands:
            try:
                result = subprocess.run(command, capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                counts["slow"] += 1
                print(f"fuzz-cli: slow (over 120 s, not a crash): {' '.join(command)}")
                continue
            problem = check(result, path, command)
            if problem:
                failures.append(f"{' '.join(command)}\n  {problem}\n  stderr: {result.stderr.strip()[:2000]}")
            else:
                counts["ok" if result.returncode == 0 else "refused"] += 1
    leftovers = [e for e in os.listdir(work) if ".partial-" in e or ".tmp-" in e]
    if leftovers:
        failures.append(f"partial results left behind: {leftovers}")
    print(f"fuzz-cli: {len(files)} mutated scenarios: {counts['ok']} worked, {counts['refused']} refused with one error line, "
          f"{counts['slow']} slow, {len(failures)} failures")
    for failure in failures:
        print("FAIL " + failure)
    shutil.rmtree(work, ignore_errors=True)
    return bool(failures or issue_failures)

ERROR = re.compile(r"^layout-bench: error: (\S+): (.+)$")

def check(result, path, command):
    status = result.returncode
    if status < 0:
        return f"killed by signal {-status}"
    if status not in (0, 1):
        return f"exit status {status}"
    lines = [line for line in result.stderr.splitlines() if line.startswith("layout-bench: error:")]
    out = command[command.index("--out") + 1]
    if status == 0:
        return None if os.path.exists(out) else "exit 0 but no output"
    if command[1] == "run" and os.path.exists(out):
        return "a failed run left a results directory"
    if len(lines) != 1:
        return f"expected one error line, got {len(lines)}"
    match = ERROR.match(lines[0])
    if not match or match.group(1) != path:
        return "the error does not start with the scenario file"
    return None

if __name__ == "__main__":
    sys.exit(main())
