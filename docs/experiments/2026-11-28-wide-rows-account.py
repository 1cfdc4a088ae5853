#!/usr/bin/env python3
"""What holds each wide time row of whole-suite A/As back, pooled over the A/As.

Usage: 2026-11-28-wide-rows-account.py OUT.csv AA_DIR [AA_DIR ...]
Each AA_DIR is a results/compare/C..C directory of `scripts/compare-commits C C` (its
compare.csv and both sides' samples.csv.gz). Needs scipy.

Every process is reduced as `compare` reduces it (ProcessCentre): the geometric midmean of its
samples (the mean log of the middle half, floor(n/4) cut from each end), or its median on both
sides where a sample of the row is <= 0. A pair is base and head of one round. Per row above 7% in
any of the A/As (θ, compare.csv's `threshold`):

- pooled_spread: a process's spread once pairing has cancelled the machine's spells, from every
  pair of every A/A, each A/A's mean difference removed: sd(log head - log base) / sqrt 2.
- within_spread: the error a process's centre carries from its own samples. The midmeans of its
  odd and of its even samples (a seeded trace's steps fall alike in every process) differ by
  about twice that; their difference is centred over the side's processes. Empty below 4 samples.
- after_group_spread: the pooled spread once each pair's difference has the median difference of
  the other rows its two processes timed taken off: what a control kernel timed in the same
  processes could divide out.
- theta_at_5: the threshold five pairs of that spread give when their estimate hits it:
  3 s sqrt(4 / chi2(0.25, 4)), as RowComparison widens θ, before its floor at the metric's 5%.
- pairs_for_7: the fewest pairs whose threshold at that spread is 7% (the spread counting
  sqrt(5 / n), as compare does for n > 5). From ten pairs compare takes Yuen's trimmed mean,
  whose spread this untrimmed estimate only approximates.
- spread_but_worst_pair: the pooled spread without the one pair farthest from its A/A's mean.
- held_by, the first that holds: "chance of five pairs" (theta_at_5 <= 7%: the row is wide only
  when five pairs overestimate its spread); "one process off" (theta_at_5 of
  spread_but_worst_pair <= 7%: one process at another speed widens it); "few samples a process" (10 or fewer, each a step of a
  trace); "samples within a process" (within^2 >= pooled^2 / 2); "a speed its whole process shares"
  (after_group^2 <= pooled^2 / 2); else "the row's own speed in each process".
"""
import collections
import csv
import gzip
import math
import statistics
import sys

from scipy.stats import chi2


def midmean_log(xs):
    xs = sorted(xs)
    n = len(xs)
    cut = n // 4
    middle = xs[cut:n - cut]
    return sum(math.log(x) for x in middle) / len(middle)


def extract(directory):
    """{row: (theta, {side: {round: (centre, odd, even, samples, median)}})} of time rows judged by processes."""
    thresholds = {}
    with open(f"{directory}/compare.csv") as f:
        for r in csv.DictReader(f):
            if r["metric"] == "time" and r["judged"] == "by-processes":
                thresholds[(r["scenario"], r["mode"], r["items"], r["operation"])] = float(r["threshold"] or 0)
    values = {side: collections.defaultdict(lambda: collections.defaultdict(list)) for side in ("base", "head")}
    for side in ("base", "head"):
        with gzip.open(f"{directory}/{side}/samples.csv.gz", "rt") as f:
            reader = csv.reader(f)
            header = next(reader)
            columns = [header.index(c) for c in ("scenario", "mode", "items", "operation", "repetition", "metric", "value")]
            s, m, n, o, rep, metric, value = columns
            for row in reader:
                if row[metric] != "time":
                    continue
                key = (row[s], row[m], row[n], row[o])
                if key in thresholds:
                    values[side][key][int(row[rep])].append(float(row[value]))
    result = {}
    for key, theta in thresholds.items():
        positive = all(x > 0 for side in ("base", "head") for v in values[side].get(key, {}).values() for x in v)
        sides = {}
        for side in ("base", "head"):
            per = {}
            for number, v in values[side].get(key, {}).items():
                centre = midmean_log(v) if positive else math.log(max(statistics.median(v), 1e-9))
                halves = positive and len(v) >= 4
                per[number] = (centre, midmean_log(v[0::2]) if halves else None,
                               midmean_log(v[1::2]) if halves else None, len(v), statistics.median(v))
            sides[side] = per
        result[key] = (theta, sides)
    return result


def factor(n):
    """What multiplies a spread s into θ / 3 at n pairs."""
    nu = n - 1
    return math.sqrt(nu / chi2.ppf(0.25, nu)) * min(1, math.sqrt(5 / n))


def pairs_for_seven(spread):
    for n in range(3, 2001):
        if 3 * spread * factor(n) <= 0.07:
            return n
    return ">2000"


def differences(result, key):
    _, sides = result[key]
    base, head = sides["base"], sides["head"]
    return {n: head[n][0] - base[n][0] for n in set(base) & set(head)}


def main():
    out, directories = sys.argv[1], sys.argv[2:]
    data = [extract(d) for d in directories]
    keys = set(data[0]).intersection(*data[1:])
    groups = collections.defaultdict(list)
    for key in keys:
        groups[(key[0], key[2])].append(key)

    def pooled(key, drop_worst=False):
        deviations, freedom = [], 0
        for result in data:
            d = differences(result, key)
            if len(d) >= 2:
                mean = statistics.mean(d.values())
                deviations += [(x - mean) ** 2 for x in d.values()]
                freedom += len(d) - 1
        if drop_worst and freedom > 1:
            deviations.remove(max(deviations))
            freedom -= 1
        return (math.sqrt(sum(deviations) / freedom / 2), freedom) if freedom else (None, 0)

    rows = []
    for key in keys:
        if not any(result[key][0] > 0.07 for result in data):
            continue
        spread, freedom = pooled(key)
        if spread is None:
            continue
        group_squares, group_freedom, within, samples, medians = 0.0, 0, [], [], []
        for result in data:
            d = differences(result, key)
            rounds = sorted(d)
            others = [differences(result, o) for o in groups[(key[0], key[2])] if o != key]
            others = [o for o in others if all(n in o for n in rounds)]
            if others and len(rounds) >= 2:
                divided = [d[n] - statistics.median(o[n] for o in others) for n in rounds]
                mean = statistics.mean(divided)
                group_squares += sum((x - mean) ** 2 for x in divided)
                group_freedom += len(rounds) - 1
            for side in ("base", "head"):
                per = result[key][1][side]
                halves = [per[n][1] - per[n][2] for n in rounds if per[n][1] is not None]
                if len(halves) >= 2:
                    mean = statistics.mean(halves)
                    within += [(x - mean) ** 2 * len(halves) / (len(halves) - 1) for x in halves]
                samples += [per[n][3] for n in rounds]
                medians += [per[n][4] for n in rounds]
        within_spread = math.sqrt(statistics.mean(within)) / 2 if within else None
        group_spread = math.sqrt(group_squares / group_freedom / 2) if group_freedom else None
        theta5 = 3 * spread * factor(5)
        but_one, _ = pooled(key, drop_worst=True)
        per_process = statistics.median(samples)
        if theta5 <= 0.07:
            held = "chance of five pairs"
        elif 3 * but_one * factor(5) <= 0.07:
            held = "one process off"
        elif per_process <= 10:
            held = "few samples a process"
        elif within_spread is not None and within_spread ** 2 >= spread ** 2 / 2:
            held = "samples within a process"
        elif group_spread is not None and group_spread ** 2 <= spread ** 2 / 2:
            held = "a speed its whole process shares"
        else:
            held = "the row's own speed in each process"
        row = dict(scenario=key[0], mode=key[1], items=key[2], operation=key[3])
        row.update({f"theta_aa{i + 1}": round(result[key][0], 4) for i, result in enumerate(data)})
        row.update(pairs=freedom + len(data), samples_per_process=int(per_process),
                   median_ns=round(statistics.median(medians), 1), pooled_spread=round(spread, 4),
                   spread_but_worst_pair=round(but_one, 4),
                   within_spread="" if within_spread is None else round(within_spread, 4),
                   after_group_spread="" if group_spread is None else round(group_spread, 4),
                   theta_at_5=round(theta5, 4), pairs_for_7=pairs_for_seven(spread), held_by=held)
        rows.append(row)
    rows.sort(key=lambda r: -r["theta_at_5"])
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

    print(f"{len(rows)} rows above 7% in at least one of {len(data)} A/As, of {len(keys)} time rows")
    for held, count in collections.Counter(r["held_by"] for r in rows).most_common():
        theta = sorted(r["theta_at_5"] for r in rows if r["held_by"] == held)
        need = [r["pairs_for_7"] for r in rows if r["held_by"] == held and isinstance(r["pairs_for_7"], int)]
        print(f"  {count:4d} {held}: theta at 5 pairs median {100 * theta[len(theta) // 2]:.1f}%, "
              f"above 20% {sum(t > 0.2 for t in theta)}; pairs for 7% median {statistics.median(need) if need else '-'}")
    every = []
    for key in keys:
        spread, _ = pooled(key)
        if spread is not None:
            every.append((max(0.05, 3 * spread * factor(5)), pairs_for_seven(spread)))
    theta = sorted(t for t, _ in every)
    need = sorted(n if isinstance(n, int) else 10 ** 6 for _, n in every)
    q = lambda xs, p: xs[min(len(xs) - 1, int(p * len(xs)))]
    print(f"all {len(every)} rows, theta at 5 pairs from the pooled spread: p50 {100 * q(theta, .5):.1f}% "
          f"p75 {100 * q(theta, .75):.1f}% p90 {100 * q(theta, .9):.1f}%; "
          f"pairs that bring 90% of rows to 7%: {q(need, .9)}")


if __name__ == "__main__":
    main()
