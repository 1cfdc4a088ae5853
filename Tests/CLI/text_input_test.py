#!/usr/bin/env python3
"""Bad input for labels on real fonts (issue 32, docs/text.md): an unknown font family, a point
size <= 0 or above 1,000, fontScale beside a font, a bad lineHeight, a text longer than 65,536
UTF-8 bytes (inline, in a data file, generated), a data file that is not valid UTF-8, a font file
that is missing and one FreeType cannot open (through LAYOUT_BENCH_FONT_DIRS); a line height only
a line of text makes too tall, a 2 MiB scenario name (issue 48). Each must exit 1
with one stderr line naming the file and the field, leave no results behind and never crash.
Then a valid real-text scenario must run (the control: the checks above fail for their reason),
and one whose font file lies directly in LAYOUT_BENCH_FONT_DIRS, as macOS's folders hold fonts.

Usage: Tests/CLI/text_input_test.py BINARY
The last line is `N passed, N failed`.
"""
import json, os, shutil, subprocess, sys, tempfile

passed = 0
failures = []


def check(ok, message):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(message)
        print("FAIL " + message)


def template(label):
    return {"views": {"body": {"label": label}},
            "constraints": ["body.leading == contentView.leading + 16", "body.trailing == contentView.trailing - 16",
                            "body.top == contentView.top + 11", "contentView.bottom == body.bottom + 11 @999"]}


def scenario(label=None, data=None, language=None, max_words=20):
    label = label if label is not None else {"text": "text", "font": {"family": "DejaVu Sans", "size": 17}}
    if data is None:
        generate = {"sections": 1, "heights": {"distribution": "template", "templates": {"row": 1}, "minWords": 3, "maxWords": max_words}, "seed": 1}
        if language:
            generate["language"] = language
        data = {"templates": {"row": template(label)}, "generate": generate}
    return {"name": "text-input", "description": "bad text input", "viewport": {"width": 390, "height": 844},
            "layout": {"kind": "list", "lineSpacing": 0, "insets": {"top": 0, "left": 0, "bottom": 0, "right": 0}},
            "data": data, "workload": {"kind": "cell-measure", "verifyMeasurements": 20},
            "modes": ["edit-width", "edit-width-text-cache"], "items": [20]}


def run(binary, folder, doc, env=None, name="s.json", raw=None, timeout=600):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(raw if raw is not None else json.dumps(doc, ensure_ascii=False))
    out = os.path.join(folder, "out")
    shutil.rmtree(out, ignore_errors=True)
    environment = dict(os.environ)
    environment.update(env or {})
    result = subprocess.run([binary, "run", "--quick", "--repetitions", "1", "--in-process", path, "--out", out],
                            env=environment, capture_output=True, text=True, timeout=timeout)
    return result, path, out


def expect_error(binary, folder, label, doc, needles, env=None, raw=None, absent=()):
    try:
        result, path, out = run(binary, folder, doc, env=env, raw=raw, timeout=60)
    except subprocess.TimeoutExpired:
        check(False, f"{label}: still running after 60 s (a hang)")
        return
    lines = result.stderr.strip().splitlines()
    check(result.returncode == 1, f"{label}: exit {result.returncode}, expected 1; stderr {result.stderr[-600:]!r}")
    check(len(lines) == 1, f"{label}: expected one error line, got {result.stderr[-600:]!r}")
    text = lines[0] if lines else ""
    for needle in needles:
        check(needle in text, f"{label}: {needle!r} not in {text!r}")
    for needle in absent:
        check(needle not in result.stderr, f"{label}: {needle!r} in stderr {result.stderr[:300]!r}")
    check(len(result.stderr) < 2000, f"{label}: an error of {len(result.stderr)} characters (echoed values are bounded)")
    check(not os.path.exists(os.path.join(out, "summary.csv")), f"{label}: left results behind")


def main():
    binary = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp()
    try:
        font = {"text": "text", "font": {"family": "Comic Sans", "size": 17}}
        expect_error(binary, folder, "unknown family", scenario(font), ["s.json", "data.templates.row.views.body.label.font.family", "unknown font family \"Comic Sans\""])
        for size in (0, -3, 1000.5, 1e300):
            label = {"text": "text", "font": {"family": "DejaVu Sans", "size": size}}
            expect_error(binary, folder, f"size {size}", scenario(label), ["s.json", "label.font.size", "<= 1000"])
        label = {"text": "text", "font": {"family": "DejaVu Sans", "size": 17}, "fontScale": 2}
        expect_error(binary, folder, "fontScale beside a font", scenario(label), ["label.fontScale", "font.size"])
        label = {"text": "text", "font": {"family": "DejaVu Sans", "size": 17}, "lineHeight": "tall"}
        expect_error(binary, folder, "lineHeight string", scenario(label), ["label.lineHeight", "\"font\""])
        label = {"text": "text", "font": {"family": "DejaVu Sans", "size": 17}, "lineHeight": 0}
        expect_error(binary, folder, "lineHeight 0", scenario(label), ["label.lineHeight"])
        label = {"text": "text", "font": {"size": 17}}
        expect_error(binary, folder, "no family", scenario(label), ["label.font.family", "missing"])
        # Too long a text: inline, in a data file, generated.
        data = {"templates": {"row": template({"text": "text", "font": {"family": "DejaVu Sans", "size": 17}})},
                "sections": [[{"template": "row", "text": "a" * 65537}]]}
        expect_error(binary, folder, "inline text too long", scenario(data=data), ["s.json", "data.sections[0][0].text", "65536"])
        with open(os.path.join(folder, "rows.jsonl"), "w") as f:
            f.write(json.dumps({"section": 0, "template": "row", "text": "ab", "detail": "b" * 65537}) + "\n")
        data = {"templates": {"row": template({"text": "text", "font": {"family": "DejaVu Sans", "size": 17}})}, "file": "rows.jsonl"}
        expect_error(binary, folder, "data file text too long", scenario(data=data), ["rows.jsonl", "detail", "65536"])
        with open(os.path.join(folder, "bad.jsonl"), "wb") as f:
            f.write(b'{"section": 0, "template": "row", "text": "caf\xe9"}\n')
        data = {"templates": {"row": template({"text": "text", "font": {"family": "DejaVu Sans", "size": 17}})}, "file": "bad.jsonl"}
        expect_error(binary, folder, "data file not UTF-8", scenario(data=data), ["bad.jsonl", "not valid UTF-8"])
        expect_error(binary, folder, "generated text too long", scenario(max_words=10000, language="ru"), ["data.generate.heights.maxWords", "65536"])
        # Fonts: missing, and a file FreeType cannot open.
        empty = os.path.join(folder, "nofonts")
        os.makedirs(empty)
        expect_error(binary, folder, "missing font file", scenario(), ["label.font.family", "not found", "fonts-dejavu-core"],
                     env={"LAYOUT_BENCH_FONT_DIRS": empty})
        broken = os.path.join(folder, "broken")
        os.makedirs(os.path.join(broken, "truetype", "dejavu"))
        with open(os.path.join(broken, "truetype", "dejavu", "DejaVuSans.ttf"), "wb") as f:
            f.write(b"not a font at all" * 10)
        expect_error(binary, folder, "font FreeType cannot open", scenario(), ["label.font.family", "FreeType cannot open"],
                     env={"LAYOUT_BENCH_FONT_DIRS": broken})
        # Fonts directly in a folder, as macOS's font folders hold them (issue 50): found by name.
        real = next(p for d in ("/usr/share/fonts/truetype/dejavu", os.path.expanduser("~/Library/Fonts"))
                    for p in [os.path.join(d, "DejaVuSans.ttf")] if os.path.exists(p))
        flat = os.path.join(folder, "flat-fonts")
        os.makedirs(flat)
        os.symlink(real, os.path.join(flat, "DejaVuSans.ttf"))
        result, _, out = run(binary, folder, scenario(), env={"LAYOUT_BENCH_FONT_DIRS": flat})
        check(result.returncode == 0 and os.path.exists(os.path.join(out, "summary.csv")),
              f"a font directly in LAYOUT_BENCH_FONT_DIRS: exit {result.returncode}; {result.stderr[-600:]!r}")
        # Issue 48: refused when the file loads, not per mode during the run (a line of 1e9 pt
        # with one word; empty texts take none), nor by the results' readers after it (a name
        # of 2 MiB).
        label = {"text": "text", "font": {"family": "DejaVu Sans", "size": 17}, "lineHeight": 1e9}
        expect_error(binary, folder, "lineHeight 1e9", scenario(label),
                     ["s.json", "data.templates.row.views.body.label.lineHeight", "with one line of text", "lower its lineHeight"])
        expect_error(binary, folder, "2 MiB name", dict(scenario(), name="n" * (2 << 20)), ["s.json: name:", "at most 128 bytes"])
        expect_error(binary, folder, "long description", dict(scenario(), description="d" * 4097),
                     ["s.json: description:", "at most 4096 bytes"])
        # Runs of combining marks (issue 48 #3): HarfBuzz's cost grows with a run's square, so a
        # run longer than 32 marks or default-ignorables is refused at load, inline and in a file.
        def marks_data(text):
            return {"templates": {"row": template({"text": "text", "font": {"family": "DejaVu Sans", "size": 17}})},
                    "sections": [[{"template": "row", "text": text}]]}

        def explicit(data):  # explicit data gives its own item count
            doc = scenario(data=data)
            del doc["items"]
            return doc
        expect_error(binary, folder, "a + 32,000 combining marks", explicit(marks_data("a" + "\u0301" * 32000)),
                     ["s.json", "data.sections[0][0].text", "32000 combining marks", "from byte 1", "at most 32"])
        expect_error(binary, folder, "marks between word joiners", explicit(marks_data("x" + "\u0301\u2060" * 17)),
                     ["data.sections[0][0].text", "34 combining marks"])
        with open(os.path.join(folder, "marks.jsonl"), "w") as f:
            f.write(json.dumps({"section": 0, "template": "row", "text": "ok", "detail": "e" + "\u0316" * 40}) + "\n")
        data = {"templates": {"row": template({"text": "text", "font": {"family": "DejaVu Sans", "size": 17}})}, "file": "marks.jsonl"}
        expect_error(binary, folder, "data file marks", explicit(data), ["marks.jsonl", "detail", "40 combining marks"])
        # Font paths and families as the user gives them (issue 48 #4, #16).
        fifo = os.path.join(folder, "fifo-fonts")
        os.makedirs(os.path.join(fifo, "truetype", "dejavu"))
        os.mkfifo(os.path.join(fifo, "truetype", "dejavu", "DejaVuSans.ttf"))
        expect_error(binary, folder, "font file a FIFO", scenario(), ["label.font.family", "DejaVuSans.ttf", "not a regular file"],
                     env={"LAYOUT_BENCH_FONT_DIRS": fifo})
        expect_error(binary, folder, "LAYOUT_BENCH_FONT_DIRS=:", scenario(), ["label.font.family", "LAYOUT_BENCH_FONT_DIRS names no directory"],
                     env={"LAYOUT_BENCH_FONT_DIRS": ":"}, absent=["no readable  ("])
        label = {"text": "text", "font": {"family": "X\u0000\u001b[31m" + "y" * 100000, "size": 17}}
        expect_error(binary, folder, "family with NUL, escape and 100,000 characters", scenario(label),
                     ["label.font.family", "unknown font family \"X\\u0000\\u001B[31myyy", "(100007 characters)"], absent=["\x00", "\x1b"])
        # The control: the same scenario with good input runs, in every language.
        for language in ("en", "ru", "zh", "mixed"):
            family = "DejaVu Sans" if language in ("en", "ru") else "WenQuanYi Micro Hei"
            label = {"text": "text", "font": {"family": family, "size": 17}}
            result, _, out = run(binary, folder, scenario(label, language=language))
            check(result.returncode == 0 and os.path.exists(os.path.join(out, "summary.csv")),
                  f"control ({language}): exit {result.returncode}; {result.stderr[-600:]!r}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
