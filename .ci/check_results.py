#!/usr/bin/env python3
"""Checks the output of `layout-bench run --quick`: exact CSV headers, parseable rows, every
scenario of Scenarios/ present with every mode, the metrics docs/csv.md requires, and run.json
(which describes every metric summary.csv holds, as `list --json` does).

Usage: check_results.py RESULTS_DIR [BINARY]. Which modes are heuristics (and so may have a recall
below 1) comes from `BINARY list --json` (default .build/release/layout-bench), never from a list
kept here."""
import csv, glob, gzip, json, math, os, subprocess, sys

SAMPLES = "schema,run_id,commit,scenario,workload,mode,items,operation,repetition,sample,metric,unit,value"
SUMMARY = ("schema,run_id,commit,scenario,workload,mode,items,operation,metric,unit,samples,"
           "min,p25,median,p75,p90,p99,max,mean,mad,ci_low,ci_high")

def fail(message):
    print(f"check_results: FAIL: {message}")
    sys.exit(1)

out = sys.argv[1]
binary = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", ".build", "release", "layout-bench")
try:
    catalog = json.loads(subprocess.run([binary, "list", "--json"], check=True, capture_output=True, text=True).stdout)
except (OSError, subprocess.CalledProcessError, ValueError) as error:
    fail(f"{binary} list --json: {error}")
heuristics = {(w["kind"], m["name"]) for w in catalog["workloads"] for m in w["modes"] if not m["exact"]}
if not heuristics:
    fail("list --json names no heuristic mode; the recall check would test nothing")
def open_csv(path):
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")

for name, header in (("samples.csv.gz", SAMPLES), ("summary.csv", SUMMARY)):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        fail(f"{path} is missing")
    with open_csv(path) as f:
        first = f.readline().rstrip("\n")
        if first != header:
            fail(f"{name} header is {first!r}, expected {header!r}")
leftovers = [p for p in os.listdir(out) if p.startswith(".") or p.endswith(".tmp")]
if leftovers:
    fail(f"temporary files left behind: {leftovers}")

with open(os.path.join(out, "summary.csv"), newline="") as f:
    summary = list(csv.DictReader(f))
with open_csv(os.path.join(out, "samples.csv.gz")) as f:
    samples = list(csv.DictReader(f))
if not summary or not samples:
    fail("no rows")
# A failed mode is recorded (failures.csv, summary.csv's `failed` rows), never just absent: none may fail.
failed = [r for r in summary if r["metric"] == "failed"]
if failed:
    fail(f"{len(failed)} failed groups in summary.csv, first: {failed[0]['scenario']} {failed[0]['mode']} {failed[0]['items']}")
with open(os.path.join(out, "failures.csv"), newline="") as f:
    failure_rows = list(csv.reader(f))
if failure_rows[1:]:
    fail(f"failures.csv records {len(failure_rows) - 1} failed groups, first: {failure_rows[1]}")
# Schema 2 (docs/command-line.md: raised when peak_rss became one group-level row): every row carries it, and
# peak_rss rows have an empty mode and operation (schema 1 copied them under every mode).
SCHEMA = "2"
for row in samples:
    if row["schema"] != SCHEMA:
        fail(f"schema {row['schema']} in samples.csv, expected {SCHEMA}: {row}")
    if row["metric"] == "peak_rss" and (row["mode"] or row["operation"]):
        fail(f"peak_rss row with a mode or operation (schema {SCHEMA} writes one group-level row): {row}")
    if row["value"] != "unsupported":
        v = float(row["value"])
        if math.isnan(v):
            fail(f"NaN value in samples.csv: {row}")

scenarios = {}
for path in sorted(glob.glob("Scenarios/*.json")):
    with open(path) as f:
        spec = json.load(f)
    scenarios[spec["name"]] = spec
if any(r["schema"] != SCHEMA for r in summary):
    fail(f"summary.csv rows of another schema than {SCHEMA}")
seen = {(r["scenario"], r["mode"]) for r in summary}
for name, spec in scenarios.items():
    for mode in spec["modes"]:
        if (name, mode) not in seen:
            fail(f"scenario {name} mode {mode} has no summary rows")
times = [r for r in summary if r["metric"] == "time"]
if any(float(r["median"]) <= 0 for r in times):
    fail("a time median is not positive")
metrics = {r["metric"] for r in summary}
for required in ("time", "alloc_bytes", "allocs", "peak_rss", "recall", "elements"):
    if required not in metrics:
        fail(f"metric {required} missing")
# jemalloc is linked, so allocation counts are measured: none may come out unsupported (with several
# repetitions, the ones that do not count once turned every allocs row into `unsupported`).
for metric in ("alloc_bytes", "allocs"):
    unsupported = [r for r in summary if r["metric"] == metric and r["median"] == "unsupported"]
    if unsupported:
        fail(f"{len(unsupported)} {metric} rows are unsupported, e.g. {unsupported[0]['scenario']} {unsupported[0]['mode']}")
for r in summary:
    if r["metric"] == "recall" and (r["workload"], r["mode"]) not in heuristics and float(r["min"]) != 1.0:
        fail(f"exact mode {r['mode']} of {r['scenario']} has recall {r['min']}")
with open(os.path.join(out, "run.json")) as f:
    run = json.load(f)
# The results describe every metric they hold (run.json's `metrics`), as the binary's workloads
# declare it (`list --json`): compare judges them by it, so a metric without its rule is an error.
described = {m.get("name"): m for m in run.get("metrics") or []}
for metric in sorted(metrics - {"failed"}):
    if metric not in described:
        fail(f"run.json's metrics does not describe {metric}, which summary.csv holds")
listed = {m["name"]: m for m in catalog["metrics"]}
for name, m in described.items():
    entry = listed.get(name)
    if entry is None or (m.get("direction"), m.get("kind"), m.get("unit")) != (entry["better"], entry["kind"], entry["unit"]):
        fail(f"run.json describes {name} as {m.get('direction')}, {m.get('kind')}, {m.get('unit')}; list --json says {entry}")
overhead = run.get("harness_overhead", {}).get("amortised_per_operation_nanoseconds")
if overhead is None or not overhead > 0:
    fail("run.json has no harness_overhead")
print(f"check_results: ok: {len(samples)} samples, {len(summary)} summary rows, "
      f"{len(scenarios)} scenarios, run.json keys: {', '.join(sorted(run))}")
print(f"check: 1 passed, 0 failed")
