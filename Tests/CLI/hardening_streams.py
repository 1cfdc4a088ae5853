"""The streams class of the CLI fuzz test (issue 48, hardening round 4), run by fuzz_hardening.py:

- stderr as well as stdout failing — a full device, a closed descriptor, a pipe whose reader is
  gone (SIGPIPE) — for every command: never a signal, the exit status the command's outcome gives
  with a working stderr (a failing stdout: non-zero with a message), no staging directory left;
- a full TMPDIR (a 1 MiB tmpfs, filled): `run` says it is the disk, naming TMPDIR, and writes
  nothing;
- `run --out` a mount point (a tmpfs) or `/`: refused before anything is measured;
- control characters and bidirectional overrides in a scenario's name and description reaching
  every human-readable output (list, list --verbose, the compare table, render's SVG, stderr):
  escaped, and the SVG well-formed XML;
- text whose cost grows faster than its length (runs of combining marks, ZWJ, variation
  selectors, line feeds, Arabic, within the byte limit): a guard against a hang or a quadratic
  cost with a large margin, not a timing assertion; the run past the mark limit is refused.

The tmpfs cases need mount(8) (root); where it is not permitted they are skipped with a line.
docs/robustness.md states the promises.
"""
import json, os, re, shutil, stat, subprocess, time
import xml.etree.ElementTree as ElementTree

import fuzz_hardening as fh

# What must never reach a terminal raw: C0 controls (but line feed and tab), DEL, C1, the
# bidirectional formatting controls.
ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
STORM_TIMEOUT = 60.0  # seconds for one run of a 64 KB text: a hang or a quadratic cost, by a wide margin


def mount_tmpfs(path, size):
    """Mounts a tmpfs of `size` at `path`; None when it worked, else why not."""
    os.makedirs(path, exist_ok=True)
    if os.geteuid() != 0 or not shutil.which("mount"):
        return "not root, or no mount(8)"
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], capture_output=True, text=True)
    return None if result.returncode == 0 else (result.stderr.strip() or f"mount exited {result.returncode}")


def unmount(path):
    subprocess.run(["umount", "-l", path], capture_output=True)


def fill(path, leave=0):
    """Writes a file in `path` until the file system is full (less `leave` bytes freed again)."""
    filler = os.path.join(path, "filler")
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        while os.write(descriptor, b"\0" * 4096) > 0:
            pass
    except OSError:
        pass
    finally:
        os.close(descriptor)
    if leave:
        os.truncate(filler, max(0, os.path.getsize(filler) - leave))


def text_scenario(name, texts, description="text storms"):
    label = {"text": "text", "font": {"family": "DejaVu Sans", "size": 17}}
    template = {"views": {"body": {"label": label}},
                "constraints": ["body.leading == contentView.leading + 16", "body.trailing == contentView.trailing - 16",
                                "body.top == contentView.top + 11", "contentView.bottom == body.bottom + 11 @999"]}
    return {"name": name, "description": description, "viewport": {"width": 390, "height": 844},
            "layout": {"kind": "list", "lineSpacing": 0, "insets": {"top": 0, "left": 0, "bottom": 0, "right": 0}},
            "data": {"templates": {"row": template}, "sections": [[{"template": "row", "text": t} for t in texts]]},
            "workload": {"kind": "cell-measure", "verifyMeasurements": len(texts)},
            "modes": ["edit-width"]}


def streams_class(h, fx, rng):
    cls = "streams"
    ran = 0
    scratch = h.case_dir("streams")
    full = None
    if h.can_mknod:
        full = os.path.join(scratch, "full")
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))

    # -- stderr (and stdout) failing, for every command --
    out_dir = os.path.join(scratch, "out")
    commands = {
        "run": ["run", fx.tiny, "--quick", "--repetitions", "1", "--items", "1000", "--out", out_dir],
        "run (bad scenario)": ["run", os.path.join(scratch, "nonexistent.json"), "--out", out_dir],
        "dump": ["dump", fx.tiny, "--mode", "binary", "--items", "1000"],
        "dump (bad scenario)": ["dump", "/nonexistent.json", "--mode", "x"],
        "render": ["render", fx.tiny, "--mode", "binary", "--items", "1000", "--out", os.path.join(scratch, "r.svg")],
        "list": ["list"],
        "list --json": ["list", "--json"],
        "compare": ["compare", fx.base, fx.head, "--all"],
        "export": ["export", fx.base, "--format", "bmf"],
        "compare-commits (bad option)": ["compare-commits", "--no-such-option"],
        "history (bad option)": ["history", "--no-such-option"],
        "usage error": ["run", "--items", "0"],
    }
    stdout_commands = {"dump", "list", "list --json", "compare", "export"}
    targets = (["full"] if full else []) + ["closed", "pipe"]
    for name, arguments in commands.items():
        case = f"stderr/{name}"
        if not any(h.wanted(f"{case} {t}") for t in targets) and not any(h.wanted(f"stdout/{name} {t}") for t in targets):
            continue
        reference = fh.Call(h, arguments, cwd=fx.dir).run()
        if os.path.isdir(out_dir):
            shutil.rmtree(out_dir)
        for stream in ("stderr", "stdout"):
            if stream == "stdout" and name not in stdout_commands:
                continue
            for spec in targets:
                label = f"{stream}/{name} {spec}"
                if not h.wanted(label):
                    continue
                ran += 1
                device = ("device", full) if spec == "full" else spec
                call = fh.Call(h, arguments, cwd=fx.dir, **{stream: device})
                outcome = call.run()
                setup = f"{stream} {'/dev/full (mknod c 1 7)' if spec == 'full' else spec}" + (
                    " (a pipe whose reader has closed)" if spec == "pipe" else "")
                if stream == "stderr":
                    allowed = [reference.status]
                    h.check_outcome(cls, label, call, outcome, allowed, setup=setup, status_tag="stream-status",
                                    expected=f"exit {reference.status} (the command's outcome with a working stderr), never a signal")
                else:
                    if outcome.timed_out or outcome.status is None or outcome.status < 0:
                        h.check_outcome(cls, label, call, outcome, [1], setup=setup)
                    elif outcome.status == 0 or not outcome.stderr.strip():
                        h.fail(cls, label, "stdout-lost", call, "a non-zero exit and a message on stderr", outcome.summary(), setup)
                if name == "run" and outcome.status == 0:
                    problem = fh.read_run(out_dir, False)
                    if problem:
                        h.fail(cls, label, "stream-status", call, "a whole results directory", problem, setup)
                h.check_clean(cls, label, call, [scratch, fx.dir], setup=setup)
                if os.path.isdir(out_dir):
                    shutil.rmtree(out_dir)

    # -- a full TMPDIR --
    tmpfs = os.path.join(scratch, "tmpfs")
    why = mount_tmpfs(tmpfs, "1m")
    if why:
        print(f"fuzz-cli: streams: skipping the full-TMPDIR cases: cannot mount a tmpfs ({why})", flush=True)
    else:
        try:
            for leave in (0, 4 << 10, 12 << 10):
                case = f"tmpdir/full 1 MiB tmpfs, {leave // 1024} KiB free"
                if not h.wanted(case):
                    continue
                ran += 1
                for entry in os.listdir(tmpfs):
                    fh.remove(os.path.join(tmpfs, entry))
                fill(tmpfs, leave)
                out = os.path.join(scratch, "tmpdir-out")
                call = fh.Call(h, ["run", fx.tiny, "--quick", "--repetitions", "1", "--items", "1000", "--out", out],
                                  cwd=fx.dir, tmpdir=tmpfs)
                outcome = call.run()
                setup = f"mount -t tmpfs -o size=1m tmpfs {tmpfs}; filled with {tmpfs}/filler, {leave} bytes left"
                expectation = "exit 1 with one line naming TMPDIR and 'No space left on device', no results written"
                if not h.check_outcome(cls, case, call, outcome, [0, 1], names=["TMPDIR"], setup=setup, status_tag="tmpdir-full",
                                       expected=expectation):
                    pass
                elif outcome.status == 1:
                    if "No space left on device" not in outcome.stderr or "died" in outcome.stderr or os.path.exists(out):
                        h.fail(cls, case, "tmpdir-full", call, expectation, outcome.summary(), setup)
                elif fh.read_run(out, False):
                    h.fail(cls, case, "tmpdir-full", call, "exit 0 only with a whole results directory", fh.read_run(out, False), setup)
                left = [e for e in os.listdir(tmpfs) if e != "filler"]
                if left:
                    h.fail(cls, case, "leftover-tmpdir", call, f"nothing left in {tmpfs} but the filler", f"left: {left}", setup)
                h.check_clean(cls, case, call, [scratch], tmpdir=False, setup=setup)
                if os.path.isdir(out):
                    shutil.rmtree(out)
        finally:
            unmount(tmpfs)

    # -- run --out a mount point, or / --
    volume = os.path.join(scratch, "volume")
    why = mount_tmpfs(volume, "16m")
    cases = [("/", None)] + ([] if why else [(volume, "mount -t tmpfs -o size=16m tmpfs " + volume)])
    if why:
        print(f"fuzz-cli: streams: skipping run --out a mount point: cannot mount a tmpfs ({why})", flush=True)
    try:
        if not why:
            open(os.path.join(volume, "keep"), "w").write("keep\n")
        for target, setup in cases:
            case = f"out-volume/run --out {target}"
            if not h.wanted(case):
                continue
            ran += 1
            before = fh.snapshot_tree(volume) if target == volume else None
            call = fh.Call(h, ["run", fx.tiny, "--quick", "--repetitions", "1", "--items", "1000", "--out", target], cwd=fx.dir)
            outcome = call.run()
            expectation = "refused with exit 1 naming --out before anything is measured (no 'repetition' progress line)"
            if h.check_outcome(cls, case, call, outcome, [1], names=["--out"], setup=setup, status_tag="out-volume", expected=expectation):
                if "repetition 1" in outcome.stderr:
                    h.fail(cls, case, "out-volume", call, expectation, outcome.summary(), setup)
            if before is not None and fh.snapshot_tree(volume) != before:
                h.fail(cls, case, "out-volume", call, f"{volume} unchanged", f"now {sorted(fh.snapshot_tree(volume))}", setup)
            h.check_clean(cls, case, call, [scratch, volume if target == volume else "/"], setup=setup)
    finally:
        if not why:
            unmount(volume)

    # -- control characters in names and descriptions --
    case = "names/control characters in every human-readable output"
    if h.wanted(case):
        ran += 1
        folder = os.path.join(scratch, "ctl-scenarios")
        os.makedirs(folder)
        tiny = json.loads(fx.tiny_text)
        name = "ctl\u0007\u001b[31m\u202e\u0085x"
        tiny.update(name=name, description="a description \u001b]0;title\u0007 with \u2066 and \u009b controls")
        scenario = os.path.join(folder, "ctl.json")
        json.dump(tiny, open(scenario, "w", encoding="utf-8"), ensure_ascii=False)
        env = {"LAYOUT_BENCH_SCENARIOS": folder}
        outputs = []
        listed = fh.Call(h, ["list"], cwd=fx.dir, env=env).run()
        if listed.status == 1 and len(listed.error_lines()) == 1:
            # Such a name may be refused at load; then the refusal itself must be escaped.
            outputs.append(("list's error", listed, listed.stderr))
        else:
            for arguments in (["list"], ["list", "--verbose"]):
                outcome = fh.Call(h, arguments, cwd=fx.dir, env=env).run()
                outputs.append((" ".join(arguments), outcome, outcome.stdout.decode("utf-8", "replace") + outcome.stderr))
            out = os.path.join(scratch, "ctl-run")
            run = fh.Call(h, ["run", scenario, "--quick", "--repetitions", "1", "--items", "1000", "--out", out], cwd=fx.dir)
            outcome = run.run(timeout=60)
            outputs.append(("run's stderr", outcome, outcome.stderr))
            if outcome.status == 0:
                compared = fh.Call(h, ["compare", out, out, "--all"], cwd=fx.dir).run()
                outputs.append(("the compare table", compared, compared.stdout.decode("utf-8", "replace") + compared.stderr))
            svg = os.path.join(scratch, "ctl.svg")
            rendered = fh.Call(h, ["render", scenario, "--mode", "binary", "--items", "1000", "--out", svg], cwd=fx.dir).run()
            outputs.append(("render", rendered, rendered.stderr + (open(svg, encoding="utf-8").read() if os.path.exists(svg) else "")))
            if rendered.status == 0:
                try:
                    ElementTree.parse(svg)
                except ElementTree.ParseError as error:
                    h.fail(cls, case, "control-output", "render " + scenario, "well-formed XML", f"{error}", f"name {name!r}")
        for what, outcome, text in outputs:
            h.check_outcome(cls, f"{case}: {what}", outcome_call(h, what), outcome, [0, 1, 2, 3, 4])
            found = sorted({f"U+{ord(c):04X}" for c in ACTING.findall(text)})
            if found:
                h.fail(cls, case, "control-output", what, "every control and bidi character escaped",
                       f"raw {', '.join(found)} in {what}", f"scenario name {name!r}")

    # -- text whose cost grows faster than its length --
    storms = {
        "marks at the limit": ("a" + "\u0301" * 32) * 1000,
        "ZWJ": "\U0001F468" + "\u200d\U0001F469" * 9000,
        "variation selectors": ("\u2764" + "\ufe0f" * 16) * 1250,
        "line feeds": "\n" * 65535 + "a",
        "Arabic": ("\u0633\u0644\u0627\u0645 " * 6500)[:32000],
    }
    for name, text in storms.items():
        assert len(text.encode()) <= 65536, name
        case = f"storm/{name}"
        if not h.wanted(case):
            continue
        ran += 1
        path = os.path.join(scratch, re.sub(r"\W+", "-", name) + ".json")
        json.dump(text_scenario("storm", [text]), open(path, "w", encoding="utf-8"), ensure_ascii=False)
        call = fh.Call(h, ["run", path, "--quick", "--repetitions", "1", "--in-process", "--out", os.path.join(scratch, "storm-out")],
                          cwd=fx.dir)
        outcome = call.run(timeout=STORM_TIMEOUT)
        h.check_outcome(cls, case, call, outcome, [0], setup=f"one label of {len(text.encode())} UTF-8 bytes ({name})",
                        status_tag="text-cost", expected=f"measured within {STORM_TIMEOUT:.0f} s (exit 0)")
        shutil.rmtree(os.path.join(scratch, "storm-out"), ignore_errors=True)
    case = "storm/32,000 marks past the limit"
    if h.wanted(case):
        ran += 1
        path = os.path.join(scratch, "marks.json")
        json.dump(text_scenario("storm", ["a" + "\u0301" * 32000]), open(path, "w", encoding="utf-8"), ensure_ascii=False)
        call = fh.Call(h, ["run", path, "--quick", "--repetitions", "1", "--in-process", "--out", os.path.join(scratch, "marks-out")],
                          cwd=fx.dir)
        outcome = call.run(timeout=STORM_TIMEOUT)
        h.check_outcome(cls, case, call, outcome, [1], names=["data.sections[0][0].text"], status_tag="text-cost",
                        expected="refused at load, exit 1 naming the field")
    return ran


def outcome_call(h, what):
    """A printable stand-in for the call behind an output (its command is in the failure text)."""
    return what
