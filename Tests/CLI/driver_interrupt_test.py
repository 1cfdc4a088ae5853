#!/usr/bin/env python3
"""Interrupts the drivers (`layout-bench compare-commits` and `history`) with SIGINT in the middle
of a timed round, over fake harnesses in a scratch repository, and checks that earlier results stay
byte for byte as they were, that nothing partial remains (no `.tmp-` comparison folder, no half-merged
side, no staged commit of the history store) and that the round's children (a duet) end with it.

Usage: Tests/CLI/driver_interrupt_test.py BINARY
"""
import os, shutil, signal, subprocess, sys, tempfile, time

# A commit's layout-bench as the drivers see it: `run --help-hidden` names the hidden options (with
# the duet), `list --json` two scenarios, and `run … --out DIR` writes one group's results. Once the
# calls to it reach the number in HANG (a file beside it), a timed run writes its pid to
# HANGING and sleeps, as a long measurement would. Every timed run appends its pid to
# layout-bench.pids. Its folder is written into it (@HERE@): the
# drivers time fresh copies of it elsewhere.
FAKE = r"""#!/bin/sh
here="@HERE@"
if [ "$1" = list ]; then echo '{"scenarios": [{"name": "a", "items": [1000]}, {"name": "b", "items": [1000, 2000]}]}'; exit 0; fi
if [ "$2" = --help-hidden ]; then echo '--verified --verify-only --brief --duet'; exit 0; fi
echo "$*" >>"$here/layout-bench.calls"
n=$(grep -c . "$here/layout-bench.calls")
out=""; scenario="$2"; items=1000; prev=""
for a in "$@"; do [ "$prev" = --out ] && out=$a; [ "$prev" = --items ] && items=$a; prev=$a; done
mkdir -p "$out"
case "$*" in *--verify-only*) echo '{"start_time": "2026-11-26T10:00:00Z"}' >"$out/run.json"; exit 0;; esac
echo $$ >>"$here/layout-bench.pids"
if [ -f "$here/HANG" ] && [ "$n" -ge "$(cat "$here/HANG")" ]; then echo $$ >"$here/HANGING"; exec sleep 60; fi
{ echo 'schema,run_id,commit,scenario,workload,mode,items,operation,repetition,sample,metric,unit,value'
  for s in 1 2 3 4 5 6 7 8 9 10; do
    echo "2,r$n,abc,$scenario,query,binary,$items,query,1,$s,time,ns,$(awk -v s=$s -v n=$n 'BEGIN { print 100 * (1 + 0.001 * ((s * 7 + n * 3) % 5)) }')"
  done; } | gzip >"$out/samples.csv.gz"
echo '{"start_time": "2026-11-26T10:00:00Z", "end_time": "2026-11-26T10:00:01Z", "machine": {"cpu_model": "fake"}}' >"$out/run.json"
"""

failures = []


def expect(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL " + message)


def git(root, *arguments):
    subprocess.run(["git", "-C", root, "-c", "user.name=test", "-c", "user.email=test@example.com"] + list(arguments),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def tree(directory):
    """Every file under `directory` with its bytes."""
    files = {}
    for parent, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(parent, name)
            files[os.path.relpath(path, directory)] = open(path, "rb").read()
    return files


def leftovers(directory):
    found = []
    for parent, folders, names in os.walk(directory):
        found += [os.path.join(parent, n) for n in folders + names if ".tmp" in n or ".old-" in n]
    return found


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purpose.
    try:
        return open(f"/proc/{pid}/stat").read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def interrupt(command, root, hanging, pid_files, env=None):
    """Runs `command` in `root` until a child hangs, sends the driver SIGINT and returns its status."""
    process = subprocess.Popen(command, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while not os.path.exists(hanging) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    expect(os.path.exists(hanging), f"{command[1]}: no child reached the hanging round ({process.poll()})")
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    try:
        _, error = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        _, error = process.communicate()
        expect(False, f"{command[1]}: did not end within 20 s of SIGINT")
    child = int(open(hanging).read().strip() or 0) if os.path.exists(hanging) else 0
    time.sleep(0.5)
    expect(child == 0 or not alive(child), f"{command[1]}: its hanging child {child} outlived it")
    # Every child either side ever started, including one a lane started while the driver was
    # being interrupted.
    pids = set()
    for path in pid_files:
        if os.path.exists(path):
            pids |= {int(line) for line in open(path).read().split()}
    survivors = sorted(pid for pid in pids if alive(pid))
    expect(not survivors, f"{command[1]}: children {survivors} outlived it")
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    return process.returncode, error


def main():
    binary = os.path.abspath(sys.argv[1])
    # A shell starts a background job with SIGINT ignored, and that survives exec: reset it so the
    # driver starts with the default disposition (as it would at a terminal).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    root = tempfile.mkdtemp(prefix="layout-bench-driver-interrupt-")
    try:
        git(root, "init", "-q")
        for number in range(3):
            git(root, "commit", "-q", "--allow-empty", "-m", f"commit {number}")
        os.makedirs(os.path.join(root, ".build-commits"))
        hashes = subprocess.run(["git", "-C", root, "rev-list", "--reverse", "HEAD"], check=True, capture_output=True,
                                text=True).stdout.split()
        harnesses = {}
        for hash in hashes:
            folder = os.path.join(root, "bin", hash)
            os.makedirs(folder)
            path = os.path.join(folder, "layout-bench")
            with open(path, "w") as f:
                f.write(FAKE.replace("@HERE@", folder))
            os.chmod(path, 0o755)
            harnesses[hash] = path
        build = os.path.join(root, "build")
        with open(build, "w") as f:
            f.write(f"#!/bin/sh\necho \"{root}/bin/$1/layout-bench\"\n")
        os.chmod(build, 0o755)

        # compare-commits: a first comparison completes; the second, of the same commits (verified
        # before, so no verification now), is interrupted at the base's 2nd group of round 2.
        base, head = harnesses[hashes[0]], harnesses[hashes[1]]
        command = [binary, "compare-commits", "--no-plot", "--base-binary", base, "--head-binary", head, hashes[0], hashes[1]]
        first = subprocess.run(command, cwd=root, capture_output=True, text=True)
        expect(first.returncode == 0, f"compare-commits: the first comparison exited {first.returncode}: {first.stderr[-500:]}")
        results = os.path.join(root, "results", "compare")
        earlier = tree(results)
        expect(any(name.endswith("compare.txt") for name in earlier), f"compare-commits: no compare.txt in {sorted(earlier)}")
        hang = os.path.join(os.path.dirname(base), "HANG")
        hanging = os.path.join(os.path.dirname(base), "HANGING")
        # Three times: a lane that starts its next group's child while the driver is being
        # interrupted (that child outlived the driver before SignalCleanup.startChild) is a
        # race, seen in about half of the interruptions.
        for _ in range(3):
            calls = len(open(base + ".calls").read().splitlines())
            with open(hang, "w") as f:
                f.write(str(calls + 3 + 2))
            if os.path.exists(hanging):
                os.remove(hanging)
            status, error = interrupt(command, root, hanging, [base + ".pids", head + ".pids"])
            expect(status in (-signal.SIGINT, 130), f"compare-commits: exit {status} after SIGINT, expected the signal's: {error[-300:]}")
            expect(tree(results) == earlier, "compare-commits: the earlier comparison's files changed")
            expect(leftovers(root + "/results") == [], f"compare-commits: left {leftovers(root + '/results')}")
            os.remove(hang)

        # history: the first two commits stored, then the range up to the third measured (the
        # second is stored, so the third alone: verification, 3 groups of round 1, interrupted at
        # its 2nd group of round 2): the stored commits stay as they were, nothing of the third
        # is stored, no measuring folder is left.
        history = [binary, "history", "--machine", "test", "--no-plot", "--build-command", build, "--rounds", "3"]
        done = subprocess.run(history + [hashes[0]], cwd=root, capture_output=True, text=True)
        expect(done.returncode == 0, f"history: storing the first commit exited {done.returncode}: {done.stderr[-500:]}")
        done = subprocess.run(history + [hashes[1]], cwd=root, capture_output=True, text=True)
        expect(done.returncode == 0, f"history: storing the second commit exited {done.returncode}: {done.stderr[-500:]}")
        store = os.path.join(root, "results", "history", "test")
        stored = {h: tree(os.path.join(store, h)) for h in hashes[:2]}
        third = harnesses[hashes[2]]
        hang = os.path.join(os.path.dirname(third), "HANG")
        hanging = os.path.join(os.path.dirname(third), "HANGING")
        with open(hang, "w") as f:
            f.write(str(1 + 3 + 2))
        status, error = interrupt(history + [f"{hashes[0]}..{hashes[2]}"], root, hanging, [third + ".pids"])
        expect(status in (-signal.SIGINT, 130), f"history: exit {status} after SIGINT: {error[-300:]}")
        expect({h: tree(os.path.join(store, h)) for h in hashes[:2]} == stored, "history: a stored commit changed")
        expect(not os.path.exists(os.path.join(store, hashes[2])), "history: the interrupted commit was stored")
        expect(leftovers(store) == [] and not [n for n in os.listdir(store) if n.startswith(".measuring")],
               f"history: left {leftovers(store)} {os.listdir(store)}")

        # A commit's build interrupted: what the build left in its TMPDIR (SwiftPM's
        # TemporaryDirectory.* and *.lock) goes with it; the driver's TMPDIR is left empty.
        tmpdir = os.path.join(root, "tmp")
        os.makedirs(tmpdir)
        hanging = os.path.join(root, "BUILD-HANGING")
        slow = os.path.join(root, "slow-build")
        with open(slow, "w") as f:
            f.write('#!/bin/sh\nmkdir "$TMPDIR/TemporaryDirectory.abc"; touch "$TMPDIR/build.lock"\n'
                    f'echo $$ >{hanging}\nexec sleep 60\n')
        os.chmod(slow, 0o755)
        building = [binary, "history", "--machine", "building", "--no-plot", "--build-command", slow, hashes[2]]
        status, error = interrupt(building, root, hanging, [], env=dict(os.environ, TMPDIR=tmpdir))
        expect(status in (-signal.SIGINT, 130), f"history: exit {status} after SIGINT during a build: {error[-300:]}")
        expect(os.listdir(tmpdir) == [], f"history: an interrupted build left {os.listdir(tmpdir)} in TMPDIR")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if failures:
        print(f"driver interrupt test: {len(failures)} failures")
        sys.exit(1)
    print("driver interrupt test: compare-commits and history interrupted mid-round and mid-build; earlier results intact, "
          "nothing partial left")


if __name__ == "__main__":
    main()
