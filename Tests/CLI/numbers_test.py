#!/usr/bin/env python3
"""Numbers and limits at the command line (issue 34, items 2 and 10): values at and beyond the
conversions they reach, out-of-range options, a missing TMPDIR, data files that end in blank
lines, templates whose heights pass the documented limits and an `offsets` resize storm that
cannot finish (issue 48). Each must give its documented exit
status (64 for the command line, 1 for input) and one clear line naming the option, or the file
and field; none may crash the process (a signal exit) or leave output behind.

Usage: Tests/CLI/numbers_test.py BINARY
"""
import json, os, shutil, subprocess, sys, tempfile
import xml.etree.ElementTree as ElementTree

failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def run(binary, arguments, cwd, env=None, timeout=600):
    environment = dict(os.environ)
    environment.update(env or {})
    result = subprocess.run([binary] + arguments, cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout)
    if result.returncode < 0:
        fail(f"{' '.join(arguments)}: killed by signal {-result.returncode}: {result.stderr[-800:]!r}")
    return result


def expect(result, arguments, status, first_line=None, one_line=False, absent=()):
    """The exit status, the start of stderr's first line, exactly one stderr line (input
    errors), and paths that must not exist afterwards."""
    label = " ".join(arguments)
    if result.returncode != status:
        fail(f"{label}: exit {result.returncode}, expected {status}; stderr {result.stderr[-800:]!r}")
    lines = result.stderr.splitlines()
    if first_line is not None and not (lines and lines[0].startswith(first_line)):
        fail(f"{label}: stderr should start with {first_line!r}, got {result.stderr[-800:]!r}")
    if one_line and len(lines) != 1:
        fail(f"{label}: expected one error line, got {result.stderr!r}")
    if "Missing value" in result.stderr or "NSCocoaErrorDomain" in result.stderr:
        fail(f"{label}: unclear message {result.stderr!r}")
    for path in absent:
        if os.path.exists(path):
            fail(f"{label}: left {path}")


def leftovers(folder):
    return [name for name in os.listdir(folder) if ".partial-" in name or ".tmp-" in name]


TALL_TEMPLATE = {  # 1000 × a view 1e9 pt tall: 1e12 pt with any text.
    "views": {"box": {"intrinsic": {"height": 1000000000}}},
    "constraints": ["box.leading == contentView.leading", "box.trailing == contentView.trailing",
                    "box.top == contentView.top", "contentView.bottom == 1000 * box.bottom"],
}
HALF_BILLION_TEMPLATE = {  # 5e8 pt: within the size limit; 1e5 of them pass the content height limit.
    "views": {"box": {"intrinsic": {"height": 500000000}}},
    "constraints": ["box.top == contentView.top", "contentView.bottom == box.bottom"],
}
WORDY_TEMPLATE = {  # 2e8 pt per line of text: empty, 44.5 pt; with 40 to 60 words, seven lines or more.
    "views": {"label": {"label": {"text": "text", "lineHeight": 200000000, "fontScale": 1, "lines": 0}}},
    "constraints": ["label.leading == contentView.leading", "label.trailing == contentView.trailing",
                    "label.top == contentView.top", "contentView.bottom == label.bottom"],
}


def templated_scenario(name, template, items, workload=None, words=(1, 2)):
    return {
        "name": name, "description": "a template at the size limits",
        "layout": {"kind": "list"},
        "data": {"templates": {"t": template},
                 "generate": {"sections": 1, "seed": 1,
                              "heights": {"distribution": "template", "templates": {"t": 1},
                                          "minWords": words[0], "maxWords": words[1]}}},
        "workload": workload or {"kind": "query", "frames": 10},
        "modes": ["linear"], "items": [items],
    }


def main():
    binary = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="layout-bench-numbers-")
    try:
        checks(binary, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"numbers: {len(failures)} failures")
    return 1 if failures else 0


def checks(binary, work):
    base = os.path.join(work, "base")
    result = run(binary, ["run", "list-query", "--items", "1000", "--repetitions", "2", "--out", base], work)
    expect(result, ["run (base)"], 0)

    # Item 2: a run.json load average of 9.3e16 or more (compare's busy-machine warning).
    for load in [9.3e16, 1e17, 1e308]:
        head = os.path.join(work, "head")
        shutil.rmtree(head, ignore_errors=True)
        shutil.copytree(base, head)
        metadata = json.load(open(os.path.join(head, "run.json")))
        metadata["load"]["start"] = [load, 1, 1]
        json.dump(metadata, open(os.path.join(head, "run.json"), "w"))
        result = run(binary, ["compare", base, head], work)
        if result.returncode not in (0, 2, 3, 4) or "warning: head ran on a busy machine (load average " not in result.stdout:
            fail(f"compare with load {load}: exit {result.returncode}, {result.stdout[-400:]!r} {result.stderr[-400:]!r}")

    # Item 2: render and dump at offsets beyond any content: a usage error, nothing written.
    svg = os.path.join(work, "r.svg")
    for offset in ["1e19", "-1e19", "1e308", "-1e308", "9.3e18", "1.7976931348623157e308", "10000000000001"]:
        for command in (["render", "list-query", "--mode", "binary", "--items", "1000", "--offset", offset, "--out", svg],
                        ["dump", "list-query", "--mode", "binary", "--items", "1000", "--offset", offset]):
            result = run(binary, command, work)
            expect(result, command, 64, "Error: --offset expects a finite number from -1e+13 to 1e+13", absent=[svg])
    # Within the range but past the content: a valid drawing (no negative size).
    for offset in ["1e13", "-1e13", "1e12"]:
        command = ["render", "list-query", "--mode", "binary", "--items", "1000", "--offset", offset, "--out", svg]
        expect(run(binary, command, work), command, 0)
        try:
            root = ElementTree.parse(svg).getroot()
            sizes = [float(e.get(k)) for e in root.iter() for k in ("width", "height") if e.get(k) is not None]
            if any(size < 0 for size in sizes):
                fail(f"{' '.join(command)}: negative sizes in the SVG")
        except (ElementTree.ParseError, ValueError, OSError) as error:
            fail(f"{' '.join(command)}: not a valid SVG: {error}")
        os.remove(svg)

    # Issue 48 #17: --rect takes its numbers as --offset does (decimal, within ±1e13), and so
    # does --offset (no hex, which Double(_:) reads).
    for rect in ["0x10,0,390,844", "0,1e14,390,844", "0,0,390,-1e14", "0,0,nan,844", "0,0,390", "0,,390,844"]:
        command = ["dump", "list-query", "--mode", "binary", "--items", "1000", "--rect", rect]
        expect(run(binary, command, work), command, 64)
    for offset in ["0x10", "0x1p4", "inf", "nan", "1e", "--5"]:
        command = ["dump", "list-query", "--mode", "binary", "--items", "1000", "--offset", offset]
        expect(run(binary, command, work), command, 64, "Error: --offset expects a finite number from -1e+13 to 1e+13")
    for rect, offset in [("0,1e13,390,844", "-1e13"), (" 0, 2000.5 ,390,.5e3", "+12.5")]:
        command = ["dump", "list-query", "--mode", "binary", "--items", "1000", "--rect", rect, "--offset", offset]
        expect(run(binary, command, work), command, 0)
    # Issue 48 #17: options that would be ignored are refused (64), before anything runs.
    out = os.path.join(work, "loose")
    for arguments, message in [
        (["--in-process", "--stall-timeout", "30", "--items", "1000"], "--stall-timeout watches"),
        (["--max-items", "100", "--items", "400"], "--items 400 is above --max-items 100"),
        (["--in-process", "--jobs", "2", "--items", "1000"], "--jobs counts the child processes that verify; --in-process"),
        (["--verified", "--jobs", "2", "--items", "1000"], "--jobs counts the child processes that verify; --verified"),
        (["--jobs", "0", "--items", "1000"], "--jobs expects a count from 1 to 64, got 0"),
        (["--jobs", "65", "--items", "1000"], "--jobs expects a count from 1 to 64, got 65"),
    ]:
        command = ["run", "list-query", "--repetitions", "1", "--out", out] + arguments
        expect(run(binary, command, work), command, 64, "Error: " + message, absent=[out])
    command = ["run", "list-query", "--repetitions", "1", "--max-items", "1000", "--items", "1000", "--out", out]
    expect(run(binary, command, work), command, 0)
    shutil.rmtree(out, ignore_errors=True)
    # One verifying child at a time gives the same run as the default.
    command = ["run", "list-query", "--repetitions", "1", "--items", "1000", "--jobs", "1", "--out", out]
    expect(run(binary, command, work), command, 0)
    shutil.rmtree(out, ignore_errors=True)
    # Issue 48 #17: a threshold of a metric that neither this version knows nor the results hold.
    for threshold in ["tiem=5", "nosuch=5%"]:
        command = ["compare", base, base, "--threshold", threshold]
        expect(run(binary, command, work), command, 64, "Error: --threshold: no metric")
    command = ["compare", base, base, "--threshold", "alloc_bytes=3"]
    expect(run(binary, command, work), command, 0)

    # Item 2: repetition numbers that would overflow; nothing staged or left.
    out = os.path.join(work, "rr")
    for extra in (["--repetition", "9223372036854775807"], ["--repetition", "0"], ["--repetitions", "1000001"]):
        command = ["run", "list-query", "--items", "1000", "--out", out] + extra
        result = run(binary, command, work)
        expect(result, command, 64, "Error: " + extra[0] + " expects", absent=[out])
    if leftovers(work):
        fail(f"staging left behind: {leftovers(work)}")

    # Item 10: usage errors are exit 64 with the option named, negative numbers included.
    usage = [
        (["compare", base, base, "--threshold", "bogus"], "Error: --threshold: expected METRIC=PERCENT or PERCENT"),
        (["compare", base, base, "--threshold", "-3"], "Error: --threshold: expected METRIC=PERCENT or PERCENT"),
        (["compare", base, base, "--threshold", "time=2000%"], "Error: --threshold: expected METRIC=PERCENT or PERCENT"),
        (["compare", base, base, "--alpha", "-1"], "Error: --alpha must lie between 0 and 1"),
        (["compare", base, base, "--spread-factor", "-1"], "Error: --spread-factor must lie between 0 and 100"),
        (["compare", base, base, "--change-confidence", "-0.5"], "Error: --change-confidence must lie between 0.5 and 1"),
        (["run", "list-query", "--repetitions", "-3"], "Error: --repetitions expects a count from 1 to 1000000, got -3"),
        (["run", "list-query", "--repetitions", "0"], "Error: --repetitions expects a count from 1 to 1000000, got 0"),
        (["run", "list-query", "--max-items", "-1"], "Error: --max-items expects an item count >= 1, got -1"),
        (["run", "list-query", "--items", "-1"], "Error: --items expects an item count >= 1, got -1"),
        (["dump", "list-query", "--mode", "binary", "--items", "-2"], "Error: --items expects an item count >= 1, got -2"),
    ]
    for command, first in usage:
        expect(run(binary, command, work), command, 64, first)

    # Item 10: a missing (or unusable) TMPDIR is one line naming it, before anything is made.
    not_a_directory = os.path.join(work, "a-file")
    open(not_a_directory, "w").write("x")
    out = os.path.join(work, "t")
    for tmpdir, reason in [("/nonexistent-layout-bench-tmpdir", "No such file or directory"), (not_a_directory, "not a directory")]:
        command = ["run", "list-query", "--items", "1000", "--repetitions", "1", "--out", out]
        result = run(binary, command, work, env={"TMPDIR": tmpdir})
        expect(result, ["TMPDIR=" + tmpdir] + command, 1, f"layout-bench: error: TMPDIR {tmpdir}: {reason}", one_line=True, absent=[out])
    if leftovers(work):
        fail(f"staging left behind: {leftovers(work)}")

    # Item 10: a data file may end in blank lines (docs/scenario-format.md); elsewhere one is an error.
    data = os.path.join(work, "data")
    os.mkdir(data)
    files = {
        "a.csv": ("section,w,h\n0,,44\n0,,50\n\n", 2), "b.csv": ("section,w,h\r\n0,,44\r\n\r\n\r\n", 1),
        "c.jsonl": ('{"section": 0, "h": 44}\n{"section": 0, "h": 50}\n\n', 2), "d.jsonl": ('{"section": 0, "h": 44}\n \n\t\n', 1),
        "e.csv": ("section,w,h\n0,,44\n\n0,,50\n", 3), "f.jsonl": ('{"section": 0, "h": 44}\n\n{"section": 0, "h": 50}\n', 2),
    }
    for name, (text, expected) in files.items():
        open(os.path.join(data, name), "w", newline="").write(text)
        scenario = os.path.join(data, name + ".json")
        json.dump({"name": name, "description": "a data file", "layout": {"kind": "list"}, "data": {"file": name},
                   "workload": {"kind": "query", "frames": 10}, "modes": ["linear"]}, open(scenario, "w"))
        command = ["dump", scenario, "--mode", "linear"]
        result = run(binary, command, work)
        if name[0] in "ef":  # expected: the line of the blank line
            expect(result, command, 1, f"layout-bench: error: {os.path.join(data, name)}: line {expected}, column 1: empty line", one_line=True)
        else:  # expected: the number of items
            expect(result, command, 0)
            items = [line for line in result.stdout.splitlines() if line.startswith("item,")]
            if len(items) != expected:
                fail(f"{' '.join(command)}: {len(items)} items, expected {expected}")

    # Item 10: templated heights within the documented limits (1e9 pt a size, 1e13 pt of content).
    templates = [
        ("tall", templated_scenario("tall", TALL_TEMPLATE, 10), "data.templates.t: "),
        ("content", templated_scenario("content", HALF_BILLION_TEMPLATE, 100000), "data.templates.t: "),
        ("wordy", templated_scenario("wordy", WORDY_TEMPLATE, 10, words=(40, 60)), "data.templates.t: item 0: "),
    ]
    for name, scenario, field in templates:
        path = os.path.join(work, name + ".json")
        json.dump(scenario, open(path, "w"))
        out = os.path.join(work, name + "-out")
        for command in (["dump", path, "--mode", "linear"], ["run", path, "--repetitions", "1", "--out", out]):
            result = run(binary, command, work)
            if name == "wordy" and command[0] == "run":
                # Heights that only the measured texts make too large are found when the data is
                # built: the mode fails, and the run says so and exits 1.
                expect(result, command, 1)
                if f"{path}: {field}" not in result.stderr:
                    fail(f"{' '.join(command)}: the error does not name {field}: {result.stderr[-800:]!r}")
                continue
            expect(result, command, 1, f"layout-bench: error: {path}: {field}", one_line=True, absent=[out])
    # Issue 48, item 7: a resize storm that cannot finish (every row of a million resized, each
    # re-summing every row) is refused when the file loads, naming a count that can.
    storm = {"name": "storm", "description": "a reverse storm of a million rows", "layout": {"kind": "list"},
             "data": {"generate": {"heights": {"distribution": "text", "minWords": 3, "maxWords": 30}, "seed": 1}},
             "workload": {"kind": "offsets", "operations": ["resize-storm"]}, "modes": ["btree"], "items": [1000, 1000000]}
    path = os.path.join(work, "storm.json")
    json.dump(storm, open(path, "w"))
    out = os.path.join(work, "storm-out")
    for command in (["dump", path, "--mode", "btree", "--items", "1000"], ["run", path, "--quick", "--repetitions", "1", "--out", out]):
        result = run(binary, command, work)
        expect(result, command, 1, f"layout-bench: error: {path}: workload.operations[0]: resize-storm", one_line=True, absent=[out])
        if "use at most 100000 items" not in result.stderr:
            fail(f"{' '.join(command)}: no count that can run in {result.stderr[-800:]!r}")
    if leftovers(work):
        fail(f"staging left behind: {leftovers(work)}")


if __name__ == "__main__":
    sys.exit(main())
