#!/usr/bin/env python3
"""Interrupts layout-bench with SIGINT and SIGKILL at seeded moments of `run` (measuring and
writing) and of `dump --out`, and checks that the previous results stay intact and whole, that
a results directory always holds the three files of one run, and that nothing partial remains
(after SIGKILL, the next run removes what the killed one staged).

Usage: Tests/CLI/interrupt_test.py BINARY
"""
import gzip, csv, json, os, random, shutil, signal, subprocess, sys, tempfile, time

FILES = ["samples.csv.gz", "summary.csv", "run.json", "failures.csv"]

def run_ids(directory):
    """The run id of each of the three files; a complete set has one."""
    ids = {json.load(open(os.path.join(directory, "run.json")))["run_id"]}
    for name in FILES[:2]:
        path = os.path.join(directory, name)
        with (gzip.open(path, "rt", newline="") if name.endswith(".gz") else open(path, newline="")) as f:
            ids |= {row["run_id"] for row in csv.DictReader(f)}
    return ids

def snapshot(directory):
    return {name: open(os.path.join(directory, name), "rb").read() for name in FILES}

def partials(parent):
    return [e for e in os.listdir(parent) if ".partial-" in e or ".tmp-" in e]

def main():
    binary = sys.argv[1]
    # A shell starts a background job with SIGINT ignored, and an ignored signal stays ignored
    # across exec: the processes under test would then never see the SIGINTs this test sends.
    # Catching it here makes every child start with the default disposition.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    work = tempfile.mkdtemp(prefix="layout-bench-interrupt-")
    out = os.path.join(work, "results")
    command = [binary, "run", "list-prepare", "list-query", "--quick", "--out", out]
    failures = []
    def expect(condition, message):
        if not condition:
            failures.append(message)
            print("FAIL " + message)

    def start(arguments):
        """Starts a run and returns once it has loaded its scenarios and begins to measure (its
        first line, `layout-bench: N scenarios, …`, printed once the results are staged)."""
        process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in process.stderr:
            if line.startswith("layout-bench: "):
                break
        return process

    process = start(command)
    measuring = time.monotonic()
    process.stderr.read()
    process.wait()
    duration = time.monotonic() - measuring
    expect(sorted(os.listdir(out)) == sorted(FILES), f"first run wrote {os.listdir(out)}")
    expect(len(run_ids(out)) == 1, "first run's files disagree on the run id")

    rng = random.Random(8)
    interrupted = 0
    for attempt in range(6):
        sig = signal.SIGINT if attempt % 2 == 0 else signal.SIGKILL
        before = snapshot(out)
        process = start(command)
        # Spread over the measurement, the last moments (summaries and the write) included.
        time.sleep(rng.uniform(0.0, 1.05) * duration)
        process.send_signal(sig)
        process.stderr.read()
        status = process.wait()
        name = f"{signal.Signals(sig).name} at attempt {attempt}"
        expect(status in (0, -sig), f"{name}: exit status {status}")
        interrupted += status == -sig
        expect(sorted(e for e in os.listdir(out) if not e.startswith(".")) == sorted(FILES), f"{name}: results now {os.listdir(out)}")
        ids = run_ids(out)
        expect(len(ids) == 1, f"{name}: files from two runs: {ids}")
        if status != 0:
            expect(snapshot(out) == before, f"{name}: the previous results changed")
        if sig == signal.SIGINT:
            # (A SIGKILLed run's staging may remain until a later run gets far enough to sweep it.)
            mine = [e for e in partials(work) if f"-{process.pid}-" in e]
            expect(not mine, f"{name}: partial files left: {mine}")
    expect(interrupted >= 4, f"only {interrupted} of 6 runs were interrupted before they finished")
    # After the SIGKILLs, one complete run sweeps what they staged.
    subprocess.run(command, check=True, capture_output=True)
    expect(not partials(work), f"stale staging not removed: {partials(work)}")
    expect(len(run_ids(out)) == 1, "last run's files disagree on the run id")

    # A first run interrupted while measuring creates nothing.
    fresh = os.path.join(work, "fresh")
    process = start([binary, "run", "list-prepare", "list-query", "--quick", "--out", fresh])
    time.sleep(0.3 * duration)
    process.send_signal(signal.SIGINT)
    process.stderr.read()
    status = process.wait()
    mine = [e for e in partials(work) if f"-{process.pid}-" in e]
    if status == 0:
        print("interrupt test: the first run finished before its SIGINT (a loaded machine); not checked")
    else:
        expect(not os.path.exists(fresh) and not mine,
               f"an interrupted first run (status {status}) left {os.listdir(fresh) if os.path.exists(fresh) else mine}")

    # dump --out, as for run: killed by the SIGINT (or finished first, exit 0), the previous file
    # whole and unchanged, no temporary file of that process left; a first dump interrupted
    # creates no file at all.
    target = os.path.join(work, "frames.csv")
    dump = [binary, "dump", "waterfall-append", "--mode", "incremental", "--items", "30000", "--out"]
    started = time.monotonic()
    subprocess.run(dump + [target], check=True, capture_output=True)
    dump_duration = time.monotonic() - started
    whole = open(target, "rb").read()
    interrupted_dumps = 0
    def interrupt_dump(path, fraction):
        process = subprocess.Popen(dump + [path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(fraction * dump_duration)
        process.send_signal(signal.SIGINT)
        status = process.wait()
        left = [e for e in partials(work) if f"-{process.pid}-" in e]
        return status, left
    for attempt in range(4):
        status, left = interrupt_dump(target, rng.uniform(0.1, 0.9))
        expect(status in (0, -signal.SIGINT), f"dump attempt {attempt}: exit status {status}")
        interrupted_dumps += status == -signal.SIGINT
        expect(open(target, "rb").read() == whole, f"dump attempt {attempt} (status {status}): the file changed or is partial")
        expect(not left, f"dump attempt {attempt}: temporary file left: {left}")
    expect(interrupted_dumps >= 2, f"only {interrupted_dumps} of 4 dumps were interrupted before they finished")
    first = os.path.join(work, "first-frames.csv")
    status, left = interrupt_dump(first, 0.3)
    if status == 0:
        expect(open(first, "rb").read() == whole, "a first dump that finished before its SIGINT wrote other frames")
    else:
        expect(status == -signal.SIGINT, f"interrupted first dump: exit status {status}")
        expect(not os.path.exists(first) and not left,
               f"an interrupted first dump (status {status}) left {first if os.path.exists(first) else left}")

    print(f"interrupt test: {interrupted} of 6 runs interrupted, 1 interrupted first run, {interrupted_dumps} of 4 dumps interrupted; {len(failures)} failures")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
