#!/usr/bin/env python3
"""`run --instructions` counts every count the user names with --items (issue 31, item 4).

The callgrind pass caps a scenario's own sweep at 30,000 items and says which counts it left out;
a count named with --items above the cap is counted all the same. A scenario with a sweep of 100
and 40,000 items (a list's prepare: cheap even under callgrind) is run twice, with one repetition:

- without --items: instruction rows at 100 items only, and a note naming 40000 and --items;
- with --items 100 --items 40000: instruction rows at both counts, the one at 40,000 items more
  than 40,000 instructions (a layout of 40,000 rows) and more than 100 times the one at 100, and
  no note.

Needs valgrind; without it, it says so and passes (run.json's counters name callgrind's absence).

Usage: Tests/CLI/instructions_test.py BINARY
"""
import csv, json, os, shutil, subprocess, sys, tempfile

failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


SCENARIO = {
    "name": "instructions-named-counts",
    "description": "a list's prepare with one count above the callgrind pass's cap",
    "layout": {"kind": "list", "lineSpacing": 1},
    "data": {"generate": {"sections": 1, "heights": {"distribution": "uniform", "min": 44, "max": 200}, "seed": 2}},
    "workload": {"kind": "prepare"},
    "modes": ["relayout"],
    "items": [100, 40000],
}


def run(binary, arguments, cwd):
    result = subprocess.run([binary, "run"] + arguments, cwd=cwd, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        fail(f"run {' '.join(arguments)}: exit {result.returncode}: {result.stderr[-1500:]!r}")
    return result


def instruction_rows(directory):
    with open(os.path.join(directory, "summary.csv"), newline="") as f:
        return {int(row["items"]): row for row in csv.DictReader(f) if row["metric"] == "instructions"}


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    binary = os.path.abspath(sys.argv[1])
    if shutil.which("valgrind") is None:
        print("skip: valgrind is not installed (run --instructions writes unsupported rows without it)")
        return 0
    work = tempfile.mkdtemp()
    try:
        scenario = os.path.join(work, "scenario.json")
        with open(scenario, "w") as f:
            json.dump(SCENARIO, f)
        common = [scenario, "--instructions", "--repetitions", "1"]

        sweep = run(binary, common + ["--out", os.path.join(work, "sweep")], work)
        if sweep.returncode == 0:
            rows = instruction_rows(os.path.join(work, "sweep"))
            if sorted(rows) != [100]:
                fail(f"the default sweep: instruction rows at {sorted(rows)}, expected [100]")
            notes = [line for line in sweep.stderr.splitlines() if "--instructions leaves out" in line]
            if len(notes) != 1 or "40000" not in notes[0] or "--items" not in notes[0] or "30000" not in notes[0]:
                fail(f"the default sweep: expected one note naming 40000, the cap 30000 and --items, got {notes!r}")

        named = run(binary, common + ["--items", "100", "--items", "40000", "--out", os.path.join(work, "named")], work)
        if named.returncode == 0:
            rows = instruction_rows(os.path.join(work, "named"))
            if sorted(rows) != [100, 40000]:
                fail(f"--items 100 --items 40000: instruction rows at {sorted(rows)}, expected [100, 40000]")
            else:
                small, large = (rows[n]["median"] for n in (100, 40000))
                if "unsupported" in (small, large) or "" in (small, large) or not (
                        float(large) > 40000 and float(large) > 100 * float(small)):
                    fail(f"--items 100 --items 40000: instructions per prepare {small!r} and {large!r}")
            if "--instructions leaves out" in named.stderr:
                fail("--items 100 --items 40000: a note says a named count was left out")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failures")
        return 1
    print("ok: --instructions counts the named counts and names the sweep's counts it leaves out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
