# Shared by scripts/compare-commits and scripts/history: build any commit of this repository in its
# own git worktree and build folder. Sourced, not run; needs scripts/lib.sh first.
#
# Worktrees live in .build-commits/<commit> (git ignores .build*), each with its own .build, so a
# commit is built once and reused. Remove them with: rm -rf .build-commits && git worktree prune

# Prints the full hash of REF, or fails with one clear line.
resolve_commit() {
    local ref=$1 sha
    if ! sha=$(git rev-parse --verify --quiet "$ref^{commit}"); then
        echo "error: '$ref' is not a commit of this repository (try a hash, a branch, a tag or HEAD~1)" >&2
        return 1
    fi
    echo "$sha"
}

# Every function of a commit's build starts on a 64-byte boundary. A change to one function then
# moves the code after it by whole cache lines, so the loops of functions it did not touch keep
# their alignment (and their speed): without it, a comparison with a few lines added to one module
# called rows 7-10% slower or faster that run none of the changed code. Both commits are built so.
COMMIT_BUILD_FLAGS=(-Xswiftc -Xllvm -Xswiftc -align-all-functions=6 -Xcc -falign-functions=64)

# Builds the layout-bench of commit SHA (release, COMMIT_BUILD_FLAGS) and prints the path of its
# binary. Progress and the build log go to stderr and .build-commits/<sha>.build.log.
build_commit() {
    local sha=$1 root="$PWD/.build-commits"
    local tree="$root/$sha" log="$root/$sha.build.log" short
    short=$(git rev-parse --short "$sha")
    mkdir -p "$root"
    if [ ! -e "$tree/.git" ]; then
        rm -rf "$tree"
        git worktree prune
        git worktree add --detach --quiet "$tree" "$sha" >&2 || {
            echo "error: cannot check out $short into $tree" >&2; return 1; }
    fi
    if [ ! -d "$tree/Sources/layout-bench" ] || [ ! -d "$tree/Scenarios" ]; then
        echo "error: commit $short has no harness (no Sources/layout-bench or Scenarios/); pick a later commit" >&2
        git worktree remove --force "$tree" >/dev/null 2>&1 || true
        return 1
    fi
    local binary="$tree/.build/release/layout-bench"
    local stamp="$tree/.build/.built-$sha-aligned"
    if [ ! -x "$binary" ] || [ ! -e "$stamp" ]; then
        echo "building $short (release, functions aligned) in $tree ..." >&2
        if ! (cd "$tree" && swift build -c release --product layout-bench "${COMMIT_BUILD_FLAGS[@]}") >"$log" 2>&1; then
            echo "error: commit $short does not build; the last lines of $log:" >&2
            tail -n 15 "$log" | sed 's/^/    /' >&2
            return 1
        fi
        touch "$stamp"
    fi
    echo "$binary"
}

# The layout-bench of this checkout (for `compare` and `steps`), built in release mode when needed.
current_tool() {
    if ! swift build -c release --product layout-bench >&2; then
        echo "error: this checkout does not build; run swift build and fix it first" >&2
        return 1
    fi
    echo "$PWD/.build/release/layout-bench"
}

# The machine's load before a driver starts anything, as JSON for merge_rounds (--machine-before):
# {"average": [1, 5, 15 minute load], "running": N, "busiest": ["COMMAND P% cpu", ...]}. "running"
# and "busiest" leave out the driver's own process tree (ROOT_PID, default the calling shell); the
# busiest are measured over one second. Empty output when /proc is not there (not Linux).
machine_load() {  # [ROOT_PID]
    python3 - "${1:-$$}" <<'PY' 2>/dev/null || true
import json, os, sys, time
root = int(sys.argv[1])
with open("/proc/loadavg") as f:
    fields = f.read().split()
average = [float(v) for v in fields[:3]]
def table():
    procs = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                text = f.read()
        except OSError:
            continue
        # comm may hold spaces and parentheses: it ends at the last ')'.
        comm = text[text.index("(") + 1:text.rindex(")")]
        rest = text[text.rindex(")") + 2:].split()
        procs[int(name)] = (comm, rest[0], int(rest[1]), int(rest[11]) + int(rest[12]))
    return procs
first = table()
time.sleep(1)
second = table()
own, changed = {root, os.getpid()}, True
while changed:
    changed = False
    for pid, (_, _, parent, _) in second.items():
        if parent in own and pid not in own:
            own.add(pid)
            changed = True
ticks = os.sysconf("SC_CLK_TCK")
busy = []
for pid, (comm, state, _, cpu) in second.items():
    if pid in own or pid not in first:
        continue
    share = (cpu - first[pid][3]) / ticks
    if share >= 0.05:
        busy.append((share, comm))
busy.sort(reverse=True)
running = sum(1 for pid, entry in second.items() if pid not in own and entry[1] == "R")
print(json.dumps({"average": average, "running": running,
                  "busiest": [f"{comm} {round(share * 100)}% cpu" for share, comm in busy[:5]]}))
PY
}

# Merges the samples (samples.csv.gz, or samples.csv of older harnesses) of several rounds (ROUND_DIR...)
# into OUT_DIR/samples.csv.gz and copies the first run's run.json. A round is a run (its independent
# repetitions numbered on 1, 2, … across the rounds) or a directory of per-group runs g-1, g-2, …
# (all numbered as the round's position). Written through a temporary file and renamed.
#
# --machine-before JSON (machine_load's) and --own N (the processes the driver keeps running at once)
# go into the merged run.json's "load" as "before" and "own_processes": `compare` then warns of a
# busy machine by what others loaded it with, not by the driver's own processes.
merge_rounds() {
    local before="" own=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --machine-before) before=$2; shift 2 ;;
            --own) own=$2; shift 2 ;;
            *) break ;;
        esac
    done
    local out=$1; shift
    MACHINE_BEFORE=$before OWN_PROCESSES=$own python3 - "$out" "$@" <<'PY'
import csv, glob, gzip, json, os, shutil, sys
out, rounds = sys.argv[1], sys.argv[2:]
header, rows, numbers, runs = None, [], {}, []
# A round is a results directory (its repetitions numbered on from the rounds before), or a
# directory of one results directory per scenario group (g-1, g-2, ...: compare-commits' timed
# rounds), whose samples all take the round's position as their repetition number, so that the
# two commits' processes of one round pair up.
for position, directory in enumerate(rounds, 1):
    grouped = not os.path.exists(os.path.join(directory, "run.json")) and glob.glob(os.path.join(directory, "g-*"))
    parts = sorted(grouped, key=lambda d: int(d.rsplit("-", 1)[1])) if grouped else [directory]
    for part in parts:
        compressed = os.path.join(part, "samples.csv.gz")
        if not os.path.exists(compressed) and not os.path.exists(os.path.join(part, "samples.csv")):
            continue
        runs.append(part)
        with (gzip.open(compressed, "rt", newline="") if os.path.exists(compressed)
              else open(os.path.join(part, "samples.csv"), newline="")) as f:
            reader = csv.reader(f)
            first = next(reader)
            if header is None:
                header = first
            elif first != header:
                sys.exit(f"error: the samples of {part} have a different header")
            run, rep = header.index("run_id"), header.index("repetition")
            for row in reader:
                if grouped:
                    row[rep] = str(position)
                else:
                    key = (part, row[run], row[rep])
                    row[rep] = str(numbers.setdefault(key, len(numbers) + 1))
                rows.append(row)
if header is None:
    sys.exit("error: no samples in " + ", ".join(rounds))
os.makedirs(out, exist_ok=True)
temporary = os.path.join(out, ".samples.csv.gz.tmp")
with gzip.open(temporary, "wt", newline="", compresslevel=6) as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
os.replace(temporary, os.path.join(out, "samples.csv.gz"))
stale = os.path.join(out, "samples.csv")
if os.path.exists(stale):
    os.remove(stale)
# The first run's facts (machine, toolchain, commit) speak for all; the times, loads, scenario
# loads and coverage span every merged run (one group's start and end said nothing of the side).
manifests = []
for part in runs:
    try:
        with open(os.path.join(part, "run.json")) as f:
            manifests.append(json.load(f))
    except (OSError, ValueError) as error:
        sys.exit(f"error: {os.path.join(part, 'run.json')}: cannot read it ({error})")
merged = dict(manifests[0])
if len(manifests) > 1:
    by_start = sorted(manifests, key=lambda m: m.get("start_time", ""))
    by_end = sorted(manifests, key=lambda m: m.get("end_time") or "")
    merged["start_time"] = by_start[0].get("start_time")
    merged["end_time"] = by_end[-1].get("end_time")
    merged["load"] = {"start": by_start[0].get("load", {}).get("start", []),
                      "end": by_end[-1].get("load", {}).get("end")}
    for key in ("scenario_loads", "coverage"):
        items = [item for m in manifests for item in (m.get(key) or [])]
        if items or key in merged:
            merged[key] = list({json.dumps(i, sort_keys=True): i for i in items}.values())
    merged["merged_runs"] = len(manifests)
    merged["repetitions"] = len({row[rep] for row in rows})
    merged.pop("repetition_start_seconds", None)
if os.environ.get("MACHINE_BEFORE"):
    merged.setdefault("load", {})["before"] = json.loads(os.environ["MACHINE_BEFORE"])
if os.environ.get("OWN_PROCESSES"):
    merged.setdefault("load", {})["own_processes"] = int(os.environ["OWN_PROCESSES"])
temporary = os.path.join(out, ".run.json.tmp")
with open(temporary, "w") as f:
    json.dump(merged, f, indent=4, sort_keys=True)
    f.write("\n")
os.replace(temporary, os.path.join(out, "run.json"))
# The functions' instruction counts are exact: the first round's profile speaks for every round.
profiles = [os.path.join(d, "profiles.csv.gz") for d in runs if os.path.exists(os.path.join(d, "profiles.csv.gz"))]
if profiles:
    shutil.copyfile(profiles[0], os.path.join(out, "profiles.csv.gz"))
PY
}

# shard.json of one share of `compare-commits --shard K/N`: the comparison it belongs to (commits,
# options) and what it ran, for --merge to check before anything is judged.
write_shard_json() {  # FILE BASE_SHA HEAD_SHA K N MEASURED --options ... --scenarios ... --compare ... --share ...
    python3 - "$@" <<'PY'
import json, os, sys
file, base, head, index, count, measured = sys.argv[1:7]
lists, current = {"options": [], "scenarios": [], "compare": [], "share": []}, None
for arg in sys.argv[7:]:
    if arg in ("--options", "--scenarios", "--compare", "--share") and (current != "share"):
        current = arg[2:]
    elif current:
        lists[current].append(arg)
record = {"schema": 1, "base": base, "head": head, "shard": int(index), "shards": int(count),
          "options": lists["options"], "scenarios": lists["scenarios"], "compare_args": lists["compare"],
          "share": lists["share"], "measured": measured}
with open(file + ".tmp", "w") as f:
    json.dump(record, f, indent=4, sort_keys=True)
    f.write("\n")
os.replace(file + ".tmp", file)
PY
}

# Checks the shares given to `compare-commits --merge` (DIR ...) before anything is written: each a
# share (shard.json of schema 1, base/ and head/ with samples and run.json), all of one comparison
# (commits, options, N), every share 1..N once, all from machines alike (CPU, cores, OS, Swift,
# build, allocator; CI runners differ in host name only). Prints the merged folder's default path,
# results/compare/<base>..<head>; else one line naming the file, status 1.
check_shards() {  # DIR ...
    python3 - "$@" <<'PY'
import json, os, sys
def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)
shares, first = {}, None
FACTS = (("CPU", ("machine", "cpu_model")), ("cores", ("machine", "active_cores")), ("operating system", ("os", "pretty_name")),
         ("kernel", ("os", "release")), ("Swift", ("toolchain", "swift_version")), ("build configuration", ("toolchain", "configuration")),
         ("allocator", ("allocator", "name")), ("allocator version", ("allocator", "version")))
def facts(path):
    try:
        with open(path) as f:
            run = json.load(f)
    except (OSError, ValueError) as error:
        fail(f"{path}: cannot read it ({error})")
    if not isinstance(run, dict):
        fail(f"{path}: not a run.json (expected an object)")
    out = {}
    for name, (a, b) in FACTS:
        part = run.get(a)
        out[name] = part.get(b) if isinstance(part, dict) else None
    return out
for directory in sys.argv[1:]:
    path = os.path.join(directory, "shard.json")
    if not os.path.isfile(path):
        fail(f"{path}: no such file (not a share of compare-commits --shard)")
    try:
        with open(path) as f:
            record = json.load(f)
    except (OSError, ValueError) as error:
        fail(f"{path}: cannot read it ({error})")
    if not isinstance(record, dict) or record.get("schema") != 1:
        fail(f"{path}: schema: expected 1, got {record.get('schema') if isinstance(record, dict) else record!r}")
    for key, kind in (("base", str), ("head", str), ("shard", int), ("shards", int), ("options", list), ("scenarios", list), ("compare_args", list)):
        if not isinstance(record.get(key), kind):
            fail(f"{path}: {key}: missing or not a {kind.__name__}")
    if not 1 <= record["shard"] <= record["shards"]:
        fail(f"{path}: shard: {record['shard']} lies outside 1...{record['shards']}")
    for side in ("base", "head"):
        folder = os.path.join(directory, side)
        if not (os.path.isfile(os.path.join(folder, "samples.csv.gz")) and os.path.isfile(os.path.join(folder, "run.json"))):
            fail(f"{folder}: no samples.csv.gz and run.json (an unfinished share?)")
    machine = facts(os.path.join(directory, "base", "run.json"))
    if first is None:
        first = (path, record, machine)
    else:
        first_path, first_record, first_machine = first
        for key, what in (("base", "base commit"), ("head", "head commit"), ("shards", "number of shares"),
                          ("options", "options"), ("scenarios", "scenarios"), ("compare_args", "compare options")):
            if record[key] != first_record[key]:
                fail(f"{path}: {what} {record[key]!r}, but {first_path} has {first_record[key]!r}: not shares of one comparison")
        for name in machine:
            if machine[name] != first_machine[name]:
                fail(f"{os.path.join(directory, 'base', 'run.json')}: {name} {machine[name]!r}, but "
                     f"{os.path.join(os.path.dirname(first_path), 'base', 'run.json')} has {first_machine[name]!r}: "
                     "shares measured on machines that differ cannot be judged together")
    if record["shard"] in shares:
        fail(f"{path}: share {record['shard']} of {record['shards']} given twice (also {shares[record['shard']]})")
    shares[record["shard"]] = path
count = first[1]["shards"]
missing = [str(k) for k in range(1, count + 1) if k not in shares]
if missing:
    fail(f"share{'s' if len(missing) > 1 else ''} {', '.join(missing)} of {count} missing (given: "
         + ", ".join(sorted(shares.values())) + ")")
print(f"results/compare/{first[1]['base'][:7]}..{first[1]['head'][:7]}")
PY
}

# Merges checked shares (DIR ...) into OUT: per side the samples of every share (disjoint scenario
# groups, their repetition numbers kept, so a group's two commits stay paired by round) and the first
# share's run.json (merged_runs summed); OUT/compare-args holds the options compare judges with and
# OUT/shards.txt a line per share for compare.txt.
merge_shards() {  # OUT DIR ...
    python3 - "$@" <<'PY'
import gzip, json, os, sys
out, shares = sys.argv[1], sys.argv[2:]
records = []
for directory in shares:
    with open(os.path.join(directory, "shard.json")) as f:
        records.append((json.load(f), directory))
records.sort(key=lambda r: r[0]["shard"])
for side in ("base", "head"):
    os.makedirs(os.path.join(out, side), exist_ok=True)
    header = None
    temporary = os.path.join(out, side, ".samples.csv.gz.tmp")
    with gzip.open(temporary, "wt", newline="", compresslevel=6) as target:
        for record, directory in records:
            path = os.path.join(directory, side, "samples.csv.gz")
            with gzip.open(path, "rt", newline="") as source:
                first = source.readline()
                if header is None:
                    header = first
                    target.write(first)
                elif first != header:
                    sys.exit(f"error: {path}: its header differs from the first share's (results of another schema)")
                for line in source:
                    target.write(line)
    os.replace(temporary, os.path.join(out, side, "samples.csv.gz"))
    manifests = []
    for record, directory in records:
        with open(os.path.join(directory, side, "run.json")) as f:
            manifests.append(json.load(f))
    merged = dict(manifests[0])
    merged["merged_runs"] = sum(m.get("merged_runs", 1) for m in manifests)
    merged["start_time"] = min(m.get("start_time", "") for m in manifests)
    merged["end_time"] = max((m.get("end_time") or "") for m in manifests)
    merged["shards"] = len(manifests)
    # The busiest machine any share found before it started speaks for the merge's warning.
    befores = [m["load"]["before"] for m in manifests if isinstance(m.get("load"), dict) and isinstance(m["load"].get("before"), dict)]
    if befores:
        merged["load"] = dict(merged.get("load") or {}, before=max(befores, key=lambda b: (b.get("average") or [0])[0]))
    with open(os.path.join(out, side, "run.json"), "w") as f:
        json.dump(merged, f, indent=4, sort_keys=True)
        f.write("\n")
with open(os.path.join(out, "compare-args"), "w") as f:
    f.write(" ".join(records[0][0]["compare_args"]) + "\n")
with open(os.path.join(out, "shards.txt"), "w") as f:
    f.write(f"\nmerged from {len(records)} shares:\n")
    for record, directory in records:
        f.write(f"  share {record['shard']} of {record['shards']} ({directory}): {len(record.get('share', []))} "
                f"groups, measured in {record.get('measured', '?')}\n")
PY
}
