"""Step detection over a commit history of LayoutBench runs (used by scripts/history).

For every scenario × mode × items × operation, the median time of each commit forms a series. A step
is the first commit whose median, and the medians of the commits that follow it (up to WINDOW of
them), all lie beyond the threshold from the level before it (the median of up to WINDOW earlier
commits), in the same direction. Requiring the following commits to agree keeps one noisy
measurement from being called a step; the last commit of the range can only be confirmed by itself.
After a step the level restarts there, so later steps are found too.

Usage: python3 steps.py HISTORY_DIR [--medians FILE] [--threshold 0.05] [--window 3]
Reads HISTORY_DIR/commits.txt (oldest first) and the medians of each commit: from FILE
(commit,scenario,mode,items,operation,median: what `layout-bench history` writes after reading the
stored samples with compare's bounded, strict readers), else from HISTORY_DIR/<commit>/samples.csv
(for a history on hand; this reader holds a file's time values in memory). Writes
HISTORY_DIR/steps.csv (refusing to replace anything there but a regular file) and prints one line
per step.
"""
import argparse
import csv
import os
import stat
import statistics
import sys

from results_csv import FAILURES_HEADER, InputError, read_csv, samples_path, time_series_from_samples


MEDIANS_HEADER = ["commit", "scenario", "mode", "items", "operation", "median"]


def medians_from_file(path, commits):
    """The series of medians_by_commit, read from a medians file (one row per commit and row)."""
    by_commit = {}
    try:
        with open(path, newline="") as f:
            reader = csv.reader(f)
            if next(reader, None) != MEDIANS_HEADER:
                raise InputError(f"{path}: not a medians file (expected the header {','.join(MEDIANS_HEADER)})")
            for number, row in enumerate(reader, start=2):
                if len(row) != len(MEDIANS_HEADER):
                    raise InputError(f"{path}: line {number}: {len(row)} fields, header has {len(MEDIANS_HEADER)}")
                try:
                    key, median = (row[1], row[2], int(row[3]), row[4]), float(row[5])
                except ValueError:
                    raise InputError(f"{path}: line {number}: items or median is not a number")
                by_commit.setdefault(row[0], []).append((key, median))
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error})")
    except (csv.Error, UnicodeDecodeError) as error:
        raise InputError(f"{path}: not a CSV file ({error})")
    series = {}
    for commit in commits:
        for key, median in by_commit.get(commit, []):
            series.setdefault(key, []).append((commit, median))
    return series


def medians_by_commit(directory, commits):
    series = {}
    for commit in commits:
        path = samples_path(os.path.join(directory, commit))
        if path is None:
            continue
        values, _ = time_series_from_samples(path)
        for key, samples in values.items():
            series.setdefault(key, []).append((commit, statistics.median(samples)))
    return series


def failures_by_commit(directory, commits):
    """[(commit, row)] of the groups whose mode failed in each stored commit (its failures.csv, docs/csv.md;
    none for results of a version before it): a failed mode has no samples, and must not read as no step."""
    failed = []
    for commit in commits:
        path = os.path.join(directory, commit, "failures.csv")
        if not os.path.exists(path):
            continue
        header, rows = read_csv(path)
        if header != FAILURES_HEADER:
            raise InputError(f"{path}: not a failures.csv (expected the header {','.join(FAILURES_HEADER)})")
        for number, row in enumerate(rows, start=2):
            if len(row) != len(header):
                raise InputError(f"{path}: line {number}: {len(row)} fields, header has {len(header)}")
            failed.append((commit, dict(zip(header, row))))
    return failed


def detect(points, threshold, window):
    """[(index, before, after, confirmations)] for each step in [(commit, median)]; confirmations is
    the number of later commits that agreed (0 for a step at the last commit)."""
    steps = []
    start = 0
    i = 1
    while i < len(points):
        before = statistics.median(m for _, m in points[max(start, i - window):i])
        following = [m for _, m in points[i:i + window]]
        ratios = [m / before for m in following] if before > 0 else []
        if ratios and (all(r > 1 + threshold for r in ratios) or all(r < 1 - threshold for r in ratios)):
            steps.append((i, before, statistics.median(following), len(following) - 1))
            start = i
        i += 1
    return steps


def main():
    parser = argparse.ArgumentParser(description="Find the commits where a median moved beyond the threshold.")
    parser.add_argument("history")
    parser.add_argument("--medians", help="the medians of each commit (written by layout-bench history)")
    parser.add_argument("--threshold", type=float, default=0.05, help="relative change (default 0.05 = 5%%)")
    parser.add_argument("--window", type=int, default=3, help="commits before and after that must agree (default 3)")
    arguments = parser.parse_args()
    order = os.path.join(arguments.history, "commits.txt")
    try:
        with open(order) as f:
            commits = [line.split()[0] for line in f if line.strip()]
    except OSError:
        sys.exit(f"steps: error: {order}: missing")
    target = os.path.join(arguments.history, "steps.csv")
    if os.path.lexists(target) and not stat.S_ISREG(os.lstat(target).st_mode):
        sys.exit(f"steps: error: {target}: not a regular file (a FIFO, a device, a directory or a symbolic link); "
                 "steps.py replaces only a regular file there: remove it")
    try:
        if arguments.medians:
            series = medians_from_file(arguments.medians, commits)
        else:
            series = medians_by_commit(arguments.history, commits)
        failed = failures_by_commit(arguments.history, commits)
    except InputError as error:
        sys.exit(f"steps: error: {error}")
    rows = []
    for key, points in sorted(series.items()):
        for index, before, after, confirmations in detect(points, arguments.threshold, arguments.window):
            commit = points[index][0]
            rows.append([key[0], key[1], key[2], key[3], "time", commit, points[index - 1][0],
                         repr(before), repr(after), f"{after / before:.6f}", confirmations])
            note = "" if confirmations else " (unconfirmed: no later commit measured yet; one process can be that far off)"
            print(f"{key[0]} {key[1]} {key[2]} {key[3]}: ×{after / before:.3f} at {commit[:10]} "
                  f"(median {before:.1f} → {after:.1f} ns){note}")
    temporary = os.path.join(arguments.history, ".steps.csv.tmp")
    with open(temporary, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["scenario", "mode", "items", "operation", "metric", "commit", "previous_commit",
                         "before", "after", "ratio", "confirmations"])
        writer.writerows(rows)
    os.replace(temporary, target)
    for commit, r in failed:
        print(f"{r['scenario']} {r['mode']} {r['items']}: failed at {commit[:10]} ({r['check']} at {r['step']}: {r['message']})")
    if failed:
        print(f"{len(failed)} scenario group(s) failed in {len({commit for commit, _ in failed})} of {len(commits)} commits: "
              "they have no samples there, so no step is found for them")
    if not rows:
        print(f"no step beyond {arguments.threshold:.0%} in {len(commits)} commits")


if __name__ == "__main__":
    main()
