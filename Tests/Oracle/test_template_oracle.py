#!/usr/bin/env python3
"""Differential test of constraint templates (docs/scenario-format.md, constraint templates).

    python3 Tests/Oracle/test_template_oracle.py [SOLVER_BENCH] [--templates N] [--rows-per-template R]
                                                  [--seed S] [--break-lp PRIORITY] [--jobs J] [--keep DIR]

1. The text model and hand-computed templates: the LP reference and kiwisolver must both give
   the height worked out by hand.
2. Seeded random templates (scripts/template_gen.py) x rows: the LP reference
   (scipy linprog/HiGHS, level by level) against kiwisolver, within 1e-6 pt, on every row whose
   template kiwi can represent and which is not ambiguous (scripts/template_oracle.py).
3. With SOLVER_BENCH (a built solver-bench binary): the Swift engine through
   `solver-bench measure FILE`; every non-null mode of every row must equal the LP reference
   within 1e-6 pt. Without it, or when the binary has no `measure` subcommand, this part is
   skipped and the test says so: nothing is counted as passed for it.

--break-lp P drops priority level P from the LP reference (an injected bug): the test must fail.
The last line is `N passed, N failed`; the exit status is 1 when anything failed.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))

import template_gen  # noqa: E402
import template_oracle as oracle  # noqa: E402

TOLERANCE = 1e-6
MODES = ("fresh-engine", "fd-add-remove", "edit-width", "fd-add-remove-batched", "edit-width-batched", "frame")


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.shown = 0

    def check(self, ok, message):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if self.shown < 25:
                print("FAIL " + message)
                self.shown += 1
            elif self.shown == 25:
                print("FAIL ... (further failures not shown)")
                self.shown += 1
        return ok


# ---------------------------------------------------------------------------------------------
# 1. Hand-computed cases.

TEXT_CASES = [
    # (text, width in pt, fontScale, lines): worked out from the advance table.
    ("hello world", 343, 1, 1),                  # 36 + 4.5 + 42 = 82.5
    ("hello world", 82.5, 1, 1),                 # exactly at the limit
    ("hello world", 82, 1, 2),
    ("wwww wwww wwww", 120, 1, 2),               # 54 + 4.5 + 54 = 112.5, then 171 > 120
    ("wwww wwww wwww", 171, 1, 1),
    ("mmmmmmmmmmmmmmmmmmmm", 100, 1, 3),         # 270 units: two full lines, 70 left
    ("mmmmmmmmmmmmmmmmmmmm a", 100, 1, 3),       # 70 + 4.5 + 9 shares the third line
    ("", 100, 1, 0),
    ("   ", 100, 1, 0),
    ("a\n", 100, 1, 1),
    ("a\n\nb", 100, 1, 3),
    ("\n", 100, 1, 1),
    ("a\tb", 27, 1, 2),                          # a tab is four spaces: 9 + 18 + 9 = 36 > 27
    ("café café", 82.5, 1, 1),                   # 39 + 4.5 + 39 = 82.5 (é: lead byte 15, continuation 0)
    ("café café", 82, 1, 2),
    ("world over", 79.5 * 0.88, 0.88, 1),        # 79.5 units at its intrinsic width: one line
    ("hello", 0.5, 1, 36),                       # width clamped to 1 pt: 36 units, one a line
]


def _title(label=None, extra=()):
    return {"views": {"title": {"label": label or {"text": "text"}}},
            "constraints": ["title.leading == contentView.leading + 16", "title.trailing == contentView.trailing - 16",
                            "title.top == contentView.top + 11", "contentView.bottom == title.bottom + 11", *extra]}


POST = {  # a feed post: avatar, name, body and a 4:3 photo
    "views": {"avatar": {"intrinsic": {"width": 40, "height": 40}},
              "name": {"label": {"text": "text", "lineHeight": 20.5, "fontScale": 1, "lines": 1}},
              "body": {"label": {"text": "detail", "lineHeight": 18, "fontScale": 0.88}},
              "photo": {}},
    "constraints": ["avatar.leading == contentView.leading + 16", "avatar.top == contentView.top + 12",
                    "avatar.width == 40", "avatar.height == avatar.width",
                    "name.leading == avatar.trailing + 8", "name.trailing == contentView.trailing - 16",
                    "name.top == avatar.top", "body.leading == name.leading", "body.trailing == name.trailing",
                    "body.top == name.bottom + 4", "photo.leading == contentView.leading",
                    "photo.trailing == contentView.trailing", "photo.height == 0.75 * photo.width",
                    "photo.top == body.bottom + 8", "contentView.bottom >= avatar.bottom + 12",
                    "contentView.bottom == photo.bottom + 12 @999"]}
NOPHOTO = {"views": {k: v for k, v in POST["views"].items() if k != "photo"},
           "constraints": POST["constraints"][:10] + ["contentView.bottom >= avatar.bottom + 12",
                                                      "contentView.bottom == body.bottom + 12 @999"]}
HAND_TEMPLATES = {
    "title": _title(),
    "title88": {"views": {"title": {"label": {"text": "text", "fontScale": 0.88}}},
                "constraints": ["title.leading == contentView.leading + 16", "title.trailing <= contentView.trailing - 16",
                                "title.top == contentView.top + 11", "contentView.bottom == title.bottom + 11"]},
    "atleast30": {"views": {"title": {"label": {"text": "text"}}},
                  "constraints": ["title.leading == contentView.leading + 16", "title.trailing == contentView.trailing - 16",
                                  "title.top == contentView.top + 11", "contentView.bottom >= title.bottom + 11",
                                  "contentView.height == 30 @999"]},
    "atleast30r": {"views": {"title": {"label": {"text": "text"},
                                       "compressionResistance": {"horizontal": 750, "vertical": 1000}}},
                   "constraints": ["title.leading == contentView.leading + 16", "title.trailing == contentView.trailing - 16",
                                   "title.top == contentView.top + 11", "contentView.bottom >= title.bottom + 11",
                                   "contentView.height == 30 @999"]},
    # a preferred height at 200 (below the label's vertical hugging, 251) and at 300 (above it)
    "pref200": _title(extra=["contentView.height == 150 @200"]),
    "pref300": _title(extra=["contentView.height == 150 @300"]),
    "pref20": {"views": {"title": {"label": {"text": "text"}}},
               "constraints": ["title.leading == contentView.leading + 16", "title.trailing == contentView.trailing - 16",
                               "title.top == contentView.top + 11", "contentView.bottom >= title.bottom + 11",
                               "contentView.height == 150 @20"]},
    "post": POST,
    "nophoto": NOPHOTO,
    "pair": {"views": {"a": {"label": {"text": "text"}, "compressionResistance": {"horizontal": 751, "vertical": 750}},
                       "b": {"label": {"text": "detail"}, "hugging": {"horizontal": 250, "vertical": 251}}},
             "constraints": ["a.leading == contentView.leading + 16", "b.leading == a.trailing + 8",
                             "b.trailing == contentView.trailing - 16", "a.top == contentView.top + 11",
                             "b.top == a.top", "contentView.bottom >= a.bottom + 11", "contentView.bottom >= b.bottom + 11"]},
    "thumb": {"views": {"thumb": {}, "name": {"label": {"text": "text"}}},
              "constraints": ["thumb.leading == contentView.leading + 16", "thumb.width == 60", "thumb.height == 60",
                              "thumb.centerY == contentView.centerY", "thumb.top >= contentView.top + 10",
                              "name.leading == thumb.trailing + 12", "name.trailing == contentView.trailing - 16",
                              "name.top >= contentView.top + 10", "name.centerY == contentView.centerY @750",
                              "contentView.bottom >= name.bottom + 10", "contentView.bottom >= thumb.bottom + 10"]},
}
W4 = lambda n: " ".join(["wwww"] * n)  # noqa: E731  54 units a word, 58.5 with its space
HAND_ROWS = [
    # (row, fitting height worked out by hand)
    ({"template": "title", "text": "hello world", "width": 375}, 11 + 20.5 + 11),
    ({"template": "title", "text": "wwww wwww wwww", "width": 152}, 11 + 2 * 20.5 + 11),       # label 120
    ({"template": "title", "text": "", "width": 375}, 22),
    ({"template": "title", "text": "mmmmmmmmmmmmmmmmmmmm", "width": 132}, 11 + 3 * 20.5 + 11),  # label 100
    # a label at its intrinsic width (79.5 x 0.88) still shows its text on one line
    ({"template": "title88", "text": "world over", "width": 375}, 42.5),
    # `height == 30 @999` beats the label's vertical compression resistance (750): squeezed to 8
    ({"template": "atleast30", "text": "hello", "width": 375}, 30),
    ({"template": "atleast30", "text": "", "width": 375}, 30),
    # ... unless that is required: then the required `>=` wins and the @999 gives way
    ({"template": "atleast30r", "text": "hello", "width": 375}, 42.5),
    ({"template": "atleast30r", "text": "", "width": 375}, 30),
    # at 200 the label hugs its one line and the cell keeps 42.5; at 300 the label stretches to 128
    ({"template": "pref200", "text": "hello", "width": 375}, 42.5),
    ({"template": "pref300", "text": "hello", "width": 375}, 150),
    # below the fitting level (50) a preferred height has no say
    ({"template": "pref20", "text": "hello", "width": 375}, 42.5),
    # the post at 375: name 295 wide at y 12; body at 36.5; photo 375 x 281.25
    ({"template": "post", "text": "Ann", "detail": "hello world", "width": 375}, 36.5 + 18 + 8 + 281.25 + 12),
    # body 295 / 0.88 = 335.2 units: 5 "wwww" a line (288), 12 words -> 3 lines
    ({"template": "post", "text": "Ann", "detail": W4(12), "width": 375}, 36.5 + 54 + 8 + 281.25 + 12),
    # name is one line at most however long
    ({"template": "post", "text": W4(30), "detail": "", "width": 320}, 36.5 + 0 + 8 + 240 + 12),
    ({"template": "nophoto", "text": "Ann", "detail": "hello world", "width": 375}, 36.5 + 18 + 12),
    # empty body: the @999 bottom gives way to the required `>= avatar.bottom + 12`
    ({"template": "nophoto", "text": "Ann", "detail": "", "width": 375}, 64),
    # a hugs (82.5), b (hugging 250) stretches: 375 - 32 - 8 - 82.5 = 252.5; one line each
    ({"template": "pair", "text": "hello world", "detail": "hi", "width": 375}, 42.5),
    # a (compression 751) keeps 229.5; b gets 105.5: one "wwww" a line, 20 lines
    ({"template": "pair", "text": W4(4), "detail": W4(20), "width": 375}, 11 + 20 * 20.5 + 11),
    # thumb centred: h/2 - 30 >= 10 -> 80; a 4-line name (82) centred needs 82 + 2 x 10 = 102
    ({"template": "thumb", "text": "hello", "width": 375}, 80),
    ({"template": "thumb", "text": W4(16), "width": 375}, 102),                                 # name 271: 4 a line
]


def check_hand(tally):
    for text, width, scale, lines in TEXT_CASES:
        got = oracle.line_count(text, width, scale)
        tally.check(got == lines, f"text model: {text!r} at {width} pt x{scale}: {got} lines, expected {lines}")
    o = oracle.Oracle(HAND_TEMPLATES)
    for row, expected in HAND_ROWS:
        lp = o.lp(row)
        tally.check(not lp.ambiguous and abs(lp.height - expected) <= TOLERANCE,
                    f"hand case {row['template']} {row.get('text', '')[:20]!r} at {row['width']}: LP {lp.height}"
                    f"{' (ambiguous: ' + lp.why + ')' if lp.ambiguous else ''}, expected {expected}")
        kiwi = o.kiwi_height(row)
        tally.check(kiwi is not None and abs(kiwi - expected) <= TOLERANCE,
                    f"hand case {row['template']} at {row['width']}: kiwi {kiwi}, expected {expected}")
    # Ambiguity (docs/scenario-format.md: no check relies on an ambiguous label width): two labels side by side with
    # the same hugging and resistance. Short texts: who stretches is undetermined, but both stay one
    # line, so the row is checked. Long texts: how the width is shared decides the lines: left out.
    pair = {"views": {"a": {"label": {"text": "text"}}, "b": {"label": {"text": "detail"}}},
            "constraints": ["a.leading == contentView.leading + 16", "b.leading == a.trailing + 8",
                            "b.trailing == contentView.trailing - 16", "a.top == contentView.top + 11",
                            "b.top == a.top", "contentView.bottom >= a.bottom + 11", "contentView.bottom >= b.bottom + 11"]}
    amb = oracle.Oracle({"pair": pair})
    short = amb.lp({"template": "pair", "text": "hi", "detail": "ho", "width": 375})
    tally.check(not short.ambiguous and abs(short.height - 42.5) <= TOLERANCE,
                f"ambiguous widths, fixed lines: ambiguous={short.ambiguous} ({short.why}), height {short.height}")
    long = amb.lp({"template": "pair", "text": W4(20), "detail": W4(20), "width": 375})
    tally.check(long.ambiguous, f"ambiguous widths deciding the lines not detected (height {long.height})")
    # Required constraints that cannot all hold: both references refuse.
    clash = oracle.Oracle({"clash": {"views": {"a": {}}, "constraints": ["a.width == 10", "a.width == 20"]}})
    for name, fn in (("LP", clash.lp_height), ("kiwi", clash.kiwi_height)):
        try:
            fn({"template": "clash", "text": "", "detail": "", "width": 375})
            tally.check(False, f"{name}: unsatisfiable required constraints accepted")
        except oracle.Unsatisfiable:
            tally.check(True, "")
    # Bad input is refused with the template and the constraint's index.
    for spec, needle in [
        ({"views": {}, "constraints": ["contentView.leading == 5"]}, "constraint 0"),
        ({"views": {"a": {}}, "constraints": ["a.width == 1", "a.leading == a.top"]}, "constraint 1"),
        ({"views": {"a": {}}, "constraints": ["b.width == 1"]}, "unknown view"),
        ({"views": {"a": {}}, "constraints": ["a.width == 1 @1001"]}, "priority"),
        ({"views": {"a": {}}, "constraints": ["a.size == 1"]}, "unknown attribute"),
        ({"views": {"a": {"label": {"text": "title"}}}, "constraints": []}, "label"),
    ]:
        try:
            oracle.load_templates({"bad": spec})
            tally.check(False, f"bad template accepted: {spec}")
        except oracle.TemplateError as e:
            tally.check("'bad'" in str(e) and needle in str(e), f"bad template: message {e!s} lacks {needle!r}")


# ---------------------------------------------------------------------------------------------
# 2. LP against kiwisolver on random templates.

_WORK = {}


def _init_worker(templates_json, rows, seed, break_lp):
    _WORK.update(templates=oracle.load_templates(templates_json), rows=rows, seed=seed, break_lp=break_lp)


def _measure_row(i):
    """Row i by both references: ("lp-error" | "unsatisfiable", message) or ("ok", LP, kiwi), where
    kiwi is (height, widths), None (not eligible) or an error message."""
    row = _WORK["rows"][i]
    t = _WORK["templates"][row["template"]]
    rng = random.Random(_WORK["seed"] * 1_000_003 + i)  # per row: the same with any --jobs
    try:
        lp = oracle.lp_measure(t, row, skip_level=_WORK["break_lp"], rng=rng)
    except RuntimeError as e:
        return ("lp-error", str(e))
    except oracle.Unsatisfiable as e:
        return ("unsatisfiable", str(e))
    summary = SimpleNamespace(height=lp.height, widths=lp.widths, lines=lp.lines, ambiguous=lp.ambiguous,
                              why=lp.why, breakpoint=lp.breakpoint, retries=lp.retries, lp_calls=lp.lp_calls)
    kiwi = None
    if not lp.ambiguous:
        try:
            kiwi = oracle.kiwi_measure(t, row)
        except oracle.Unsatisfiable as e:
            kiwi = f"kiwisolver refused a required constraint: {e}"
    return ("ok", summary, kiwi)


def check_random(tally, args, stats):
    templates_json, rows = template_gen.generate(args.seed, args.templates, args.rows_per_template)
    expected = []  # (row index, LP result) of the rows the Swift engine is checked on
    eligible_templates = set()
    initargs = (templates_json, rows, args.seed, args.break_lp)
    if args.jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(args.jobs, _init_worker, initargs)
        results = pool.imap(_measure_row, range(len(rows)), chunksize=16)
    else:
        pool = None
        _init_worker(*initargs)
        results = map(_measure_row, range(len(rows)))
    for i, result in enumerate(results):
        row = rows[i]
        if result[0] == "lp-error":  # the LP reference itself failed: a failure, not a pass
            tally.check(False, f"LP reference: {row['template']} at {row['width']} (row {i}): {result[1]}")
            continue
        if result[0] == "unsatisfiable":
            stats["unsatisfiable"] += 1
            if stats["unsatisfiable"] <= 3:
                print(f"note: {row['template']} at {row['width']}: {result[1]} (left out)")
            continue
        _, lp, k = result
        stats["lp_calls"] += lp.lp_calls
        stats["lp_retries"] += lp.retries
        if lp.ambiguous:
            stats["ambiguous"] += 1
            continue
        expected.append((i, lp))
        stats["breakpoint"] += lp.breakpoint
        if k is None:
            stats["kiwi_ineligible"] += 1
            continue
        if isinstance(k, str):
            tally.check(False, f"LP vs kiwi: {row['template']} at {row['width']} (row {i}): {k}")
            continue
        eligible_templates.add(row["template"])
        stats["max_kiwi_diff"] = max(stats["max_kiwi_diff"], abs(k[0] - lp.height))
        tally.check(abs(k[0] - lp.height) <= TOLERANCE,
                    f"LP vs kiwi: {row['template']} at {row['width']} (row {i}): LP {lp.height!r}, kiwi {k[0]!r}; "
                    f"pass-1 widths LP {lp.widths}, kiwi {k[1]}")
        stats["kiwi_rows"] += 1
    if pool is not None:
        pool.close()
        pool.join()
    stats["kiwi_templates"] = len(eligible_templates)
    stats["rows"] = len(rows)
    return templates_json, rows, expected


# ---------------------------------------------------------------------------------------------
# 3. The Swift engine through `solver-bench measure FILE`.

def check_swift(tally, binary, templates_json, rows, expected, per_file, stats, keep=None):
    if not binary:
        print("SKIPPED: no solver-bench binary given: the Swift engine is NOT checked (only LP vs kiwi ran)")
        return
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        print(f"SKIPPED: {binary} is not an executable file: the Swift engine is NOT checked")
        return
    names = sorted(templates_json)
    chunks = [names[k:k + per_file] for k in range(0, len(names), per_file)] if per_file > 0 else [names]
    by_template = {}
    for i, lp in expected:
        by_template.setdefault(rows[i]["template"], []).append((i, lp))
    with tempfile.TemporaryDirectory() as tmp:
        if keep:
            os.makedirs(keep, exist_ok=True)
            tmp = keep
        for n, chunk in enumerate(chunks):
            file_rows, want = [], []
            for name in chunk:
                for i, h in by_template.get(name, []):
                    r = rows[i]
                    file_rows.append({"template": r["template"], "text": r["text"], "detail": r["detail"], "width": r["width"]})
                    want.append((i, h))
            if not file_rows:
                continue
            path = os.path.join(tmp, f"rows{n}.json")
            with open(path, "w") as f:
                json.dump({"templates": {k: templates_json[k] for k in chunk}, "rows": file_rows}, f, ensure_ascii=False)
            proc = subprocess.run([binary, "measure", path], capture_output=True, text=True, timeout=600)
            if proc.returncode != 0 and n == 0 and "unknown command" in proc.stderr:
                print(f"SKIPPED: {binary} has no `measure` subcommand ({proc.stderr.strip()}): "
                      "the Swift engine is NOT checked (only LP vs kiwi ran)")
                return
            stats["swift_calls"] += 1
            if not tally.check(proc.returncode == 0,
                               f"solver-bench measure ({len(chunk)} templates, {len(file_rows)} rows) exited "
                               f"{proc.returncode}: {proc.stderr.strip()[:500]}"):
                continue
            seen = set()
            for line in proc.stdout.splitlines():
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                    k = obj["row"]
                    assert isinstance(obj, dict) and isinstance(k, int) and 0 <= k < len(file_rows) and k not in seen
                except (ValueError, KeyError, TypeError, AssertionError):
                    tally.check(False, f"solver-bench measure: unexpected line {line[:200]!r}")
                    continue
                seen.add(k)
                i, lp = want[k]
                h = lp.height
                r = rows[i]
                measured = 0
                for mode in MODES:
                    if mode not in obj:
                        tally.check(False, f"Swift {r['template']} at {r['width']} (row {i}): no {mode!r} key")
                        continue
                    v = obj[mode]
                    if v is None:
                        continue
                    measured += 1
                    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v - h) <= TOLERANCE
                    tally.check(ok, f"Swift {mode} vs LP: {r['template']} at {r['width']} (row {i}): {v!r}, LP {h!r}; "
                                    f"LP pass-1 label widths {lp.widths}, lines {lp.lines}"
                                    f"{' (a label is exactly on a wrap breakpoint: try --literal-wrap)' if lp.breakpoint else ''}; "
                                    f"text {r['text'][:40]!r}, detail {r['detail'][:40]!r}")
                    stats["swift_checks"] += 1
                tally.check(measured > 0, f"Swift {r['template']} (row {i}): every mode null")
                stats["swift_rows"] += 1
            missing = len(file_rows) - len(seen)
            tally.check(missing == 0, f"solver-bench measure: {missing} of {len(file_rows)} rows missing from the output")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("solver_bench", nargs="?", help="path of a built solver-bench (optional)")
    ap.add_argument("--templates", type=int, default=1500, help="random templates (default 1500)")
    ap.add_argument("--rows-per-template", type=int, default=2, help="rows per template (default 2)")
    ap.add_argument("--seed", type=int, default=20, help="generator seed (default 20)")
    ap.add_argument("--templates-per-file", type=int, default=100,
                    help="templates per solver-bench measure FILE (0: all in one; default 100)")
    ap.add_argument("--break-lp", type=float, default=None, metavar="PRIORITY",
                    help="drop this priority level from the LP reference (a deliberate bug: the test must fail)")
    cpus = os.cpu_count() or 1
    ap.add_argument("--jobs", type=int, default=min(4, cpus // 2) if cpus > 2 else 1,
                    help="processes for the random rows (default: half the CPUs up to 4, 1 on 2 CPUs or fewer)")
    ap.add_argument("--keep", metavar="DIR",
                    help="write the solver-bench measure files (rowsN.json) to DIR and keep them, to replay a failure")
    ap.add_argument("--literal-wrap", action="store_true",
                    help="count lines with TemplateCell's literal `<=` on the rounded limit: a label exactly at a "
                         "breakpoint (e.g. at its intrinsic width with fontScale 0.88) may then take one line more")
    args = ap.parse_args(argv)
    if args.literal_wrap:
        oracle.SNAP_BREAKPOINTS = False
    start = time.time()
    tally = Tally()
    stats = dict(lp_retries=0, max_kiwi_diff=0.0, breakpoint=0, unsatisfiable=0, ambiguous=0, kiwi_ineligible=0, kiwi_rows=0, kiwi_templates=0, lp_calls=0,
                 swift_calls=0, swift_rows=0, swift_checks=0, rows=0)
    if args.break_lp is not None:
        print(f"note: priority level {args.break_lp:g} is dropped from the LP reference (--break-lp): expect failures")
        real = oracle.LexLP.__init__

        def broken(self, variables, constraints, skip_level=None):
            real(self, variables, constraints, args.break_lp)
        oracle.LexLP.__init__ = broken
    check_hand(tally)
    hand = tally.passed + tally.failed
    templates_json, rows, expected = check_random(tally, args, stats)
    t_random = time.time() - start
    print(f"LP vs kiwi: {stats['kiwi_rows']} rows of {stats['kiwi_templates']} kiwi-eligible templates compared "
          f"({args.templates} templates x {args.rows_per_template} rows, seed {args.seed}; left out: "
          f"{stats['ambiguous']} ambiguous rows, {stats['unsatisfiable']} unsatisfiable, {stats['kiwi_ineligible']} rows "
          f"of templates with more than {len(oracle.KIWI_STRENGTHS)} priority levels, LP only); "
          f"{stats['lp_calls']} linprog calls ({stats['lp_retries']} passes re-solved with looser level tolerances), "
          f"{t_random:.1f} s; {hand} hand-computed checks; "
          f"{stats['breakpoint']} rows with a label exactly on a wrap breakpoint; "
          f"largest |LP - kiwi| {stats['max_kiwi_diff']:.3g} pt")
    # The hand-computed rows go to the Swift engine too (their templates renamed hand_*).
    hand_oracle = oracle.Oracle(HAND_TEMPLATES)
    for name, spec in HAND_TEMPLATES.items():
        templates_json["hand_" + name] = spec
    for row, _ in HAND_ROWS:
        rows.append({"template": "hand_" + row["template"], "text": row.get("text", ""),
                     "detail": row.get("detail", ""), "width": row["width"]})
        expected.append((len(rows) - 1, hand_oracle.lp(row)))
    check_swift(tally, args.solver_bench, templates_json, rows, expected, args.templates_per_file, stats, args.keep)
    if stats["swift_calls"]:
        print(f"Swift engine: {stats['swift_rows']} rows, {stats['swift_checks']} mode heights against the LP reference "
              f"in {stats['swift_calls']} solver-bench call(s)")
    print(f"time {time.time() - start:.1f} s")
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
