#!/usr/bin/env python3
"""Differential test of label text on real fonts (docs/text.md, issue 32).

    python3 Tests/Oracle/test_text_oracle.py SOLVER_BENCH [--strings N] [--seed S] [--break-rule]

1. Hand-computed cases (an empty string, a single glyph, a word wider than the label, a CJK run,
   a no-break space, a closing bracket after an ideograph, line feeds): the expected lines and
   widths are worked out here from single-glyph advances, and both scripts/text_oracle.py and the
   Swift measurer (`solver-bench text`) must give them.
2. Seeded strings in English, Russian, Chinese and mixed: the generator's own paragraphs
   (`solver-bench words`) and random strings drawn from character classes (letters, CJK,
   spaces, no-break spaces, brackets, punctuation, digits, line feeds, symbols), each at widths
   on and around every width where its layout can change (+-1e-3 pt, +-1e-5 pt) and at a few
   label widths, with maxLines 0 and 2. Every line count must be equal and every width within
   1e-6 pt, for the Swift measurer without its cache and with it, and the line heights too.

3. Heights end to end: the templates of the real-text feed scenarios (Scenarios/*-text.json) with
   the generator's paragraphs at several widths, through `solver-bench measure` (every mode of the
   engine, with TextShaping) against the LP and kiwisolver references of
   scripts/template_oracle.py, which take the Python measurer's intrinsic widths and lines; rows
   whose pass-1 label widths are ambiguous are left out, as in test_template_oracle.py.

--break-rule allows a break before closing punctuation in the oracle (an injected bug): the
test must fail. The last line is `N passed, N failed`; the exit status is 1 when anything failed.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))

import text_oracle as oracle  # noqa: E402
import template_oracle  # noqa: E402

TOLERANCE = 1e-6
LATIN, CJK = "DejaVu Sans", "WenQuanYi Micro Hei"


class Tally:
    def __init__(self):
        self.passed = self.failed = self.shown = 0

    def check(self, ok, message):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if self.shown < 25:
                print("FAIL " + message)
            self.shown += 1
        return ok


def swift_measure(solver_bench, cases):
    """cases: dicts {text, family, size, maxLines, widths} -> one result dict each."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
        path = f.name
    try:
        out = subprocess.run([solver_bench, "text", path], capture_output=True, text=True, check=False)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        sys.exit("solver-bench text failed: " + out.stderr.strip())
    return [json.loads(line) for line in out.stdout.splitlines()]


def hand_cases():
    """(name, text, family, size, width, maxLines, expected lines, expected width in pt)."""
    d, w = oracle.Face.get(LATIN), oracle.Face.get(CJK)
    size = 17.0

    def pt(face, units):
        return units * size / face.upem

    a, m, sp, nb = d.advance("a"), d.advance("m"), d.advance(" "), d.advance("\u00a0")
    zh = w.advance("中")
    assert w.advance("文") == zh and w.advance("字") == zh, "the CJK font's ideographs are not all one em"
    close = w.advance("）")
    cases = [
        ("empty string", "", LATIN, size, 100.0, 0, 0, 0.0),
        ("single glyph", "a", LATIN, size, 100.0, 0, 1, pt(d, a)),
        ("single glyph, narrower label", "a", LATIN, size, 1.0, 0, 1, pt(d, a)),
        # 10 m at 3.5 m wide: three a line (DejaVu has no m-m kerning), four lines.
        ("word wider than the label", "m" * 10, LATIN, size, pt(d, 3.5 * m), 0, 4, pt(d, 3 * m)),
        ("word wider than the label, then a word", "m" * 10 + " aa", LATIN, size, pt(d, 3.5 * m), 0, 4, pt(d, 3 * m)),
        # Eight ideographs at 3.5 em: a break between any two, three a line.
        ("CJK run", "中文字中文字中文", CJK, size, pt(w, 3.5 * zh), 0, 3, pt(w, 3 * zh)),
        ("CJK run on one line", "中文字中文字中文", CJK, size, pt(w, 8 * zh), 0, 1, pt(w, 8 * zh)),
        # "aa aa": the space breaks; "aa<NBSP>aa" at the same width must not break at the NBSP:
        # the whole is one segment wider than the line, split between clusters: aa<NBSP>a | a.
        ("space breaks", "aa aa", LATIN, size, pt(d, 3 * a + nb), 0, 2, pt(d, 2 * a)),
        ("no-break space", "aa\u00a0aa", LATIN, size, pt(d, 3 * a + nb), 0, 2, pt(d, 3 * a + nb)),
        # 中文）: no break before the closing bracket: 中 | 文） at 2.5 em (文） is 1 em + bracket).
        ("closing bracket after an ideograph", "中文）", CJK, size, pt(w, 2 * zh + close / 2), 0, 2, pt(w, zh + close)),
        ("line feeds", "a\n\na", LATIN, size, 100.0, 0, 3, pt(d, a)),
        ("final line feed", "a\n", LATIN, size, 100.0, 0, 1, pt(d, a)),
        ("only spaces", "   ", LATIN, size, 100.0, 0, 1, 0.0),
        ("trailing spaces hang", "aa   ", LATIN, size, pt(d, 2 * a), 0, 1, pt(d, 2 * a)),
        ("truncated to maxLines", "aa aa aa", LATIN, size, pt(d, 2 * a), 2, 2, pt(d, 2 * a)),
    ]
    if close + zh > 2 * zh + close / 2:
        raise SystemExit("hand case assumption broken: a bracket wider than an em")
    return cases


def random_string(rng, script):
    words = {
        "en": "the list cell row label height width layout scroll table view text font line break measure cache".split(),
        "ru": "ячейка список строка высота ширина текст шрифт кэш таблица прокрутка разметка перенос".split(),
    }
    pieces = []
    for _ in range(rng.randint(0, 14)):
        r = rng.random()
        if script == "zh":
            pieces.append("".join(rng.choice("中文字体排版测试单元格高度列表滚动缓存宽度") for _ in range(rng.randint(1, 6))))
            pieces.append(rng.choice(["", "", "，", "。", "、", "）", "（", "「", "」", " ", "\u00a0", "\n", "！", "123", "ab"]))
        else:
            word = rng.choice(words[script])
            if r < 0.1:
                word = word * rng.randint(2, 6)  # long words, split across lines at narrow widths
            pieces.append(word)
            pieces.append(rng.choice([" ", " ", " ", ", ", ". ", "\u00a0", " (", ") ", "-", "\n", "  ", "\t", "? ", " 42 ", "—"]))
    return "".join(pieces).lstrip("\n")


def checks_for(text, family, size, max_lines, extra_widths=()):
    widths = set(extra_widths)
    for b in oracle.break_widths(text, family, size)[:60]:
        for dx in (0.0, 1e-3, -1e-3, 1e-5, -1e-5):
            if b + dx > 0:
                widths.add(b + dx)
    return {"text": text, "family": family, "size": size, "maxLines": max_lines, "widths": sorted(widths)}


def compare(tally, case, result, label):
    text, family, size, max_lines = case["text"], case["family"], case["size"], case["maxLines"]
    lh = oracle.line_height(family, size)
    tally.check(abs(result["lineHeight"] - lh) <= TOLERANCE, f"{label}: line height {result['lineHeight']} != oracle {lh}")
    iw = oracle.intrinsic_width(text, family, size)
    tally.check(abs(result["intrinsic"] - iw) <= TOLERANCE, f"{label}: intrinsic width {result['intrinsic']} != oracle {iw} for {text!r}")
    expected = [oracle.layout(text, family, size, width, max_lines) for width in case["widths"]]
    for which in ("layouts", "cached"):
        got = result[which]
        if not tally.check(len(got) == len(case["widths"]), f"{label}: {which}: {len(got)} layouts for {len(case['widths'])} widths"):
            continue
        for width, (gw, gl), (ew, el) in zip(case["widths"], got, expected):
            tally.check(gl == el and abs(gw - ew) <= TOLERANCE,
                        f"{label}: {which} at width {width!r} maxLines {max_lines}: swift ({gw}, {gl}) != oracle ({ew}, {el}) for {text!r}")


def check_heights(tally, solver_bench, paragraphs):
    """Part 3: fitting heights of the real-text templates, Swift against the LP and kiwi."""
    root = os.path.join(HERE, "..", "..", "Scenarios")
    templates = {}
    for name in sorted(os.listdir(root)):
        if name.endswith("-text.json"):
            with open(os.path.join(root, name), encoding="utf-8") as f:
                for tname, t in json.load(f)["data"]["templates"].items():
                    templates[name[:-5] + "-" + tname] = t
    texts = [json.loads(line)["text"] for line in paragraphs][:160] or ["a b c"]
    rng = random.Random(7)
    rows = []
    for tname in sorted(templates):
        for _ in range(40):
            rows.append({"template": tname, "text": rng.choice(texts), "detail": rng.choice(texts),
                         "width": rng.choice([390.0, 844.0, 320.0, rng.uniform(250, 900)])})
    request = {"templates": templates, "rows": rows}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump(request, f, ensure_ascii=False)
        path = f.name
    try:
        out = subprocess.run([solver_bench, "measure", path], capture_output=True, text=True, check=False)
    finally:
        os.unlink(path)
    if not tally.check(out.returncode == 0, f"solver-bench measure failed: {out.stderr.strip()[:400]}"):
        return
    refs = template_oracle.Oracle(templates)
    measured = [json.loads(line) for line in out.stdout.splitlines()]
    tally.check(len(measured) == len(rows), f"solver-bench measure: {len(measured)} rows of {len(rows)}")
    checked = ambiguous = kiwi_rows = 0
    for row, got in zip(rows, measured):
        lp = refs.lp(row)
        if lp.ambiguous:
            ambiguous += 1
            continue
        checked += 1
        for mode in ("fresh-engine", "fd-add-remove", "edit-width", "fd-add-remove-batched", "edit-width-batched"):
            tally.check(abs(got[mode] - lp.height) <= TOLERANCE,
                        f"height of {row['template']} at {row['width']}: swift {mode} {got[mode]} != LP {lp.height}")
        kiwi = refs.kiwi_height(row)
        if kiwi is not None:
            kiwi_rows += 1
            tally.check(abs(kiwi - lp.height) <= TOLERANCE, f"height of {row['template']} at {row['width']}: kiwi {kiwi} != LP {lp.height}")
    print(f"{len(templates)} real-text templates: {checked} rows checked against the LP ({kiwi_rows} against kiwi too), {ambiguous} ambiguous left out")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("solver_bench")
    parser.add_argument("--strings", type=int, default=1200, help="random strings per script")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--break-rule", action="store_true")
    args = parser.parse_args()
    oracle.BREAK_BEFORE_CLOSING = args.break_rule
    tally = Tally()

    # 1. Hand-computed cases: the oracle and Swift against the numbers worked out here.
    hands = hand_cases()
    cases = [{"text": t, "family": f, "size": s, "maxLines": ml, "widths": [wd]} for _, t, f, s, wd, ml, _, _ in hands]
    results = swift_measure(args.solver_bench, cases)
    for (name, text, family, size, width, ml, lines, expected_width), result in zip(hands, results):
        ow, ol = oracle.layout(text, family, size, width, ml)
        tally.check(ol == lines and abs(ow - expected_width) <= TOLERANCE, f"hand case {name!r}: oracle ({ow}, {ol}) != ({expected_width}, {lines})")
        sw, sl = result["layouts"][0]
        tally.check(sl == lines and abs(sw - expected_width) <= TOLERANCE, f"hand case {name!r}: swift ({sw}, {sl}) != ({expected_width}, {lines})")
    hand_count = tally.passed + tally.failed

    # 2. Seeded strings.
    rng = random.Random(args.seed)
    cases = []
    for script, family in (("en", LATIN), ("ru", LATIN), ("zh", CJK)):
        for _ in range(args.strings):
            size = rng.choice([11.0, 13.0, 15.0, 17.0, 17.5, 22.0])
            cases.append(checks_for(random_string(rng, script), family, size, rng.choice([0, 0, 2]), (rng.uniform(20, 400),)))
    generated = subprocess.run([args.solver_bench, "words", "--seed", str(args.seed)], capture_output=True, text=True, check=False)
    if generated.returncode == 0:
        for line in generated.stdout.splitlines():
            item = json.loads(line)
            family = CJK if item["language"] in ("zh", "mixed") else LATIN
            cases.append(checks_for(item["text"], family, 15.0, 0, (343.0, 263.0, 120.0)))
    else:
        print("NOTE solver-bench has no `words` command: the generator's paragraphs are not checked")
    results = swift_measure(args.solver_bench, cases)
    if not tally.check(len(results) == len(cases), f"{len(results)} results for {len(cases)} cases"):
        results = results[: len(cases)]
    widths = 0
    for i, (case, result) in enumerate(zip(cases, results)):
        compare(tally, case, result, f"case {i}")
        widths += len(case["widths"])
    print(f"{hand_count} hand-computed checks; {len(cases)} seeded strings at {widths} widths")
    check_heights(tally, args.solver_bench, generated.stdout.splitlines() if generated.returncode == 0 else [])
    print(f"{tally.passed} passed, {tally.failed} failed")
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()
