"""Charts and an HTML report from LayoutBench results (see scripts/plot for what it draws).

Reads the CSV files that layout-bench writes (samples.csv, summary.csv, compare.csv) and the steps.csv
of scripts/history; writes PNG and SVG per chart, growth.csv, and index.html.
"""
import argparse
import concurrent.futures
import csv
import functools
import html
import json
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

try:
    from matplotlib.layout_engine import TightLayoutEngine  # noqa: E402
except ImportError:  # matplotlib before 3.6, whose figure.tight_layout() leaves no layout engine behind
    TightLayoutEngine = None

from results_csv import COMPARE_HEADER, FAILURES_HEADER, SAMPLES_HEADER, InputError, open_csv, read_csv, samples_path  # noqa: E402
from samples_numpy import time_samples  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODE_COLOURS = {}  # mode -> colour, one per mode in every chart of a report (set by main)
VERDICT_COLOURS = {"regressed": "#c62828", "improved": "#2e7d32", "noisy": "#ef8f00", "unchanged": "#8a8a8a"}


# ---------------------------------------------------------------------------------------------- input

def summarise(processes):
    """{key: (median, p25, p75)} of the values of all processes of each key ({key: {process: values}},
    as time_samples reads them), with numpy's linear percentiles (those of summary.csv)."""
    return {key: tuple(np.percentile(np.concatenate(list(by_process.values())), [50, 25, 75]))
            for key, by_process in processes.items()}


def run_statistics(path):
    """What the charts and answers of a run need from its samples.csv at path: summarise's
    {key: (median, p25, p75)} and {key: {process: median}} (for ratio_interval); the samples
    themselves are not kept."""
    processes = time_samples(path)
    if not processes:
        raise InputError(f"{path}: no time samples to draw")
    medians = {key: {process: float(np.median(values)) for process, values in by_process.items()}
               for key, by_process in processes.items()}
    return summarise(processes), medians


def scenario_questions():
    """Scenario -> the question it answers: its description in Scenarios/, the source `layout-bench
    list --json` reads too (the script tests check that the two agree)."""
    questions = {}
    scenarios = os.path.join(REPO, "Scenarios")
    if os.path.isdir(scenarios):
        for name in sorted(os.listdir(scenarios)):
            if name.endswith(".json"):
                try:
                    with open(os.path.join(scenarios, name)) as f:
                        data = json.load(f)
                    questions[data.get("name", name[:-5])] = data.get("description", "")
                except (OSError, ValueError):
                    pass
    return questions


def machine_facts(run_json):
    try:
        with open(run_json) as f:
            run = json.load(f)
    except (OSError, ValueError):
        return None
    machine, os_, toolchain = run.get("machine", {}), run.get("os", {}), run.get("toolchain", {})
    source, load = run.get("source", {}), run.get("load", {})
    memory = machine.get("memory_bytes")
    return [
        ("run", run.get("run_id", "")),
        ("commit", f"{source.get('commit', '?')}" + (" (uncommitted changes)" if source.get("dirty") else "")),
        ("machine", f"{machine.get('hostname', '?')}: {machine.get('cpu_model', '?')}, "
                    f"{machine.get('active_cores', '?')} cores" + (f", {memory / 2**30:.0f} GiB" if memory else "")),
        ("system", f"{os_.get('pretty_name', '?')}, Linux {os_.get('release', '')}, ASLR {os_.get('aslr', '?')}"),
        ("toolchain", f"{toolchain.get('swift_version', '?')}, {toolchain.get('configuration', '?')} build"),
        ("allocator", f"{run.get('allocator', {}).get('name', '?')} {run.get('allocator', {}).get('version', '')}"),
        ("load average", f"{load.get('start', [])[:1]} at start, {(load.get('end') or [])[:1]} at end"),
        ("time", f"{run.get('start_time', '?')} to {run.get('end_time', '?')}"),
    ]


def assign_mode_colours(modes):
    """One colour per mode name for the whole report, in sorted order: the ten strong colours of
    tab20 first, then its ten light ones."""
    palette = plt.get_cmap("tab20").colors
    first = len(MODE_COLOURS)
    for offset, mode in enumerate(sorted(set(modes) - set(MODE_COLOURS))):
        index = (first + offset) % 20
        MODE_COLOURS[mode] = palette[2 * index if index < 10 else 2 * (index - 10) + 1]


def heuristic_modes(catalog_path):
    """{(workload, mode)} of the heuristic modes, from `layout-bench list --json` (None without it)."""
    if not catalog_path:
        return None
    try:
        with open(catalog_path) as f:
            catalog = json.load(f)
        return {(w["kind"], m["name"]) for w in catalog["workloads"] for m in w["modes"] if not m["exact"]}
    except (OSError, ValueError, KeyError, TypeError):
        return None


# ---------------------------------------------------------------------------------------------- answers

def read_summary(directory):
    """{(scenario, operation, items): {mode: (median, ci_low, ci_high)}} of time, and the scenario's
    workload and accuracy per mode, from summary.csv (None when the directory has none)."""
    path = os.path.join(directory, "summary.csv")
    if not os.path.exists(path):
        return None
    header, rows = read_csv(path)
    column = {name: i for i, name in enumerate(header)}
    needed = ("scenario", "workload", "mode", "items", "operation", "metric", "min", "max", "median", "ci_low", "ci_high")
    if any(name not in column for name in needed):
        raise InputError(f"{path}: not a summary.csv")
    times, workloads, accuracy = {}, {}, {}
    for number, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise InputError(f"{path}: line {number}: {len(row)} fields, header has {len(header)}")
        r = {name: row[i] for name, i in column.items()}
        # A failed group's row (metric `failed`) has no numbers; failures_html shows it.
        if r["median"] == "unsupported" or not r["mode"] or r["metric"] == "failed":
            continue
        workloads[r["scenario"]] = r["workload"]
        try:
            values = tuple(float(r[k]) if r[k] not in ("", "unsupported") else math.nan for k in ("median", "ci_low", "ci_high"))
            items = int(r["items"])
        except ValueError:
            raise InputError(f"{path}: line {number}: median, ci_low, ci_high and items must be numbers")
        if r["metric"] == "time":
            times.setdefault((r["scenario"], r["operation"], items), {})[r["mode"]] = values
        elif r["metric"] in ("recall", "wrong_heights"):
            # The worst value: recall's minimum, wrong heights' maximum.
            worst = r["min"] if r["metric"] == "recall" else r["max"]
            try:
                accuracy[(r["scenario"], r["mode"], items)] = (r["metric"], float(worst))
            except ValueError:
                raise InputError(f"{path}: line {number}: {r['metric']}: expected a number")
    return times, workloads, accuracy


def failures_html(directory):
    """The groups whose mode failed in the run (failures.csv, docs/csv.md), first of the page: a failed
    mode has no rows, and its absence must not read as a good run's. Empty when none failed."""
    path = os.path.join(directory, "failures.csv")
    if not os.path.exists(path):
        return ""
    header, rows = read_csv(path)
    if header != FAILURES_HEADER:
        raise InputError(f"{path}: not a failures.csv (expected the header {','.join(FAILURES_HEADER)})")
    if not rows:
        return ""
    table = ["<table class=\"failed\"><tr><th>scenario</th><th>mode</th><th>items</th><th>check</th><th>step</th>"
             "<th>what went wrong</th></tr>"]
    for number, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise InputError(f"{path}: line {number}: {len(row)} fields, header has {len(header)}")
        r = dict(zip(header, row))
        step = r["step"] + (f" {r['operation']}" if r["operation"] else "")
        table.append("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in (r["scenario"], r["mode"], r["items"], r["check"], step, r["message"]))
                     + "</tr>")
    table.append("</table>")
    return (f"<h2 class=\"failed\">Failed: {len(rows)} mode{'s' if len(rows) != 1 else ''}</h2>"
            "<p>These scenario × mode × items groups failed in the run and have no rows below: the run is not a good one.</p>"
            + "".join(table))


# The fewest processes that ran both modes from which the report bounds their ratio. One process
# shows nothing of how processes differ; two show it by one difference, and a 95% interval of one
# degree of freedom spans 12.7 of its standard deviations each way (a quick run on a busy machine
# printed 1.81× [0.01, 379.72]): a bound on nothing.
RATIO_PROCESSES = 3


@functools.lru_cache(maxsize=None)
def student_t_quantile(p, nu):
    """The p quantile (p > 0.5) of Student's t with nu degrees of freedom: its density integrated
    by Simpson's rule, inverted by bisection (no scipy needed)."""
    log_scale = math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2) - 0.5 * math.log(nu * math.pi)

    def density(x):
        return math.exp(log_scale - (nu + 1) / 2 * math.log1p(x * x / nu))

    def cdf(t, steps=2000):
        h = t / steps
        total = density(0) + density(t) + sum((4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
        return 0.5 + total * h / 3

    low, high = 0.0, 1.0
    while cdf(high) < p:
        low, high = high, 2 * high
    for _ in range(50):
        middle = (low + high) / 2
        low, high = (middle, high) if cdf(middle) < p else (low, middle)
    return (low + high) / 2


def ratio_interval(mode, fastest):
    """The factors (low, high) by which a mode's ratio to the fastest mode may differ in another run,
    from the medians of their processes ({process: median}), or the number of processes both ran in
    when fewer than RATIO_PROCESSES. The modes of a scenario take turns in each process, so a
    process's speed scales both: per process the log of its ratio of medians, and a 95% prediction
    interval of their mean as summary.csv's (exp(± t(0.975, n − 1) · s · √(2/n)))."""
    shared = [process for process in mode if process in fastest]
    logs = []
    for process in shared:
        a, b = mode[process], fastest[process]
        if a <= 0 or b <= 0:
            return len(shared)  # a zero median: no log ratio, no bound
        logs.append(math.log(a / b))
    n = len(logs)
    if n < RATIO_PROCESSES:
        return n
    half = student_t_quantile(0.975, n - 1) * float(np.std(logs, ddof=1)) * math.sqrt(2 / n)
    return math.exp(-half), math.exp(half)


def answers_html(directory, questions, heuristics, process_medians):
    """Per scenario: its question, then per operation a table with a row per mode and a column per
    item count: the ratio of the mode's median to the fastest exact mode's, with the interval of the
    ratio over the processes that ran both (`ratio_interval`; process_medians: {key: {process:
    median}}, as run_statistics gives them), or how few they were."""
    summary = read_summary(directory)
    if summary is None:
        return ""
    times, workloads, accuracy = summary

    def is_heuristic(scenario, mode, items):
        if heuristics is not None:
            return (workloads.get(scenario), mode) in heuristics
        metric, value = accuracy.get((scenario, mode, items), ("", math.nan))
        return (metric == "recall" and value < 1) or (metric == "wrong_heights" and value > 0)

    parts = ["<h2>Answers</h2>",
             "<p>Per scenario, its question; per operation and item count, each mode's median time as a multiple "
             "of the fastest exact mode's (<b>1.00×</b>), with a 95% interval of where another run's ratio should "
             "fall, from the ratio in each process that ran both modes (the modes take turns in every process); "
             f"from fewer than {RATIO_PROCESSES} such processes the ratio is not bounded, and the cell says how few. "
             "Heuristic modes are marked with their accuracy and never count as the fastest.</p>"]
    for scenario in sorted({key[0] for key in times}):
        parts.append(f"<h3 id=\"answer-{html.escape(slug(scenario))}\">{html.escape(scenario)}</h3>")
        question = questions.get(scenario, "")
        if question:
            parts.append(f"<p class=\"q\">{html.escape(question)}</p>")
        for operation in sorted({key[1] for key in times if key[0] == scenario}):
            counts = sorted(key[2] for key in times if key[0] == scenario and key[1] == operation)
            modes = list(dict.fromkeys(m for c in counts for m in times[(scenario, operation, c)]))
            fastest = {}
            for count in counts:
                exact = {m: v for m, v in times[(scenario, operation, count)].items() if not is_heuristic(scenario, m, count)}
                if exact:
                    fastest[count] = min(exact, key=lambda m: exact[m][0])
            winners = sorted({fastest[c] for c in fastest})
            parts.append(f"<p><b>{html.escape(operation)}</b>: fastest exact mode "
                         + ", ".join(f"<b>{html.escape(w)}</b> at " + ", ".join(f"{c:,}" for c in counts if fastest.get(c) == w)
                                     + " items" for w in winners) + ".</p>")
            table = ["<table class=\"answers\"><tr><th>mode</th>"
                     + "".join(f"<th>{c:,} items</th>" for c in counts) + "</tr>"]
            for mode in sorted(modes, key=lambda m: min((times[(scenario, operation, c)][m][0] for c in counts
                                                          if m in times[(scenario, operation, c)]), default=math.inf)):
                colour = MODE_COLOURS.get(mode)
                swatch = (f"<span class=\"swatch\" style=\"background:{matplotlib.colors.to_hex(colour)}\"></span>"
                          if colour else "")
                cells = []
                for count in counts:
                    value = times[(scenario, operation, count)].get(mode)
                    base = times[(scenario, operation, count)].get(fastest.get(count), (math.nan,))[0]
                    if value is None or not math.isfinite(base) or base <= 0:
                        cells.append("<td></td>")
                        continue
                    median = value[0]
                    note = ""
                    if is_heuristic(scenario, mode, count):
                        metric, accuracy_value = accuracy.get((scenario, mode, count), ("", math.nan))
                        worst = "lowest" if metric == "recall" else "most"
                        note = f" <i>heuristic{f', {worst} {metric} {accuracy_value:.3g}' if metric else ''}</i>"
                    if mode == fastest.get(count):
                        cells.append(f"<td><b>1.00×</b> ({format_time(median)}){note}</td>")
                    else:
                        ratio = median / base
                        bound = ratio_interval(process_medians.get((scenario, mode, count, operation), {}),
                                               process_medians.get((scenario, fastest[count], count, operation), {}))
                        if isinstance(bound, tuple):
                            interval = f" [{ratio * bound[0]:.2f}, {ratio * bound[1]:.2f}]"
                        else:
                            interval = (f" <i>({bound} process{'' if bound == 1 else 'es'}: too few to bound the ratio)</i>")
                        cells.append(f"<td>{ratio:.2f}×{interval}{note}</td>")
                table.append(f"<tr><th>{swatch}{html.escape(mode)}</th>" + "".join(cells) + "</tr>")
            table.append("</table>")
            parts.append("".join(table))
    return "\n".join(parts)


def format_time(ns):
    scale, unit = time_unit(ns)
    return f"{ns / scale:.3g} {unit}"


def format_value(text, unit):
    """A median of compare.csv with its unit: times scaled (ns, µs, ms, s), counts as they are."""
    value = float(text)
    if unit == "ns":
        return format_time(value)
    return f"{value:.4g}" + (f" {html.escape(unit)}" if unit else "")


def regressions_html(compare_path):
    """The failed groups of a compare.csv first, then the regressed rows, with the functions behind
    each (causes.csv beside it)."""
    header, rows = read_csv(compare_path)
    entries = [dict(zip(header, row)) for row in rows if row]
    regressed = [entry for entry in entries if entry.get("verdict") == "regressed"]
    failed = [entry for entry in entries if entry.get("verdict") == "failed"]
    parts = []
    if failed:
        parts.append(f"<h2 class=\"failed\">Failed: {len(failed)} group{'s' if len(failed) != 1 else ''}</h2>"
                     "<p>A mode failed on a side (failures.csv beside each side's samples says what went wrong); "
                     "its group is not compared.</p><table class=\"failed\"><tr><th>scenario</th><th>mode</th><th>items</th>"
                     "<th>where</th></tr>"
                     + "".join("<tr>" + "".join(f"<td>{html.escape(r.get(k, ''))}</td>" for k in ("scenario", "mode", "items", "judged"))
                               + "</tr>" for r in failed) + "</table>")
    parts.append("<h2>Regressions</h2>")
    if not regressed:
        parts.append("<p>Nothing regressed.</p>")
        return "\n".join(parts)
    causes = {}
    causes_path = os.path.join(os.path.dirname(compare_path), "causes.csv")
    if os.path.exists(causes_path):
        cause_header, cause_rows = read_csv(causes_path)
        for row in cause_rows:
            c = dict(zip(cause_header, row))
            causes.setdefault((c["scenario"], c["mode"], c["items"], c["operation"], c["metric"]), []).append(c)
    table = ["<table><tr><th>scenario</th><th>mode</th><th>items</th><th>operation</th><th>metric</th>"
             "<th>base</th><th>head</th><th>ratio [interval]</th></tr>"]
    for r in regressed:
        table.append("<tr>" + "".join(f"<td>{html.escape(r[k])}</td>" for k in ("scenario", "mode"))
                     + f"<td>{int(r['items']):,}</td>"
                     + "".join(f"<td>{html.escape(r[k])}</td>" for k in ("operation", "metric"))
                     + f"<td>{format_value(r['base_median'], r.get('unit', ''))}</td>"
                     + f"<td>{format_value(r['head_median'], r.get('unit', ''))}</td>"
                     + f"<td>{float(r['ratio']):.3f} [{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}]</td></tr>")
        found = causes.get((r["scenario"], r["mode"], r["items"], r["operation"], r["metric"]))
        if found:
            lines = "".join(f"<li><code>{html.escape(c['function'])}</code>: own instructions "
                            f"{float(c['base_self']):.4g} → {float(c['head_self']):.4g} ({float(c['self_delta']):+.4g}), "
                            f"inclusive {float(c['inclusive_delta']):+.4g}</li>" for c in found)
            table.append(f"<tr><td colspan=\"8\">where the instructions went:<ul>{lines}</ul></td></tr>")
    table.append("</table>")
    parts.append("".join(table))
    if not causes:
        parts.append("<p>The functions behind a regression come from the exact track: "
                     "<code>scripts/compare-commits --instructions</code> names them.</p>")
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------- units

def time_unit(largest):
    for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if largest >= scale:
            return scale, name
    return 1.0, "ns"


def save(figure, out, name):
    # The tight layout applied once, as figure.tight_layout() does, but without leaving a layout
    # engine on the figure: with one, every savefig lays the figure out again before drawing it.
    if TightLayoutEngine is not None:
        TightLayoutEngine().execute(figure)
    else:
        figure.tight_layout()
    for extension in ("png", "svg"):
        figure.savefig(os.path.join(out, f"{name}.{extension}"), dpi=110)
    plt.close(figure)
    return name


def slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text)


# ---------------------------------------------------------------------------------------------- charts

PANELS_PER_ROW = 3
# A panel's title at matplotlib's default height, given explicitly: matplotlib then leaves it there
# instead of checking at every draw whether tick labels above the panel push it up (these panels
# have none above them), which measures every tick label of the figure again.
PANEL_TITLE_Y = 1.0


def panel_grid(count):
    """One panel per operation, at most three to a row so that a workload with eight operations
    stays readable at page width; unused cells of the last row are hidden."""
    columns = min(count, PANELS_PER_ROW)
    rows = (count + columns - 1) // columns
    figure, grid = plt.subplots(rows, columns, figsize=(max(7.5, 4.8 * columns), 4.8 * rows), squeeze=False)
    cells = [axis for row in grid for axis in row]
    for axis in cells[count:]:
        axis.set_visible(False)
    return figure, cells[:count]


def modes_chart(out, scenario, stats):
    """Median time per operation of every mode, grouped by item count; bars span the IQR."""
    operations = sorted({key[3] for key in stats})
    figure, axes = panel_grid(len(operations))
    for axis, operation in zip(axes, operations):
        keys = [key for key in stats if key[3] == operation]
        modes = list(dict.fromkeys(key[1] for key in sorted(keys, key=lambda k: (k[2], k[1]))))
        counts = sorted({key[2] for key in keys})
        medians = [stats[key][0] for key in keys]
        logarithmic = max(medians) / max(min(medians), 1e-12) > 30
        scale, unit = time_unit(min(medians) if logarithmic else max(medians))
        width = 0.8 / len(modes)
        for m, mode in enumerate(modes):
            xs, ys, low, high = [], [], [], []
            for c, count in enumerate(counts):
                if (scenario, mode, count, operation) in stats:
                    median, p25, p75 = stats[(scenario, mode, count, operation)]
                    xs.append(c - 0.4 + width * (m + 0.5))
                    ys.append(median / scale)
                    low.append((median - p25) / scale)
                    high.append((p75 - median) / scale)
            axis.bar(xs, ys, width * 0.92, yerr=[low, high], capsize=3, label=mode, error_kw={"elinewidth": 1},
                     color=MODE_COLOURS.get(mode))
        axis.set_xticks(range(len(counts)), [f"{count:,}" for count in counts],
                        rotation=30 if len(counts) > 3 else 0, ha="right" if len(counts) > 3 else "center")
        axis.set_xlabel("items")
        axis.set_ylabel(f"time per {operation} ({unit})")
        if logarithmic:
            axis.set_yscale("log")
        axis.set_title(f"{operation}" + (" (log scale)" if logarithmic else ""), y=PANEL_TITLE_Y)
        axis.grid(axis="y", alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle(f"{scenario}: median time per operation by mode\n(whiskers: 25th–75th percentile)", fontsize=11)
    return save(figure, out, f"modes-{slug(scenario)}")


def growth_chart(out, scenario, stats, growth_rows):
    """Median time against item count on log-log axes, one line per mode, with the fitted exponent."""
    operations = sorted({key[3] for key in stats})
    figure, axes = panel_grid(len(operations))
    for axis, operation in zip(axes, operations):
        modes = list(dict.fromkeys(key[1] for key in sorted(stats) if key[3] == operation))
        for mode in modes:
            points = sorted((key[2], stats[key][0]) for key in stats if key[1] == mode and key[3] == operation)
            if len(points) < 2:
                continue
            counts = np.array([p[0] for p in points], dtype=float)
            medians = np.array([p[1] for p in points], dtype=float)
            slope, intercept = np.polyfit(np.log(counts), np.log(medians), 1)
            fitted = slope * np.log(counts) + intercept
            slope = round(float(slope), 4) + 0.0  # a flat mode's -0.00001 is written 0.0000, not -0.0000
            residual = np.sum((np.log(medians) - fitted) ** 2)
            total = np.sum((np.log(medians) - np.log(medians).mean()) ** 2)
            r2 = 1 - residual / total if total > 0 else 1.0
            growth_rows.append([scenario, operation, "time", mode, f"{slope:.4f}", f"{r2:.4f}", len(points),
                                int(counts[0]), int(counts[-1])])
            axis.plot(counts, medians, marker="o", label=f"{mode}: ∝ n^{slope:.2f}", color=MODE_COLOURS.get(mode))
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("items (log scale)")
        axis.set_ylabel(f"median time per {operation} (ns, log scale)")
        axis.set_title(operation, y=PANEL_TITLE_Y)
        axis.grid(which="both", alpha=0.3)
        axis.legend(fontsize=8, title="mode: fitted growth", title_fontsize=8)
    figure.suptitle(f"{scenario}: cost against item count\n(log-log; fitted exponent 1 = linear, 0 = flat)", fontsize=11)
    return save(figure, out, f"growth-{slug(scenario)}")


# Before `judged` (which rule judged the row) was written.
COMPARE_HEADERS = (COMPARE_HEADER, COMPARE_HEADER[:-1])


def compare_chart(out, path, limit=60):
    """Ratio of medians and its interval per compared row (worst first), coloured by verdict."""
    header, rows = read_csv(path)
    if header not in COMPARE_HEADERS:
        raise InputError(f"{path}: not a compare.csv (written by layout-bench compare --out)")
    entries = [dict(zip(header, row)) for row in rows]
    judged = [entry for entry in entries if entry.get("verdict") in VERDICT_COLOURS]
    failed = sum(entry.get("verdict") == "failed" for entry in entries)
    if not judged:
        if failed:
            return None, {"failed": failed}
        raise InputError(f"{path}: no compared rows")
    shown = [r for r in judged if r["verdict"] != "unchanged" or r["metric"] == "time"][:limit]
    counts = {"failed": failed} | {v: sum(r["verdict"] == v for r in judged) for v in VERDICT_COLOURS}
    figure, axis = plt.subplots(figsize=(11, 1.6 + 0.24 * len(shown)))
    ys = np.arange(len(shown))[::-1]
    for y, r in zip(ys, shown):
        ratio, low, high = (float(r[k]) for k in ("ratio", "ci_low", "ci_high"))
        finite = [v for v in (ratio, low, high) if math.isfinite(v) and v > 0]
        if not finite:
            continue
        ratio = min(max(ratio, 1e-3), 1e3) if math.isfinite(ratio) else max(finite)
        low = low if math.isfinite(low) and low > 0 else ratio
        high = high if math.isfinite(high) else ratio
        axis.errorbar([ratio], [y], xerr=[[max(ratio - low, 0)], [max(high - ratio, 0)]], fmt="o",
                      color=VERDICT_COLOURS[r["verdict"]], capsize=3, markersize=4)
    # The metric's own threshold is the smallest a time row was judged at; a row whose processes
    # spread more was judged at a wider one, which its label states.
    time_threshold = min((float(r["threshold"]) for r in judged if r["metric"] == "time"), default=0.05)
    axis.axvline(1, color="black", linewidth=0.8)
    for bound in (1 - time_threshold, 1 + time_threshold):
        axis.axvline(bound, color="black", linewidth=0.6, linestyle="--")
    def label(r):
        text = f"{r['scenario']} {r['mode']} {int(r['items']):,} {r['operation']} {r['metric']}"
        if r["metric"] == "time" and float(r["threshold"]) > time_threshold + 1e-12:
            text += f" (θ {float(r['threshold']):.0%})"
        return text
    axis.set_yticks(ys, [label(r) for r in shown], fontsize=7)
    plotted = [float(r[k]) for r in shown for k in ("ci_low", "ci_high", "ratio")]
    plotted = [v for v in plotted if math.isfinite(v) and v > 0]
    logarithmic = bool(plotted) and max(plotted) / min(plotted) > 3
    if logarithmic:
        axis.set_xscale("log")
        axis.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        axis.xaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    axis.set_xlabel(f"head median / base median{' (log scale)' if logarithmic else ''}; "
                    f"dashed: ±{time_threshold:.0%} time threshold (θ: a row judged at a wider one, its processes' spread)")
    if failed:
        axis.plot([], [], "x", color="black", label=f"failed ({failed}, not drawn)")
    for verdict, colour in VERDICT_COLOURS.items():
        axis.plot([], [], "o", color=colour, label=f"{verdict} ({counts[verdict]})")
    axis.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), title="verdict", title_fontsize=8)
    axis.grid(axis="x", which="both", alpha=0.3)
    axis.set_title(f"head / base: ratio of medians with 95% interval\n({len(shown)} of {len(judged)} rows: "
                   "every time row and every changed row, worst first)", fontsize=10)
    return save(figure, out, "compare"), counts


def history_charts(out, directory, questions):
    """Median time per commit, one chart per scenario × operation × items, a line per mode, steps marked."""
    order_path = os.path.join(directory, "commits.txt")
    try:
        with open(order_path) as f:
            commits = [line.split()[0] for line in f if line.strip()]
    except OSError:
        raise InputError(f"{order_path}: missing (scripts/history writes the commit order there)")
    medians = {}
    present = []
    for commit in commits:
        samples = samples_path(os.path.join(directory, commit))
        if samples is None:
            continue
        present.append(commit)
        for key, stat in summarise(time_samples(samples)).items():
            medians.setdefault(key, {})[commit] = stat[0]
    steps = {}
    steps_path = os.path.join(directory, "steps.csv")
    if os.path.exists(steps_path):
        header, rows = read_csv(steps_path)
        for row in rows:
            r = dict(zip(header, row))
            if r.get("metric", "time") == "time":
                steps.setdefault((r["scenario"], r["mode"], int(r["items"]), r["operation"]), []).append(r)
    charts = []
    assign_mode_colours([k[1] for k in medians])
    groups = sorted({(k[0], k[3], k[2]) for k in medians})
    for scenario, operation, items in groups:
        figure, axis = plt.subplots(figsize=(max(6.5, 0.45 * len(present) + 3), 4.2))
        keys = sorted(k for k in medians if (k[0], k[3], k[2]) == (scenario, operation, items))
        values = [v for k in keys for v in medians[k].values()]
        logarithmic = max(values) / max(min(values), 1e-12) > 30
        scale, unit = time_unit(min(values) if logarithmic else max(values))
        marked = []
        for key in keys:
            xs = [i for i, c in enumerate(present) if c in medians[key]]
            ys = [medians[key][present[i]] / scale for i in xs]
            line, = axis.plot(xs, ys, marker="o", markersize=3, label=key[1], color=MODE_COLOURS.get(key[1]))
            for step in steps.get(key, []):
                if step["commit"] in present:
                    x = present.index(step["commit"])
                    axis.axvline(x, color=line.get_color(), linestyle="--", linewidth=1)
                    axis.annotate(f"{float(step['ratio']):.2f}×", (x, medians[key].get(step["commit"], 0) / scale),
                                  textcoords="offset points", xytext=(4, 6), fontsize=7, color=line.get_color())
                    unconfirmed = step.get("confirmations") == "0"
                    marked.append(f"{key[1]} ×{float(step['ratio']):.2f} at {step['commit'][:8]}"
                                  + (" (unconfirmed: the last commit measured)" if unconfirmed else ""))
        if logarithmic:
            axis.set_yscale("log")
        axis.set_xticks(range(len(present)), [c[:8] for c in present], rotation=60, fontsize=7)
        axis.set_xlim(-0.5, len(present) - 0.3)
        axis.set_xlabel("commit (oldest left)")
        axis.set_ylabel(f"median time per {operation} ({unit})")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
        axis.set_title(f"{scenario}, {items:,} items: median {operation} time across commits\n"
                       "(dashed line: a detected step, labelled with its ratio)", fontsize=10)
        name = save(figure, out, f"history-{slug(scenario)}-{slug(operation)}-{items}")
        caption = questions.get(scenario, "").rstrip(".?") + ("?" if questions.get(scenario, "").endswith("?") else ".")
        caption += (" Steps: " + "; ".join(marked) + ".") if marked else " No step beyond the threshold."
        charts.append((name, f"History: {scenario}, {operation}, {items:,} items", caption))
    return charts


def scenario_charts(task):
    """The charts of one scenario of a run, task (out, scenario, its stats): its modes chart, and its
    growth chart when it ran two item counts or more; returns their names and the growth rows."""
    out, scenario, stats = task
    names, growth_rows = [modes_chart(out, scenario, stats)], []
    if len({key[2] for key in stats}) >= 2:
        names.append(growth_chart(out, scenario, stats, growth_rows))
    return names, growth_rows


# The charts of a run are drawn by up to this many processes at once, a figure at a time each: the
# two cores of the benchmark machine (fewer where this process may use fewer).
CHART_WORKERS = 2


def set_mode_colours(colours):
    MODE_COLOURS.update(colours)


def chart_pool():
    """Processes that draw charts with the report's mode colours (a process that dies, killed for its
    memory say, fails the plot instead of hanging it), or None (charts drawn in this process) when
    only one core is free or no process can be started."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if min(cores, CHART_WORKERS) < 2:
        return None
    try:
        return concurrent.futures.ProcessPoolExecutor(min(cores, CHART_WORKERS), initializer=set_mode_colours,
                                                      initargs=(dict(MODE_COLOURS),))
    except (OSError, NotImplementedError):
        return None


# ---------------------------------------------------------------------------------------------- report

def write_index(out, sections, facts_by_source, answers=()):
    parts = ["<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
             "<title>LayoutBench report</title>",
             "<style>body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}"
             "img{max-width:100%;border:1px solid #ddd}table{border-collapse:collapse;margin-bottom:1em}"
             "td,th{text-align:left;padding:2px 10px;border-bottom:1px solid #eee;vertical-align:top}"
             "figure{margin:0 0 2.5em 0}figcaption{margin:.3em 0 .6em 0}.q{font-style:italic}"
             "table.answers td{font-variant-numeric:tabular-nums;white-space:nowrap}"
             ".failed{color:#c62828}table.failed td{color:#000}"
             ".swatch{display:inline-block;width:.8em;height:.8em;margin-right:.4em;vertical-align:baseline}</style></head><body>",
             "<h1>LayoutBench report</h1>"]
    parts.extend(answer for answer in answers if answer)
    for source, facts in facts_by_source:
        parts.append(f"<h2>Where it ran: {html.escape(source)}</h2>")
        if facts:
            parts.append("<table>" + "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                                             for k, v in facts) + "</table>")
        else:
            parts.append("<p>No run.json: machine facts unknown.</p>")
    for heading, charts in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        for name, title, caption in charts:
            parts.append(f"<figure id=\"{html.escape(name)}\"><h3>{html.escape(title)}</h3>"
                         f"<figcaption class=\"q\">{html.escape(caption)}</figcaption>"
                         f"<a href=\"{html.escape(name)}.svg\"><img src=\"{html.escape(name)}.png\" "
                         f"alt=\"{html.escape(title)}\"></a></figure>")
    # Records how many images loaded (a headless browser reads it back: scripts/test-scripts).
    parts.append("<script>window.addEventListener('load',()=>{const i=[...document.images];"
                 "document.body.dataset.imagesLoaded=i.filter(x=>x.complete&&x.naturalWidth>0).length+'/'+i.length})"
                 "</script>")
    parts.append("</body></html>\n")
    temporary = os.path.join(out, ".index.html.tmp")
    with open(temporary, "w") as f:
        f.write("\n".join(parts))
    os.replace(temporary, os.path.join(out, "index.html"))


def classify(path):
    if os.path.isfile(path):
        with open_csv(path) as f:
            header = next(csv.reader(f), [])
        if header in COMPARE_HEADERS:
            return "compare", path
        if header == SAMPLES_HEADER:
            return "run", os.path.dirname(path) or "."
        raise InputError(f"{path}: neither a samples.csv nor a compare.csv")
    if not os.path.isdir(path):
        raise InputError(f"{path}: no such file or directory")
    if os.path.exists(os.path.join(path, "compare.csv")):
        return "compare", os.path.join(path, "compare.csv")
    if samples_path(path):
        return "run", path
    if os.path.exists(os.path.join(path, "commits.txt")):
        return "history", path
    raise InputError(f"{path}: no samples.csv, compare.csv or commits.txt (history) inside")


def main():
    parser = argparse.ArgumentParser(description="Charts and index.html from LayoutBench results.")
    parser.add_argument("results", nargs="+", help="results directories, samples.csv, compare.csv or history directories")
    parser.add_argument("--out", help="where to write the charts (default: report/ inside the first input)")
    parser.add_argument("--catalog", help="the output of layout-bench list --json (which modes are heuristics)")
    arguments = parser.parse_args()
    try:
        inputs = [classify(path) for path in arguments.results]
        # Each run's samples are read once, into the statistics its charts and answers need.
        statistics = {path: run_statistics(samples_path(path)) for kind, path in inputs if kind == "run"}
    except InputError as error:
        sys.exit(f"plot: error: {error}")
    first = inputs[0][1]
    out = arguments.out or os.path.join(first if os.path.isdir(first) else os.path.dirname(first) or ".", "report")
    questions = scenario_questions()
    heuristics = heuristic_modes(arguments.catalog)
    sections, facts, growth_rows, answers = [], [], [], []
    assign_mode_colours([key[1] for stats, _ in statistics.values() for key in stats])
    temporary_out = out.rstrip("/") + f".tmp-{os.getpid()}"
    os.makedirs(temporary_out, exist_ok=True)
    pool = chart_pool() if statistics else None
    draw = pool.map if pool is not None else map  # results in order either way
    try:
        for kind, path in inputs:
            if kind == "run":
                stats, medians = statistics[path]
                facts.append((path, machine_facts(os.path.join(path, "run.json"))))
                answers.append(failures_html(path))
                answers.append(answers_html(path, questions, heuristics, medians))
                charts = []
                tasks = [(temporary_out, scenario, {k: v for k, v in stats.items() if k[0] == scenario})
                         for scenario in sorted({key[0] for key in stats})]
                for (_, scenario, _), (names, rows) in zip(tasks, draw(scenario_charts, tasks)):
                    question = questions.get(scenario, "")
                    charts.append((names[0], f"{scenario}: modes side by side", question))
                    if len(names) > 1:
                        charts.append((names[1], f"{scenario}: growth with item count",
                                       question + " The exponent of a fitted power law n^k: k≈0 flat, 1 linear."))
                    growth_rows += rows
                sections.append((f"Run {path}", charts))
            elif kind == "compare":
                name, counts = compare_chart(temporary_out, path)
                answers.append(regressions_html(path))
                directory = os.path.dirname(path)
                for side in ("base", "head"):
                    run_json = os.path.join(directory, side, "run.json")
                    if os.path.exists(run_json):
                        facts.append((f"{side} ({directory})", machine_facts(run_json)))
                summary = ", ".join(f"{n} {v}" for v, n in counts.items())
                if name is not None:
                    sections.append((f"Compare {path}", [(name, "Did head make anything slower than base?",
                                                          f"Verdicts: {summary}.")]))
            else:
                charts = history_charts(temporary_out, path, questions)
                with open(os.path.join(path, "commits.txt")) as f:
                    latest = [line.strip() for line in f if line.strip()][-1:]
                if latest:
                    facts.append((f"{path}, latest commit", machine_facts(os.path.join(path, latest[0], "run.json"))))
                sections.append((f"History {path}", charts))
        if growth_rows:
            with open(os.path.join(temporary_out, "growth.csv"), "w", newline="") as f:
                writer = csv.writer(f, lineterminator="\n")
                writer.writerow(["scenario", "operation", "metric", "mode", "exponent", "r2", "points", "min_items", "max_items"])
                writer.writerows(growth_rows)
        write_index(temporary_out, sections, facts, answers)
    except InputError as error:
        import shutil
        shutil.rmtree(temporary_out, ignore_errors=True)
        sys.exit(f"plot: error: {error}")
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    import shutil
    shutil.rmtree(out, ignore_errors=True)
    os.replace(temporary_out, out)
    print(f"report: {os.path.join(out, 'index.html')}", file=sys.stderr)


if __name__ == "__main__":
    main()
