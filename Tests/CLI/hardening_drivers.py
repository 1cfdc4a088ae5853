"""The drivers' class of the CLI fuzz test (issue 48): `compare-commits` and `history` given names
used as paths, special files and existing directories as their outputs, and stored results read
back. Bounded (seconds): no commit is built and nothing is measured; the drivers are given fake
binaries and build commands (scripts that print a path or fail) and stores made from the fixtures.

- merge-out: `compare-commits --merge SHARES --out X` with X a directory of the user's files, a
  share given, a directory holding the shares, another share, a regular file, a FIFO, a device, a
  symlink to the user's directory, a dangling symlink (each refused, left as it was), and an
  earlier merged comparison or a symlink to one (replaced; the link stays a link).
- machine: `history --machine` '../../escape', '', '.', '..', 'a/b', a control character (refused;
  nothing written anywhere).
- stored: a stored commit of history tampered (a value −7, truncated gzip, 0 bytes, a row twice, a
  column missing, schema 9) or a gzip bomb of 1 GiB of newlines: exit 1 naming the file, within
  bounded memory; CRLF line ends read as compare reads them (exit 0).
- store-files: a FIFO steps.csv, a symlinked commits.txt or a directory neighbours.txt in the store:
  refused, never replaced or waited on.
- messages: `--build-command /bin/false`, a build command that prints a non-binary, `--base-binary`
  missing, a bad revision (one `error:` line, git's `fatal:` never before it), `--instructions`
  without valgrind (`compare-commits` and `run`), `list` of a suite with two files of one scenario
  name; a failed build leaves nothing in TMPDIR.
"""
import gzip, json, os, shutil, subprocess

import fuzz_hardening as fh

CLASS = "drivers"
BOMB_GIB = 1


def driver_error_lines(outcome):
    """The drivers' error lines (`error: …`, or the harness's `layout-bench: error: …`)."""
    return [line for line in outcome.stderr.splitlines() if line.startswith("error:") or line.startswith(fh.ERROR)]


def check_refusal(h, case, call, outcome, names, setup=None):
    """Exit 1 with exactly one error line naming one of `names`, and no other outcome."""
    if not h.check_outcome(CLASS, case, call, outcome, [1], setup=setup):
        return False
    lines = driver_error_lines(outcome)
    if len(lines) != 1 or not any(name in lines[0] for name in names):
        h.fail(CLASS, case, "error-line", call, f"exactly one error line naming {' or '.join(map(repr, names))}",
               outcome.summary(), setup)
        return False
    return True


def git(root, *arguments):
    subprocess.run(["git", "-C", root, "-c", "user.name=fuzz", "-c", "user.email=fuzz@example.com"] + list(arguments),
                   check=True, capture_output=True)


def repository(h, name):
    """A scratch git repository with one commit; returns its root and the commit's hash."""
    root = h.case_dir(name)
    git(root, "init", "-q")
    git(root, "commit", "-q", "--allow-empty", "-m", "fuzz")
    sha = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    return root, sha


def script(path, text):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + text + "\n")
    os.chmod(path, 0o755)
    return path


def tree(path):
    """What is at `path`, for a before/after check: `fuzz_hardening.node`, and for a directory
    every entry below it (`snapshot_tree`)."""
    state = fh.node(path)
    return ("dir", fh.snapshot_tree(path)) if state[0] == "dir" else state


def rename_scenario(samples_gz, old, new):
    """The gzip of a samples file with scenario `old` renamed `new` (rows disjoint from the original)."""
    lines = gzip.decompress(open(samples_gz, "rb").read()).decode().splitlines(keepends=True)
    out = [lines[0]]
    for line in lines[1:]:
        fields = line.split(",")
        if fields[3] == old:
            fields[3] = new
        out.append(",".join(fields))
    return gzip.compress("".join(out).encode())


def make_shares(h, fx, directory):
    """Two shares of one comparison, from the fixtures' runs (share 2's scenario renamed)."""
    shares = []
    for index in (1, 2):
        share = os.path.join(directory, f"share-{index}")
        for side, source in (("base", fx.base), ("head", fx.head)):
            os.makedirs(os.path.join(share, side))
            shutil.copy(os.path.join(source, "run.json"), os.path.join(share, side, "run.json"))
            target = os.path.join(share, side, "samples.csv.gz")
            if index == 1:
                shutil.copy(os.path.join(source, "samples.csv.gz"), target)
            else:
                open(target, "wb").write(rename_scenario(os.path.join(source, "samples.csv.gz"), "tiny", "tiny-two"))
        json.dump({"schema": 1, "base": "a" * 40, "head": "b" * 40, "shard": index, "shards": 2, "options": ["--quick"],
                   "scenarios": [], "compare_args": ["--metric", "time"], "share": [], "measured": "1 round"},
                  open(os.path.join(share, "shard.json"), "w"))
        shares.append(share)
    return shares


def merge_out_cases(h, fx):
    ran = 0
    directory = h.case_dir("drivers-merge")
    shares = make_shares(h, fx, directory)

    def user_dir(path):
        os.makedirs(path)
        open(os.path.join(path, "notes.txt"), "w").write("mine\n")
        return f"mkdir {path} with notes.txt"

    def another_share(path):
        shutil.copytree(shares[1], path)
        return f"cp -r {shares[1]} {path}"

    def regular(path):
        open(path, "w").write("keep\n")
        return f"echo keep >{path}"

    def link_to_user(path):
        user_dir(path + ".target")
        os.symlink(path + ".target", path)
        return f"ln -s {path}.target {path} (a directory with notes.txt)"

    refusals = [
        ("a directory of the user's files", user_dir, "notes.txt"),
        ("another share", another_share, "shard.json"),
        ("a regular file", regular, "not a directory"),
        ("a FIFO", lambda p: fh.make_special(p, "fifo"), "not a directory"),
        ("a symlink to the user's directory", link_to_user, "notes.txt"),
        ("a dangling symlink", lambda p: fh.make_special(p, "dangling"), "symbolic link"),
    ]
    if h.can_mknod:
        refusals.append(("a device (null)", lambda p: fh.make_special(p, "null"), "not a directory"))
    for number, (what, make, words) in enumerate(refusals):
        case = f"merge --out {what}"
        if not h.wanted(case):
            continue
        ran += 1
        out = os.path.join(directory, f"out-{number}")
        setup = make(out)
        before = tree(out), tree(out + ".target")
        call = fh.Call(h, ["compare-commits", "--merge", "--no-plot", "--out", out] + shares, cwd=directory)
        outcome = call.run()
        check_refusal(h, case, call, outcome, ["--out"], setup=setup)
        if outcome.stderr and words not in outcome.stderr:
            h.fail(CLASS, case, "error-line", call, f"the refusal says {words!r}", outcome.summary(), setup)
        if (tree(out), tree(out + ".target")) != before:
            h.fail(CLASS, case, "driver-out-replaced", call, f"{out} left as it was", f"now {tree(out)[0]}", setup)
        h.check_clean(CLASS, case, call, [directory], setup=setup)
    for what, out in (("the share itself", shares[0]), ("the directory holding the shares", directory)):
        case = f"merge --out {what}"
        if not h.wanted(case):
            continue
        ran += 1
        before = [tree(share) for share in shares]
        call = fh.Call(h, ["compare-commits", "--merge", "--no-plot", "--out", out] + shares, cwd=directory)
        outcome = call.run()
        check_refusal(h, case, call, outcome, ["--out"])
        if [tree(share) for share in shares] != before:
            h.fail(CLASS, case, "driver-out-replaced", call, "the shares left as they were", "a share changed")
    case = "merge --out an earlier merged comparison, and a symlink to it"
    if h.wanted(case):
        ran += 1
        merged, link = os.path.join(directory, "merged"), os.path.join(directory, "latest")
        for out in (merged, merged, link):
            if out == link and not os.path.lexists(link):
                os.symlink(merged, link)
            call = fh.Call(h, ["compare-commits", "--merge", "--no-plot", "--out", out] + shares, cwd=directory)
            outcome = call.run()
            if h.check_outcome(CLASS, case, call, outcome, [0, 2, 3, 4]) and not os.path.isfile(os.path.join(merged, "compare.txt")):
                h.fail(CLASS, case, "driver-out-replaced", call, f"{merged}/compare.txt written", outcome.summary())
        if not os.path.islink(link):
            h.fail(CLASS, case, "driver-out-replaced", call, f"{link} still a symbolic link", tree(link)[0])
        h.check_clean(CLASS, case, call, [directory])
    return ran


def machine_cases(h, fx):
    ran = 0
    for name in ["../../escape", "", ".", "..", "a/b", "bell\x07", "x" * 65]:
        case = f"history --machine {name!r}"
        if not h.wanted(case):
            continue
        ran += 1
        root, _ = repository(h, "drivers-machine")
        build = script(os.path.join(root, "build"), "exit 1")
        call = fh.Call(h, ["history", "--machine", name, "--no-plot", "--build-command", build, "HEAD"], cwd=root)
        outcome = call.run()
        check_refusal(h, case, call, outcome, ["--machine"])
        if "\x07" in outcome.stderr:
            h.fail(CLASS, case, "error-line", call, "the name echoed without its control character", outcome.summary())
        written = [p for p in (os.path.join(root, "results"), os.path.join(os.path.dirname(root), "escape")) if os.path.lexists(p)]
        if written:
            h.fail(CLASS, case, "machine-path", call, "nothing written", f"written: {written}")
    return ran


def stored_history(h, fx, name):
    """A repository whose one commit is stored in results/history/test (the fixture's base run)."""
    root, sha = repository(h, name)
    store = os.path.join(root, "results", "history", "test")
    shutil.copytree(fx.base, os.path.join(store, sha))
    build = script(os.path.join(root, "build"), "exit 1")
    return root, sha, store, ["history", "--machine", "test", "--no-plot", "--build-command", build, "HEAD"]


def stored_cases(h, fx):
    ran = 0
    lines = gzip.decompress(open(os.path.join(fx.base, "samples.csv.gz"), "rb").read()).decode().splitlines()
    compressed = open(os.path.join(fx.base, "samples.csv.gz"), "rb").read()
    value_rows = [i for i, line in enumerate(lines) if line.split(",")[10] == "time"]

    def negative():
        fields = lines[value_rows[0]].split(",")
        fields[12] = "-7"
        changed = list(lines)
        changed[value_rows[0]] = ",".join(fields)
        return gzip.compress(("\n".join(changed) + "\n").encode())

    tampered = [
        ("a value of -7", negative),
        ("truncated gzip", lambda: compressed[:len(compressed) // 2]),
        ("a 0-byte file", lambda: b""),
        ("a row twice", lambda: gzip.compress(("\n".join(lines + [lines[value_rows[0]]]) + "\n").encode())),
        ("a column missing", lambda: gzip.compress(("\n".join(",".join(l.split(",")[:-1]) for l in lines) + "\n").encode())),
        ("schema 9", lambda: gzip.compress(("\n".join([lines[0]] + ["9" + l[l.index(","):] for l in lines[1:]]) + "\n").encode())),
    ]
    for what, content in tampered:
        case = f"history stored samples: {what}"
        if not h.wanted(case):
            continue
        ran += 1
        root, sha, store, arguments = stored_history(h, fx, "drivers-stored")
        samples = os.path.join(store, sha, "samples.csv.gz")
        open(samples, "wb").write(content())
        call = fh.Call(h, arguments, cwd=root)
        outcome = call.run()
        check_refusal(h, case, call, outcome, ["samples.csv.gz"], setup=f"{samples}: {what}")
    case = "history stored samples: CRLF line ends (CSV as compare reads it)"
    if h.wanted(case):
        ran += 1
        root, sha, store, arguments = stored_history(h, fx, "drivers-crlf")
        open(os.path.join(store, sha, "samples.csv.gz"), "wb").write(gzip.compress(("\r\n".join(lines) + "\r\n").encode()))
        call = fh.Call(h, arguments, cwd=root)
        h.check_outcome(CLASS, case, call, call.run(), [0])
    case = f"history stored samples: {BOMB_GIB} GiB of newlines"
    if h.wanted(case):
        ran += 1
        root, sha, store, arguments = stored_history(h, fx, "drivers-bomb")
        samples = os.path.join(store, sha, "samples.csv.gz")
        fh.write_bomb(samples, ("\n".join(lines) + "\n").encode(), expanded_gib=BOMB_GIB)
        setup = f"{samples}: valid rows, then {BOMB_GIB} GiB of newlines"
        call = fh.Call(h, arguments, cwd=root)
        outcome = call.run(timeout=fh.BOMB_TIMEOUT, memory_limit_kb=fh.BOMB_MEMORY_KB)
        check_refusal(h, case, call, outcome, ["samples.csv.gz"], setup=setup)
        if outcome.status is not None and outcome.max_rss_kb > fh.BOMB_MEMORY_KB:
            h.fail(CLASS, case, "memory", call, f"under {fh.BOMB_MEMORY_KB >> 20} GiB resident", outcome.summary(), setup)
        os.unlink(samples)
    return ran


def store_file_cases(h, fx):
    ran = 0
    for name, kind in (("steps.csv", "fifo"), ("commits.txt", "dangling"), ("commits.txt", "link-file"), ("neighbours.txt", "dir")):
        case = f"history store {name} is {kind}"
        if not h.wanted(case):
            continue
        ran += 1
        root, _, store, arguments = stored_history(h, fx, "drivers-store")
        path = os.path.join(store, name)
        setup = fh.make_special(path, kind, b"kept\n")
        before = tree(path)
        call = fh.Call(h, arguments, cwd=root)
        outcome = call.run()
        check_refusal(h, case, call, outcome, [name], setup=setup)
        if tree(path) != before:
            h.fail(CLASS, case, "store-replaced", call, f"{path} left as it was", f"now {tree(path)[0]}", setup)
    return ran


def message_cases(h, fx):
    ran = 0
    root, _ = repository(h, "drivers-messages")
    head = script(os.path.join(root, "head"), f'echo "$*" >>{root}/head-calls; exit 1')
    printer = script(os.path.join(root, "printer"), f"echo {root}/head-calls")
    litter = script(os.path.join(root, "litter"), 'mkdir "$TMPDIR/TemporaryDirectory.fuzz"; touch "$TMPDIR/fuzz.lock"; exit 1')
    no_valgrind = os.path.join(root, "bin")
    os.makedirs(no_valgrind)
    for tool in ("git", "sha256sum", "sh"):
        found = shutil.which(tool)
        if found:
            os.symlink(found, os.path.join(no_valgrind, tool))
    cases = [
        ("--build-command /bin/false", ["compare-commits", "--build-command", "/bin/false", "HEAD", "HEAD"], {}, ["could not be built"]),
        ("a build command that prints a non-binary", ["compare-commits", "--build-command", printer, "HEAD", "HEAD"], {}, ["printed"]),
        ("a failed build's temporary files", ["compare-commits", "--build-command", litter, "HEAD", "HEAD"], {}, ["could not be built"]),
        ("--base-binary missing", ["compare-commits", "--base-binary", os.path.join(root, "nonexistent"), "--head-binary", head,
                                   "HEAD", "HEAD"], {}, ["--base-binary"]),
        ("a bad revision", ["compare-commits", "--base-binary", head, "--head-binary", head, "nosuch", "HEAD"], {}, ["nosuch"]),
        ("a bad range", ["history", "--machine", "m", "--build-command", "/bin/false", "nosuch..HEAD"], {}, ["nosuch"]),
        ("compare-commits --instructions without valgrind", ["compare-commits", "--instructions", "--base-binary", head,
                                                              "--head-binary", head, "HEAD", "HEAD"], {"PATH": no_valgrind}, ["valgrind"]),
        ("run --instructions without valgrind", ["run", fx.tiny, "--quick", "--instructions", "--out", os.path.join(root, "run")],
         {"PATH": no_valgrind}, ["valgrind"]),
    ]
    for what, arguments, env, names in cases:
        case = f"message: {what}"
        if not h.wanted(case):
            continue
        ran += 1
        call = fh.Call(h, arguments, cwd=root, env=env)
        outcome = call.run()
        check_refusal(h, case, call, outcome, names)
        first = outcome.stderr.splitlines()[:1]
        if any(line.startswith("fatal:") for line in outcome.stderr.splitlines()) or "NSCocoaErrorDomain" in outcome.stderr:
            h.fail(CLASS, case, "error-line", call, "no git 'fatal:' line of its own, no Foundation error code", outcome.summary())
        if os.path.exists(os.path.join(root, "head-calls")) or os.path.exists(os.path.join(root, "results")) \
                or os.path.exists(os.path.join(root, "run")):
            h.fail(CLASS, case, "driver-message", call, "nothing run or written before the error", f"first line {first}")
            for left in ("head-calls", "results", "run"):
                if os.path.lexists(os.path.join(root, left)):
                    fh.remove(os.path.join(root, left))
        h.check_clean(CLASS, case, call, [root])
    case = "list of a suite with two files of one scenario name"
    if h.wanted(case):
        ran += 1
        suite = h.case_dir("drivers-suite")
        shutil.copy(fx.tiny, os.path.join(suite, "a.json"))
        shutil.copy(fx.tiny, os.path.join(suite, "b.json"))
        for arguments in (["list"], ["list", "--json"]):
            call = fh.Call(h, arguments, cwd=suite, env={"LAYOUT_BENCH_SCENARIOS": suite})
            outcome = call.run()
            h.check_outcome(CLASS, case, call, outcome, [1], names=["b.json"])
    return ran


def drivers_class(h, fx, rng):
    """Runs the drivers' cases; returns how many ran."""
    return (merge_out_cases(h, fx) + machine_cases(h, fx) + stored_cases(h, fx) + store_file_cases(h, fx)
            + message_cases(h, fx))
