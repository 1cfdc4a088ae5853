"""The hardening classes of the CLI fuzz test (issue 34), run by fuzz_cli.py after its mutated
scenarios. Each class is bounded and seeded; docs/robustness.md states the promises it holds.

- special: a FIFO, character devices (null, full, zero: mknod'ed in a scratch directory, never the
  real /dev), symlinks (to a file, to a directory, dangling) and a directory as every input (the
  scenario file, `data.file`, a `*.json` in the scenarios directory, samples.csv.gz, run.json,
  profiles.csv.gz, summary.csv) and as `--out` of run, dump, render, compare and export; `--out`
  naming one of the command's own inputs.
- numbers: values at and beyond every conversion (Int32, Int64, UInt64, Double) in the options, in
  scenario files and data files, and in results files (run.json, samples.csv.gz, summary.csv).
- bomb: gzip that expands past any cap (a valid samples.csv followed by 10 GiB of newlines).
- stdout: dump, export, compare and list with stdout a full device or closed.
- signals: SIGINT, SIGTERM and SIGKILL at seeded moments of run (with and without --instructions),
  dump, export, render and compare --out, the final writes included.

A failure prints the exact command (with its environment and working directory), what was
expected and what happened, under a defect tag; the summary groups the failures by tag.
"""
import csv, gzip, json, math, os, random, re, shlex, shutil, signal, stat, subprocess, tempfile, threading, time, zlib

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(REPO, "Scenarios")
CLASSES = ["special", "numbers", "bomb", "stdout", "signals", "drivers", "streams"]
TIMEOUT = 20.0            # seconds; a call still running then is a hang
TARGET_SECONDS = 0.5      # the longest command interrupted at random moments
BOMB_TIMEOUT = 60.0
BOMB_MEMORY_KB = 1 << 20  # 1 GiB
MEMORY_GUARD_KB = 3 << 20 # any call past 3 GiB is stopped (the machine is shared)
ERROR = "layout-bench: error:"
DEVICES = {"null": (1, 3), "full": (1, 7), "zero": (1, 5)}
RUN_FILES = ["samples.csv.gz", "summary.csv", "run.json", "failures.csv"]

DEFECTS = {  # tag: what it means (and the item of issue 34 it belongs to)
    "hang": "did not finish within the timeout (issue 34 #3)",
    "signal": "died by a signal (SIGILL/SIGTRAP: a Swift trap; issue 34 #2)",
    "memory": "memory past the bound (issue 34 #4)",
    "out-replaced": "an output device, FIFO or symlink replaced or changed in kind (issue 34 #1)",
    "own-input": "--out naming one of the command's own inputs not refused, or the input changed (issue 34 #1)",
    "out-full": "a full device as --out not reported as 'No space left on device' with exit 1 (issue 34 #1)",
    "out-symlink-dir": "run --out a symlink to a directory not followed (issue 34 #9)",
    "value-judged": "an impossible value accepted (issue 34 #5)",
    "stdout-lost": "output lost on a failing stdout without a non-zero exit and a message (issue 34 #7)",
    "leftover-partial": "a .X.partial-* or .F.tmp-* left beside the output (issue 34 #2, #8)",
    "leftover-tmpdir": "files left in $TMPDIR (issue 34 #8)",
    "interrupted-output": "after a signal the output is neither absent, the old one nor the new one (issue 34 #8)",
    "rerun": "a complete run into the previous run's results directory failed (not in issue 34)",
    "exit-status": "an exit status other than the ones allowed (issue 34 #10)",
    "usage-message": "a usage error that says 'Missing value' though a value was given (issue 34 #10)",
    "error-line": "exit 1 without exactly one error line naming the file, field or option (issue 34 #10)",
    "driver-out-replaced": "compare-commits --merge --out replaced or changed what it must refuse (issue 48 #1)",
    "machine-path": "history --machine written as a path (issue 48 #2)",
    "store-replaced": "history replaced a special file of its store (issue 48 #19)",
    "driver-message": "a driver ran or wrote something before an error it could have found first (issue 48 #10, #16)",
    "stream-status": "a failing stderr changed the exit status, trapped or left staging files (issue 48 #5)",
    "tmpdir-full": "a full TMPDIR not reported as the disk (naming TMPDIR), or results written (issue 48 #6)",
    "out-volume": "run --out a mount point or / not refused before measuring, or changed (issue 48 #12)",
    "control-output": "a control or bidi character reached a human-readable output raw, or the SVG is not XML (issue 48 #18)",
    "text-cost": "a text within the limits not measured in a bounded time, or one past them not refused (issue 48 #3)",
}



def with_field(rows, index, column, value):
    """`rows` (CSV lines without quoting) with field `column` of row `index` set to `value`."""
    fields = rows[index].split(",")
    fields[column] = value
    changed = list(rows)
    changed[index] = ",".join(fields)
    return changed

def waitstatus(status):
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def descendants(pid):
    """Process ids below `pid` (from /proc), deepest last."""
    found, queue = [], [pid]
    while queue:
        parent = queue.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = open(f"/proc/{parent}/task/{task}/children").read().split()
            except OSError:
                continue
            for child in map(int, children):
                found.append(child)
                queue.append(child)
    return found


def rss_kb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def become_subreaper():
    """Orphans of a SIGKILLed run (its measuring children, valgrind) become this process's
    children, so that they can be ended and reaped by their ids."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except Exception:
        pass


class Outcome:
    def __init__(self, status, stdout, stderr, seconds, max_rss_kb, timed_out=False, over_memory=False, signalled=False):
        self.status, self.stdout, self.stderr = status, stdout, stderr
        self.seconds, self.max_rss_kb = seconds, max_rss_kb
        self.timed_out, self.over_memory, self.signalled = timed_out, over_memory, signalled

    def error_lines(self):
        return [line for line in self.stderr.splitlines() if line.startswith(ERROR)]

    def summary(self):
        if self.timed_out:
            what = f"still running after {self.seconds:.0f} s (killed)"
        elif self.over_memory:
            what = f"stopped at {self.max_rss_kb // 1024} MiB resident after {self.seconds:.1f} s"
        elif self.status is not None and self.status < 0:
            what = f"killed by {signal.Signals(-self.status).name}"
        else:
            what = f"exit {self.status}"
        stderr = self.stderr.strip()
        if len(stderr) > 700:
            stderr = stderr[:350] + " … " + stderr[-350:]
        return f"{what} in {self.seconds:.2f} s, max RSS {self.max_rss_kb // 1024} MiB; stderr: {stderr!r}"


class Call:
    """One invocation of the binary: its arguments, environment and working directory, printable
    as the exact shell command that repeats it. `stdout` and `stderr` are each None (captured),
    ("device", path), "closed" or "pipe" (a pipe whose reader is gone: a write gets EPIPE, or
    SIGPIPE)."""

    def __init__(self, harness, args, cwd=None, tmpdir=None, env=None, stdout=None, stderr=None):
        self.harness, self.args, self.cwd = harness, [str(a) for a in args], cwd or harness.root
        self.tmpdir = tmpdir or harness.fresh_tmpdir()
        self.env = env or {}
        self.stdout, self.stderr = stdout, stderr

    def shell(self):
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in [("TMPDIR", self.tmpdir)] + sorted(self.env.items()))
        redirect = ""
        for number, spec in ((1, self.stdout), (2, self.stderr)):
            if spec == "closed":
                redirect += f" {number}>&-"
            elif spec == "pipe":
                redirect += " 2>&1 | head -c0" if number == 2 else " | head -c0"
            elif isinstance(spec, tuple):
                redirect += f" {number}>{shlex.quote(spec[1])}"
        return f"cd {shlex.quote(self.cwd)} && {env} {shlex.join([self.harness.binary] + self.args)}{redirect}"

    def run(self, timeout=TIMEOUT, memory_limit_kb=MEMORY_GUARD_KB, signal_at=None, on_start=None):
        return self.harness.execute(self, timeout, memory_limit_kb, signal_at, on_start)


class Harness:
    def __init__(self, binary, seed, only_case=None, keep=False):
        self.binary = os.path.abspath(binary)
        self.seed = seed
        self.only_case = only_case
        self.keep = keep
        self.root = tempfile.mkdtemp(prefix="layout-bench-harden-")
        self.logs = os.path.join(self.root, ".logs")
        os.makedirs(self.logs)
        self.counter = 0
        self.failures = []   # (class, case, tag, text)
        self.cases = 0
        self.can_mknod = self._can_mknod()
        self.environment = {k: v for k, v in os.environ.items() if k not in ("LAYOUT_BENCH_SCENARIOS", "TMPDIR")}

    def _can_mknod(self):
        probe = os.path.join(self.root, "probe-null")
        try:
            os.mknod(probe, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            os.unlink(probe)
            return True
        except OSError:
            return False

    def fresh_tmpdir(self):
        self.counter += 1
        path = os.path.join(self.root, ".tmp", str(self.counter))
        os.makedirs(path)
        return path

    def case_dir(self, name):
        self.counter += 1
        path = os.path.join(self.root, re.sub(r"[^A-Za-z0-9_.-]+", "_", name) + f"-{self.counter}")
        os.makedirs(path)
        return path

    def wanted(self, case):
        return self.only_case is None or self.only_case in case

    def execute(self, call, timeout, memory_limit_kb, signal_at, on_start):
        self.counter += 1
        out_path = os.path.join(self.logs, f"{self.counter}.out")
        err_path = os.path.join(self.logs, f"{self.counter}.err")
        env = dict(self.environment, TMPDIR=call.tmpdir, **call.env)
        opened, closing = [], []

        def target(spec, number, path):
            if spec == "closed":
                closing.append(number)
                return subprocess.DEVNULL
            if spec == "pipe":
                read, write = os.pipe()
                os.close(read)  # no reader
                opened.append(write)
                return write
            if isinstance(spec, tuple):
                descriptor = os.open(spec[1], os.O_WRONLY)
                opened.append(descriptor)
                return descriptor
            handle = open(path, "wb")
            opened.append(handle)
            return handle

        stdout, stderr = target(call.stdout, 1, out_path), target(call.stderr, 2, err_path)

        def preexec():
            for number in closing:
                os.close(number)

        started = time.monotonic()
        process = subprocess.Popen([self.binary] + call.args, cwd=call.cwd, env=env, stdin=subprocess.DEVNULL,
                                   stdout=stdout, stderr=stderr, preexec_fn=preexec if closing else None)
        for item in opened:
            item.close() if hasattr(item, "close") else os.close(item)
        if on_start:
            on_start(process)
        read = lambda path: open(path, "rb").read() if os.path.exists(path) else b""
        timed_out = over_memory = signalled = False
        # signal_at: (seconds, signal), or (seconds, signal, lines): the seconds counted from the
        # moment stderr holds `lines` lines (a run's last progress line before its final writes).
        moment = signal_at[0] if signal_at and len(signal_at) == 2 else None
        peak = 0
        family = []
        next_memory_check = 0.0
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            elapsed = time.monotonic() - started
            if signal_at and moment is None and read(err_path).count(b"\n") >= signal_at[2]:
                moment = elapsed + signal_at[0]
            if signal_at and not signalled and moment is not None and elapsed >= moment:
                family = descendants(process.pid)
                os.kill(process.pid, signal_at[1])
                signalled = True
            if memory_limit_kb and elapsed >= next_memory_check:
                next_memory_check = elapsed + 0.05
                peak = max(peak, rss_kb(process.pid))
                if peak > memory_limit_kb:
                    over_memory = True
            if elapsed > timeout:
                timed_out = True
            if timed_out or over_memory:
                family = descendants(process.pid)
                os.kill(process.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.002 if elapsed < 0.1 else 0.01)
        process.returncode = waitstatus(status)
        seconds = time.monotonic() - started
        if family:
            self.end_orphans(family, grace=1.0 if signalled else 0.0)
        return Outcome(None if timed_out or over_memory else process.returncode, read(out_path),
                       read(err_path).decode("utf-8", "replace"), seconds,
                       max(peak, usage.ru_maxrss), timed_out, over_memory, signalled)

    @staticmethod
    def end_orphans(pids, grace):
        """Ends what a killed process left running (its children, re-parented to this process),
        by their ids, after `grace` seconds in which they may end by themselves."""
        deadline = time.monotonic() + grace
        for pid in pids:
            while True:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    done = -1 if not os.path.exists(f"/proc/{pid}") else 0
                if done:
                    break
                if time.monotonic() >= deadline:
                    try:
                        os.kill(pid, signal.SIGKILL)
                        os.waitpid(pid, 0)
                    except (ProcessLookupError, ChildProcessError):
                        pass
                    break
                time.sleep(0.02)

    # -- checks --

    def fail(self, cls, case, tag, call, expected, got, setup=None):
        command = call.shell() if isinstance(call, Call) else str(call)
        text = f"FAIL [{cls}] {case} — {tag}: {DEFECTS[tag]}\n"
        if setup:
            text += f"  setup:    {setup}\n"
        text += f"  command:  {command}\n  expected: {expected}\n  got:      {got}"
        self.failures.append((cls, case, tag, text))
        print(text, flush=True)

    def check_outcome(self, cls, case, call, outcome, allowed, names=None, setup=None, status_tag="exit-status",
                      expected=None):
        """The common rules: no hang, no signal, no memory blow-up, an allowed exit status, and for
        exit 1 exactly one error line naming one of `names`; 64 never 'Missing value' for a value
        given. Returns whether all held."""
        allowed = sorted(set(allowed))
        want = expected or f"exit {' or '.join(map(str, allowed))}"
        if outcome.timed_out and "*** Signal " in outcome.stderr:
            # The Swift runtime was still writing a crash's backtrace (slow on a loaded machine).
            self.fail(cls, case, "signal", call, want, outcome.summary(), setup)
            return False
        if outcome.timed_out:
            self.fail(cls, case, "hang", call, want, outcome.summary(), setup)
            return False
        if outcome.over_memory:
            self.fail(cls, case, "memory", call, want, outcome.summary(), setup)
            return False
        if outcome.status < 0 and outcome.status not in allowed:
            self.fail(cls, case, "signal", call, want, outcome.summary(), setup)
            return False
        ok = True
        if outcome.status not in allowed:
            self.fail(cls, case, status_tag, call, want, outcome.summary(), setup)
            ok = False
        if outcome.status == 1 and names is not None:
            lines = outcome.error_lines()
            if len(lines) != 1 or not any(name in lines[0] for name in names):
                self.fail(cls, case, "error-line", call,
                          f"exactly one line '{ERROR} …' naming {' or '.join(map(repr, names))}", outcome.summary(), setup)
                ok = False
        if outcome.status == 64 and "Missing value" in outcome.stderr:
            self.fail(cls, case, "usage-message", call, "a usage error about the value given", outcome.summary(), setup)
            ok = False
        return ok

    def check_clean(self, cls, case, call, directories, tmpdir=True, setup=None):
        """No staging directory or temporary file beside the outputs, and an empty $TMPDIR. What
        is found is reported and then removed, so that the next case is judged alone."""
        ok = True
        for directory in directories:
            left = partials(directory)
            if left:
                self.fail(cls, case, "leftover-partial", call, f"no .*.partial-* or .*.tmp-* in {directory}",
                          f"left: {left}", setup)
                ok = False
                for entry in left:
                    remove(os.path.join(directory, entry))
        if tmpdir and os.path.isdir(call.tmpdir):
            left = sorted(os.listdir(call.tmpdir))
            if left:
                self.fail(cls, case, "leftover-tmpdir", call, f"an empty $TMPDIR ({call.tmpdir})", f"left: {left}", setup)
                ok = False
                for entry in left:
                    remove(os.path.join(call.tmpdir, entry))
        return ok

    def close(self):
        if not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        os.unlink(path)


def partials(directory):
    try:
        return sorted(e for e in os.listdir(directory) if ".partial-" in e or ".tmp-" in e)
    except OSError:
        return []


# -- fixtures --

class Fixtures:
    """Scenario files, data files and results directories the classes share (made once)."""

    def __init__(self, h, need_big):
        self.h = h
        self.dir = os.path.join(h.root, "fixtures")
        os.makedirs(self.dir)
        list_query = json.load(open(os.path.join(SCENARIOS, "list-query.json")))
        tiny = dict(list_query, name="tiny", items=[1000, 2000], modes=["binary", "linear"])
        tiny["workload"] = dict(list_query["workload"], frames=60)
        self.tiny_text = json.dumps(tiny, indent=1)
        self.zz_text = json.dumps(dict(tiny, name="zz"), indent=1)
        self.tiny = self.write("tiny.json", self.tiny_text)
        self.sig = self.write("sig.json", json.dumps(dict(list_query, name="sig", items=[30000, 100000, 300000, 1000000], modes=["binary"])))
        os.makedirs(os.path.join(self.dir, "Scenarios"))
        shutil.copy(self.tiny, os.path.join(self.dir, "Scenarios", "tiny.json"))
        capture = json.load(open(os.path.join(SCENARIOS, "feed-capture-query.json")))
        self.data_scenario_text = json.dumps(dict(capture, name="datafile", modes=["binary", "linear"],
                                                  data={"file": "data.csv"}), indent=1)
        rows = open(os.path.join(SCENARIOS, "feed-capture.csv")).read().splitlines()[:301]
        self.data_csv = ("\n".join(rows) + "\n").encode()
        self.profiles_gz = gzip.compress(b"scenario,mode,items,operation,function,self,inclusive\n"
                                         b"tiny,binary,1000,query,f(),1.5,2.5\n")
        self.base = self.run_fixture("base", [self.tiny, "--quick", "--repetitions", "2"])
        self.head = self.run_fixture("head", [self.tiny, "--quick", "--repetitions", "2"])
        if need_big:
            self.big_base = self.run_fixture("big-base", ["list-query", "--items", "1000", "--repetitions", "2"])
            self.big_head = self.run_fixture("big-head", ["list-query", "--items", "1000", "--repetitions", "2"])
        self.compare_status = Call(h, ["compare", self.base, self.head]).run().status

    def big_summary(self, copies):
        """big-base's summary.csv with its rows repeated at `copies` item counts (for a slow export)."""
        path = os.path.join(self.dir, f"summary-{copies}.csv")
        if not os.path.exists(path):
            lines = open(os.path.join(self.big_base, "summary.csv")).read().splitlines()
            rows = [lines[0]]
            for k in range(copies):
                for line in lines[1:]:
                    fields = line.split(",")
                    fields[6] = str(1000 + k)
                    rows.append(",".join(fields))
            self.write(os.path.basename(path), "\n".join(rows) + "\n")
        return path

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w" if isinstance(text, str) else "wb") as f:
            f.write(text)
        return path

    def run_fixture(self, name, arguments):
        out = os.path.join(self.dir, name)
        call = Call(self.h, ["run"] + arguments + ["--out", out])
        outcome = call.run(timeout=120)
        if outcome.status != 0:
            raise SystemExit(f"fuzz-cli: cannot make the fixture {name}: {call.shell()}: {outcome.summary()}")
        return out

    def copy_run(self, source, destination):
        shutil.copytree(source, destination, symlinks=True)
        return destination


# -- special files --

def make_special(path, kind, content=b""):
    """Creates `kind` at `path` and returns how (for the report)."""
    if kind == "fifo":
        os.mkfifo(path)
        return f"mkfifo {path}"
    if kind in DEVICES:
        major, minor = DEVICES[kind]
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
        return f"mknod {path} c {major} {minor}"
    if kind == "link-file":
        target = path + ".target"
        open(target, "wb").write(content)
        os.symlink(target, path)
        return f"ln -s {target} {path} (a regular file with valid contents)"
    if kind == "link-dir":
        target = path + ".dir"
        os.makedirs(target)
        open(os.path.join(target, "keep"), "w").write("keep\n")
        os.symlink(target, path)
        return f"ln -s {target} {path} (a directory)"
    if kind == "dangling":
        os.symlink(path + ".missing", path)
        return f"ln -s {path}.missing {path} (dangling)"
    if kind == "dir":
        os.makedirs(path)
        open(os.path.join(path, "keep"), "w").write("keep\n")
        return f"mkdir {path}"
    raise ValueError(kind)


def node(path):
    """What a path is, without following a symlink: its kind, device numbers, link target and the
    contents of what it points to."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return ("absent",)
    mode = stat.S_IFMT(info.st_mode)
    if mode == stat.S_IFLNK:
        target = os.readlink(path)
        return ("symlink", target, node(target))
    if mode == stat.S_IFCHR:
        return ("char", os.major(info.st_rdev), os.minor(info.st_rdev))
    if mode == stat.S_IFIFO:
        return ("fifo",)
    if mode == stat.S_IFDIR:
        return ("dir", tuple(sorted(os.listdir(path))))
    if mode == stat.S_IFREG:
        return ("file", open(path, "rb").read())
    return ("other", mode)


def node_text(state):
    if state[0] == "file":
        return f"a regular file of {len(state[1])} bytes"
    if state[0] == "symlink":
        return f"a symlink to {state[1]} ({node_text(state[2])})"
    return " ".join(map(str, state))


class FifoReader:
    """Drains a FIFO while a command may write to it (so that writing through never blocks)."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = bytearray()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.drain, daemon=True)
        self.thread.start()

    def drain(self):
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                chunk = None
            if chunk:
                self.data += chunk
            elif self.stop.is_set():
                break
            else:
                time.sleep(0.005)

    def finish(self):
        self.stop.set()
        self.thread.join()
        os.close(self.fd)
        return bytes(self.data)


def special_class(h, fx, rng):
    kinds_in = ["fifo", "null", "full", "zero", "link-file", "link-dir", "dangling", "dir"]
    kinds_out = ["fifo", "null", "full", "link-file", "link-dir", "dangling", "dir"]
    if not h.can_mknod:
        print("fuzz-cli: special: mknod not permitted here; device cases skipped")
        kinds_in = [k for k in kinds_in if k not in DEVICES]
        kinds_out = [k for k in kinds_out if k not in DEVICES]
    cls = "special"
    ran = 0

    def input_case(slot, kind, build, commands):
        """`build(case_dir, kind)` lays out the inputs with the special file and returns
        (special path, setup text); `commands(case_dir, special)` gives (label, Call, allowed
        statuses for a valid file, allowed otherwise, names for the error line, extra check)."""
        nonlocal ran
        name = f"in/{slot}/{kind}"
        directory = h.case_dir(name)
        special, setup = build(directory, kind)
        valid = kind == "link-file"
        for label, call, ok_valid, ok_special, names, extra in commands(directory, special):
            case = f"{name}/{label}"
            if not h.wanted(case):
                continue
            ran += 1
            outcome = call.run()
            allowed = ok_valid if valid else ok_special
            h.check_outcome(cls, case, call, outcome, allowed, names=names, setup=setup,
                            expected=(f"exit 1 with one error line naming {names[0]!r}, without hanging" if allowed == [1] else
                                      f"exit {' or '.join(map(str, allowed))} without hanging (exit 1: one error line naming {names[0]!r})"))
            if extra:
                extra(case, call, outcome, setup)
            h.check_clean(cls, case, call, [directory], setup=setup)

    # The scenario file argument.
    def scenario_arg(directory, kind):
        path = os.path.join(directory, "s.json")
        return path, make_special(path, kind, fx.tiny_text.encode())

    def scenario_commands(directory, special):
        yield "dump", Call(h, ["dump", special, "--mode", "binary", "--items", "1000"]), [0], [1], ["s.json"], None
        yield "render", Call(h, ["render", special, "--mode", "binary", "--items", "1000", "--out",
                                 os.path.join(directory, "r.svg")]), [0], [1], ["s.json"], None
        yield "run", Call(h, ["run", special, "--quick", "--repetitions", "1", "--out",
                              os.path.join(directory, "results")]), [0], [1], ["s.json"], None

    # data.file of a scenario.
    def data_file(directory, kind):
        open(os.path.join(directory, "d.json"), "w").write(fx.data_scenario_text)
        path = os.path.join(directory, "data.csv")
        return path, make_special(path, kind, fx.data_csv) + f"; {directory}/d.json has \"data\": {{\"file\": \"data.csv\"}}"

    def data_commands(directory, special):
        yield "dump", Call(h, ["dump", os.path.join(directory, "d.json"), "--mode", "binary"]), [0], [1], ["data.csv", "data.file"], None

    # A *.json in the scenarios directory (found as ./Scenarios in the working directory).
    def scenarios_dir(directory, kind):
        os.makedirs(os.path.join(directory, "Scenarios"))
        open(os.path.join(directory, "Scenarios", "tiny.json"), "w").write(fx.tiny_text)
        path = os.path.join(directory, "Scenarios", "zz.json")
        setup = make_special(path, kind, fx.zz_text.encode())
        if kind == "link-file":  # keep the target out of the directory's *.json
            target = os.path.join(directory, "zz-target.json")
            os.replace(path + ".target", target)
            os.unlink(path)
            os.symlink(target, path)
            setup = f"ln -s {target} {path} (a valid scenario named zz)"
        return path, setup + f"; {directory}/Scenarios also holds tiny.json"

    def scenarios_commands(directory, special):
        names = ["zz.json"]
        yield "list", Call(h, ["list"], cwd=directory), [0], [0, 1], names, None
        yield "list-env", Call(h, ["list"], env={"LAYOUT_BENCH_SCENARIOS": os.path.join(directory, "Scenarios")}),\
            [0], [0, 1], names, None
        yield "run", Call(h, ["run", "--quick", "--repetitions", "1", "--out", os.path.join(directory, "results")],
                          cwd=directory), [0], [0, 1], names, None
        yield "dump-other", Call(h, ["dump", "tiny", "--mode", "binary", "--items", "1000"], cwd=directory), [0], [0, 1], names, None

    # compare's inputs: the samples file named directly, and the files of a results directory.
    def results_file(filename, source, content):
        def build(directory, kind):
            copy = fx.copy_run(source, os.path.join(directory, "h"))
            path = os.path.join(copy, filename)
            if os.path.lexists(path):
                os.unlink(path)
            return path, make_special(path, kind, content()) + " in a copy of a results directory"
        return build

    compare_ok = [0, 2, 3, 4]

    def samples_direct_commands(directory, special):
        yield "compare", Call(h, ["compare", fx.base, special]), compare_ok, [1], ["samples.csv.gz"], None

    def samples_in_dir_commands(directory, special):
        def not_missing(case, call, outcome, setup):
            kind = node(special)
            is_dir = kind[0] == "dir" or (kind[0] == "symlink" and kind[2][0] == "dir")
            if is_dir and outcome.status == 1 and "missing" in outcome.stderr:
                h.fail(cls, case, "error-line", call, "an error saying samples.csv.gz is not a regular file (not 'missing')",
                       outcome.summary(), setup)
        yield "compare", Call(h, ["compare", fx.base, os.path.dirname(special)]), compare_ok, [1], ["samples.csv"], not_missing

    def optional_file_commands(filename):
        def commands(directory, special):
            yield "compare", Call(h, ["compare", fx.base, os.path.dirname(special)]), compare_ok, compare_ok + [1], [filename], None
        return commands

    def summary_direct_commands(directory, special):
        yield "export", Call(h, ["export", special, "--format", "bmf"]), [0], [1], ["summary.csv"], None

    def summary_in_dir_commands(directory, special):
        yield "export", Call(h, ["export", os.path.dirname(special), "--format", "bmf"]), [0], [1], ["summary.csv"], None

    def summary_direct(directory, kind):
        path = os.path.join(directory, "summary.csv")
        return path, make_special(path, kind, open(os.path.join(fx.base, "summary.csv"), "rb").read())

    def samples_direct(directory, kind):
        path = os.path.join(directory, "samples.csv.gz")
        return path, make_special(path, kind, open(os.path.join(fx.head, "samples.csv.gz"), "rb").read())

    slots = [
        ("scenario", scenario_arg, scenario_commands),
        ("data.file", data_file, data_commands),
        ("scenarios-dir", scenarios_dir, scenarios_commands),
        ("samples-direct", samples_direct, samples_direct_commands),
        ("samples.csv.gz", results_file("samples.csv.gz", fx.head, lambda: open(os.path.join(fx.head, "samples.csv.gz"), "rb").read()),
         samples_in_dir_commands),
        ("run.json", results_file("run.json", fx.head, lambda: open(os.path.join(fx.head, "run.json"), "rb").read()),
         optional_file_commands("run.json")),
        ("profiles.csv.gz", results_file("profiles.csv.gz", fx.head, lambda: fx.profiles_gz), optional_file_commands("profiles.csv.gz")),
        ("failures.csv", results_file("failures.csv", fx.head, lambda: open(os.path.join(fx.head, "failures.csv"), "rb").read()),
         optional_file_commands("failures.csv")),
        ("summary-direct", summary_direct, summary_direct_commands),
        ("summary.csv", results_file("summary.csv", fx.base, lambda: open(os.path.join(fx.base, "summary.csv"), "rb").read()),
         summary_in_dir_commands),
    ]
    for slot, build, commands in slots:
        for kind in kinds_in:
            input_case(slot, kind, build, commands)

    # --out of every command.
    outputs = {
        "dump": (lambda out: ["dump", fx.tiny, "--mode", "binary", "--items", "1000", "--out", out], [0]),
        "render": (lambda out: ["render", fx.tiny, "--mode", "binary", "--items", "1000", "--out", out], [0]),
        "compare": (lambda out: ["compare", fx.base, fx.head, "--out", out], [fx.compare_status]),
        "export": (lambda out: ["export", fx.base, "--format", "bmf", "--out", out], [0]),
        "run": (lambda out: ["run", fx.tiny, "--quick", "--repetitions", "1", "--out", out], [0]),
    }
    references = {}
    for command, (arguments, statuses) in outputs.items():
        if command == "run":
            continue
        directory = h.case_dir(f"out-reference-{command}")
        reference = os.path.join(directory, "reference")
        call = Call(h, arguments(reference))
        outcome = call.run()
        if outcome.status not in statuses or not os.path.isfile(reference):
            h.fail(cls, f"out/{command}/reference", "exit-status", call, f"exit {statuses} and a file", outcome.summary())
            continue
        references[command] = open(reference, "rb").read()
    refused_null = {}
    for command, (arguments, statuses) in outputs.items():
        for kind in kinds_out:
            case = f"out/{command}/{kind}"
            if not h.wanted(case) or (command != "run" and command not in references):
                continue
            if command == "run" and kind == "dir":
                continue  # an existing directory is run's ordinary target
            ran += 1
            directory = h.case_dir(case)
            out = os.path.join(directory, "o")
            setup = make_special(out, kind, b"old contents\n")
            before = node(out)
            call = Call(h, arguments(out))
            reader = FifoReader(out) if kind == "fifo" else None
            outcome = call.run()
            written = reader.finish() if reader else None
            after = node(out)
            expected_bytes = references.get(command)
            if command == "run":
                if kind == "link-dir":
                    allowed, expectation = [0], "results written into the directory the symlink names (exit 0), the symlink kept"
                elif kind == "dangling":
                    allowed, expectation = [0, 1], "the symlink followed (the results directory made where it points) or refused; " \
                                                   "the symlink kept"
                else:
                    allowed, expectation = [1], "refused with exit 1 (not a directory), the path unchanged"
            elif kind == "full":
                allowed, expectation = [1], "exit 1 with 'No space left on device' (or refused), the device kept"
            elif kind in ("link-dir", "dir"):
                allowed, expectation = [1], "refused with exit 1, the directory (and symlink) unchanged"
            else:
                allowed = statuses + [1]
                expectation = "written through or followed (exit " + "/".join(map(str, statuses)) + ") or refused (exit 1); " \
                              "never replaced by a regular file"
            h.check_outcome(cls, case, call, outcome, allowed, names=[out], setup=setup, expected=expectation,
                            status_tag="out-symlink-dir" if command == "run" and kind == "link-dir" else "out-replaced")
            if kind == "null" and outcome.status == 1:
                refused_null[command] = True
            # What the path is now.
            problem = None
            if command == "run" and kind in ("link-dir", "dangling"):
                if after[:2] != before[:2]:
                    problem = f"{out} is now {node_text(after)} (was {node_text(before)})"
                elif outcome.status == 0 and read_run(before[1], False):
                    problem = f"{before[1]} {read_run(before[1], False)}"
            elif kind in ("null", "full", "dir", "link-dir"):
                if after != before:
                    problem = f"{out} is now {node_text(after)} (was {node_text(before)})"
            elif kind == "fifo":
                if after[0] != "fifo":
                    problem = f"{out} is now {node_text(after)} (was a FIFO)"
            elif after[0] != "symlink" or after[1] != before[1]:
                problem = f"{out} is now {node_text(after)} (was {node_text(before)})"
            if problem:
                tag = "out-symlink-dir" if (command == "run" and kind == "link-dir") else "out-replaced"
                h.fail(cls, case, tag, call, expectation, problem + "; " + outcome.summary(), setup)
            elif outcome.status == 1 and after != before and not (command == "run" and kind == "link-dir"):
                h.fail(cls, case, "out-replaced", call, "a refused --out left as it was",
                       f"{node_text(before)} became {node_text(after)}", setup)
            elif outcome.status in statuses and outcome.status != 1 and expected_bytes is not None:
                # Written through or followed: the bytes went where the path leads.
                if kind == "fifo" and written != expected_bytes:
                    h.fail(cls, case, "out-replaced", call, "the FIFO's reader gets the whole output",
                           f"it got {len(written)} of {len(expected_bytes)} bytes", setup)
                if kind in ("link-file", "dangling") and not (after[2][0] == "file" and after[2][1] == expected_bytes):
                    h.fail(cls, case, "out-replaced", call, "the symlink followed: its target holds the output",
                           f"the target is {node_text(after[2])}", setup)
            if kind == "full" and outcome.status == 1 and not refused_null.get(command) and command != "run" \
                    and "No space left on device" not in outcome.stderr:
                h.fail(cls, case, "out-full", call, "exit 1 naming 'No space left on device' (the null device was written through)",
                       outcome.summary(), setup)
            if kind == "link-dir" or (kind == "dangling" and os.path.isdir(before[1])):
                h.check_clean(cls, case, call, [directory, before[1]], setup=setup)
            else:
                h.check_clean(cls, case, call, [directory], setup=setup)

    # --out naming one of the command's own inputs.
    def own(case, build):
        nonlocal ran
        if not h.wanted(f"own/{case}"):
            return
        ran += 1
        directory = h.case_dir(f"own-{case}")
        base = fx.copy_run(fx.base, os.path.join(directory, "base"))
        head = fx.copy_run(fx.head, os.path.join(directory, "head"))
        scenario = os.path.join(directory, "s.json")
        open(scenario, "w").write(fx.tiny_text)
        open(os.path.join(directory, "d.json"), "w").write(fx.data_scenario_text)
        open(os.path.join(directory, "data.csv"), "wb").write(fx.data_csv)
        args, out, setup = build(directory, base, head, scenario)
        watched = [base, head, directory]
        before = {d: snapshot_tree(d) for d in watched}
        call = Call(h, args)
        outcome = call.run()
        h.check_outcome(cls, f"own/{case}", call, outcome, [1], names=[out, "--out"], setup=setup, status_tag="own-input",
                        expected="refused with exit 1 (--out names an input), every input byte-identical")
        changed = [path for d in watched for path, content in snapshot_tree(d).items() if before[d].get(path) != content]
        changed += [path for d in watched for path in before[d] if path not in snapshot_tree(d)]
        if changed:
            h.fail(cls, f"own/{case}", "own-input", call, "every input byte-identical", f"changed: {sorted(set(changed))}", setup)
        h.check_clean(cls, f"own/{case}", call, watched, setup=setup)

    def link_to(directory, target):
        link = os.path.join(directory, "link")
        os.symlink(target, link)
        return link

    own("export-dir-summary", lambda d, b, hd, s: (["export", b, "--format", "bmf", "--out", f"{b}/summary.csv"], f"{b}/summary.csv", None))
    own("export-file-summary", lambda d, b, hd, s: (["export", f"{b}/summary.csv", "--format", "bmf", "--out", f"{b}/summary.csv"], f"{b}/summary.csv", None))
    own("export-dotted-summary", lambda d, b, hd, s: (["export", b, "--format", "bmf", "--out", f"{b}/./summary.csv"], f"{b}/./summary.csv", None))
    own("export-link-summary", lambda d, b, hd, s: (["export", b, "--format", "bmf", "--out", link_to(d, f"{b}/summary.csv")],
                                                    os.path.join(d, "link"), f"ln -s {b}/summary.csv {d}/link"))
    own("compare-base-samples", lambda d, b, hd, s: (["compare", b, hd, "--out", f"{b}/samples.csv.gz"], f"{b}/samples.csv.gz", None))
    own("compare-head-samples", lambda d, b, hd, s: (["compare", b, hd, "--out", f"{hd}/samples.csv.gz"], f"{hd}/samples.csv.gz", None))
    own("compare-base-run.json", lambda d, b, hd, s: (["compare", b, hd, "--out", f"{b}/run.json"], f"{b}/run.json", None))
    own("compare-file-samples", lambda d, b, hd, s: (["compare", f"{b}/samples.csv.gz", hd, "--out", f"{b}/samples.csv.gz"], f"{b}/samples.csv.gz", None))
    own("compare-link-samples", lambda d, b, hd, s: (["compare", b, hd, "--out", link_to(d, f"{hd}/samples.csv.gz")],
                                                     os.path.join(d, "link"), f"ln -s {hd}/samples.csv.gz {d}/link"))
    own("dump-scenario", lambda d, b, hd, s: (["dump", s, "--mode", "binary", "--items", "1000", "--out", s], s, None))
    own("render-scenario", lambda d, b, hd, s: (["render", s, "--mode", "binary", "--items", "1000", "--out", s], s, None))
    own("dump-data-file", lambda d, b, hd, s: (["dump", f"{d}/d.json", "--mode", "binary", "--out", f"{d}/data.csv"], f"{d}/data.csv", None))
    return ran


def snapshot_tree(directory):
    """path → (kind, contents) of every entry below `directory`, symlinks not followed."""
    found = {}
    for parent, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = os.path.join(parent, name)
            state = node(path)
            found[path] = state if state[0] != "dir" else ("dir",)
    return found


# -- numbers --

VALUES = ["2147483647", "2147483648", "4294967296", "9007199254740992", "9223372036854775807",
          "9223372036854775808", "18446744073709551616", "1e19", "1e308", "-1e308", "1e400", "-0",
          "nan", "inf", "0x10", "1e-320", "-1", "-inf"]
DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def as_int(text):
    """The value as a 64-bit integer, or None (not an integer literal, or out of range)."""
    if re.fullmatch(r"-?[0-9]+", text):
        value = int(text)
        if -2**63 <= value < 2**63:
            return value
    return None


def finite(text):
    """A plain decimal number that is finite as a Double."""
    return bool(DECIMAL.fullmatch(text)) and math.isfinite(float(text))


def nonnegative(text):
    return finite(text) and float(text) >= 0


def numbers_class(h, fx, rng):
    cls = "numbers"
    ran = 0

    def case(name, call, allowed, names=None, directories=(), may_run=False, setup=None, status_tag="exit-status",
             expected=None):
        nonlocal ran
        if not h.wanted(name):
            return None
        ran += 1
        if may_run:
            # An accepted huge count may legitimately run on: stopped after a second by SIGTERM,
            # it must end by it and clean up like any interrupted run.
            outcome = call.run(signal_at=(1.0, signal.SIGTERM))
            allowed = list(allowed) + [-signal.SIGTERM]
        else:
            outcome = call.run()
        h.check_outcome(cls, name, call, outcome, allowed, names=names, setup=setup, status_tag=status_tag, expected=expected)
        h.check_clean(cls, name, call, list(directories), setup=setup)
        return outcome

    # Options.
    work = h.case_dir("numbers-options")
    compare_ok = [0, 2, 3, 4]
    for value in VALUES:
        n = as_int(value)
        count = [0, 1, 64] if n is not None and n >= 1 else [64]
        run = ["run", fx.tiny, "--quick", "--out", os.path.join(work, "results")]
        case(f"option/run --items {value}", Call(h, run + ["--repetitions", "1", "--items", value]), count, ["--items", "items"], [work])
        case(f"option/run --max-items {value}", Call(h, run + ["--repetitions", "1", "--max-items", value]), count, ["--max-items"], [work])
        case(f"option/run --repetitions {value}", Call(h, run + ["--repetitions", value]), count, ["--repetitions"], [work],
             may_run=n is not None and n > 2)
        case(f"option/run --repetition {value}", Call(h, run + ["--repetitions", "2", "--repetition", value]),
             [0, 1, 64] if n is not None else [64], ["--repetition"], [work])
        for command in ("dump", "render"):
            out = ["--out", os.path.join(work, "o")]
            case(f"option/{command} --items {value}", Call(h, [command, fx.tiny, "--mode", "binary", "--items", value] + out),
                 count, ["--items", "items"], [work])
            offset = [0, 1, 64] if finite(value) or value == "0x10" else [64]
            case(f"option/{command} --offset {value}", Call(h, [command, fx.tiny, "--mode", "binary", "--items", "1000",
                                                                "--offset", value] + out), offset, ["--offset"], [work])
        rect = ["0", "0", "390", "844"]
        rect[rng.randrange(4)] = value
        case(f"option/dump --rect {','.join(rect)}", Call(h, ["dump", fx.tiny, "--mode", "binary", "--items", "1000",
                                                             "--rect", ','.join(rect)]),
             [0, 1, 64] if finite(value) or value == "0x10" else [64], ["--rect"], [work])
        threshold = rng.choice([f"time={value}%", f"{value}%"])
        allowed = compare_ok + [64] if nonnegative(value) or value == "0x10" else [64]
        case(f"option/compare --threshold {threshold}", Call(h, ["compare", fx.base, fx.head, "--threshold", threshold]),
             allowed, None, [work], expected="a bad --threshold is a usage error (exit 64, issue 34 #10); a good one compares (0/2/3/4)")
        for option in ("--alpha", "--spread-factor", "--change-confidence"):
            case(f"option/compare {option} {value}", Call(h, ["compare", fx.base, fx.head, option, value]),
                 compare_ok + [64] if finite(value) or value == "0x10" else [64], None, [work])
    case("option/run --repetitions -3", Call(h, ["run", fx.tiny, "--quick", "--repetitions", "-3"]), [64], None, [work])
    case("option/compare --threshold time=fast", Call(h, ["compare", fx.base, fx.head, "--threshold", "time=fast"]), [64], None, [work],
         expected="exit 64 (a usage error, issue 34 #10)")

    # Numbers in scenario files (and a data file): each value at a few seeded places.
    scenarios = {}
    for name, changes in [("list-query", dict(items=[1000], modes=["binary"])),
                          ("waterfall-append", dict(items=[1000], modes=["incremental"])),
                          ("sticky-list", dict(items=[1000], modes=["cached"])),
                          ("feed-heights-templates", dict(items=[1000], modes=["keyed"])),
                          ("probe-miss-explicit", dict(modes=["binary"]))]:
        scenario = json.load(open(os.path.join(SCENARIOS, name + ".json")))
        scenario.update(changes)
        if name == "probe-miss-explicit":
            scenario["data"]["sections"] = [scenario["data"]["sections"][0][:12]]
        scenarios[name] = scenario
    places = []
    for name, scenario in scenarios.items():
        for path in numeric_paths(scenario):
            places.append((name, path))
    work = h.case_dir("numbers-scenarios")
    for value in VALUES:
        for name, path in rng.sample(places, 4):
            text = with_number(scenarios[name], path, value)
            file = os.path.join(work, f"{name}.json")
            open(file, "w").write(text)
            command = rng.choice(["dump", "render"])
            label = "/".join(map(str, path))
            must_refuse = value in ("nan", "inf", "-inf", "0x10", "1e400")
            case(f"scenario/{name} {label}={value}/{command}",
                 Call(h, [command, file, "--mode", scenarios[name]["modes"][0], "--out", os.path.join(work, "o")]),
                 [1] if must_refuse else [0, 1], [file], [work], setup=f"{file}: {label} = {value} (copy of Scenarios/{name}.json)",
                 expected="exit 1 naming the file (not a JSON number, or not a finite Double)" if must_refuse else None)
        # A value in the data file (a CSV of section,w,h,fullWidth).
        rows = fx.data_csv.decode().splitlines()
        row = rng.randrange(1, len(rows))
        fields = rows[row].split(",")
        fields[2] = value
        rows[row] = ",".join(fields)
        open(os.path.join(work, "data.csv"), "w").write("\n".join(rows) + "\n")
        open(os.path.join(work, "d.json"), "w").write(fx.data_scenario_text)
        case(f"data.file/h={value} (line {row + 1})", Call(h, ["dump", os.path.join(work, "d.json"), "--mode", "binary"]),
             [0, 1], ["data.csv", "d.json"], [work], setup=f"{work}/data.csv line {row + 1}: h = {value}")

    # Numbers in results files.
    work = h.case_dir("numbers-results")
    run_json = json.load(open(os.path.join(fx.head, "run.json")))
    json_places = [("load", "start", 0), ("load", "end", 0), ("load", "start", 2), ("machine", "active_cores"),
                   ("machine", "cores"), ("machine", "memory_bytes"), ("clock", "read_cost_nanoseconds")]
    samples_header, *samples_rows = gzip.decompress(open(os.path.join(fx.head, "samples.csv.gz"), "rb").read()).decode().splitlines()
    columns = samples_header.split(",")
    summary_header, *summary_rows = open(os.path.join(fx.base, "summary.csv")).read().splitlines()
    summary_columns = summary_header.split(",")
    for value in VALUES:
        for place in rng.sample(json_places, 2):
            head = fresh_copy(fx.head, os.path.join(work, "head"))
            open(os.path.join(head, "run.json"), "w").write(with_number(run_json, place, value))
            label = ".".join(map(str, place))
            case(f"run.json/{label}={value}", Call(h, ["compare", fx.base, head]), compare_ok + [1], ["run.json"], [work],
                 setup=f"{head}/run.json: {label} = {value}")
        for column, metric in rng.sample([("value", "time"), ("value", "allocs"), ("items", "time"), ("repetition", "time")], 2):
            head = fresh_copy(fx.head, os.path.join(work, "head"))
            candidates = [i for i, row in enumerate(samples_rows) if row.split(",")[columns.index("metric")] == metric]
            if not candidates:
                continue
            index = rng.choice(candidates)
            rows = with_field(samples_rows, index, columns.index(column), value)
            path = os.path.join(head, "samples.csv.gz")
            open(path, "wb").write(gzip.compress(("\n".join([samples_header] + rows) + "\n").encode()))
            if column == "value":
                refuse = not nonnegative(value)
                why = "finite and >= 0 (a time or a count)"
            elif column == "items":
                n = as_int(value)
                refuse = n is None or n < 0
                why = "an integer count >= 0"
            else:
                refuse = as_int(value) is None
                why = "an integer"
            line = index + 2
            case(f"samples.csv.gz/{metric} {column}={value} (line {line})", Call(h, ["compare", fx.base, head]),
                 [1] if refuse else compare_ok + [1], [f"samples.csv.gz: line {line}"], [work], setup=f"{path} line {line}: {column} = {value}",
                 status_tag="value-judged" if refuse else "exit-status",
                 expected=f"exit 1 naming {path} and line {line} ({column} must be {why})" if refuse else None)
        for column in rng.sample(["median", "ci_low", "ci_high", "items", "samples"], 2):
            directory = fresh_copy(fx.base, os.path.join(work, "base"))
            candidates = [i for i, row in enumerate(summary_rows) if row.split(",")[summary_columns.index("metric")] == "time"]
            index = rng.choice(candidates)
            rows = with_field(summary_rows, index, summary_columns.index(column), value)
            path = os.path.join(directory, "summary.csv")
            open(path, "w").write("\n".join([summary_header] + rows) + "\n")
            if column in ("items", "samples"):
                n = as_int(value)
                refuse = n is None or n < 0
                why = "an integer count >= 0"
            elif column == "ci_low":
                # The interval around a median >= 0 may reach below 0, never below -ci_high.
                high = summary_rows[index].split(",")[summary_columns.index("ci_high")]
                refuse = not finite(value) or (finite(high) and float(value) < -float(high))
                why = "finite and >= -ci_high"
            else:
                refuse = not nonnegative(value)
                why = "a finite time >= 0"
            line = index + 2
            case(f"summary.csv/time {column}={value} (line {line})",
                 Call(h, ["export", directory, "--format", "bmf", "--out", os.path.join(work, "bmf.json")]),
                 [1] if refuse else [0, 1], [f"summary.csv: line {line}"], [work], setup=f"{path} line {line}: {column} = {value}",
                 status_tag="value-judged" if refuse else "exit-status",
                 expected=f"exit 1 naming {path} and line {line} ({column} must be {why})" if refuse else None)

    # Values that must make sense beyond their number: units must match, a row may appear once.
    head = fresh_copy(fx.head, os.path.join(work, "head"))
    rows = [row.replace(",time,ns,", ",time,ms,") for row in samples_rows]
    open(os.path.join(head, "samples.csv.gz"), "wb").write(gzip.compress(("\n".join([samples_header] + rows) + "\n").encode()))
    case("samples.csv.gz/unit ms against ns", Call(h, ["compare", fx.base, head]), [1], ["unit", "ms", "samples.csv"], [work],
         setup=f"{head}/samples.csv.gz: every time row in ms (base in ns)", status_tag="value-judged",
         expected="exit 1: the units of the two sides differ")
    head = fresh_copy(fx.head, os.path.join(work, "head"))
    rows = samples_rows + [samples_rows[0]]
    open(os.path.join(head, "samples.csv.gz"), "wb").write(gzip.compress(("\n".join([samples_header] + rows) + "\n").encode()))
    case("samples.csv.gz/duplicated row", Call(h, ["compare", fx.base, head]), [1], [f"line {len(rows) + 1}", "line 2"], [work],
         setup=f"{head}/samples.csv.gz: line 2 repeated as line {len(rows) + 1}", status_tag="value-judged",
         expected="exit 1 naming the file and the repeated line (a row may appear once)")
    directory = fresh_copy(fx.base, os.path.join(work, "base"))
    open(os.path.join(directory, "summary.csv"), "w").write("\n".join([summary_header] + summary_rows + [summary_rows[0]]) + "\n")
    case("summary.csv/duplicated row", Call(h, ["export", directory, "--format", "bmf"]), [1],
         [f"line {len(summary_rows) + 2}", "line 2"], [work], setup=f"{directory}/summary.csv: line 2 repeated at the end",
         status_tag="value-judged", expected="exit 1 naming the file and the repeated line (a row may appear once)")
    return ran


def fresh_copy(source, destination):
    shutil.rmtree(destination, ignore_errors=True)
    shutil.copytree(source, destination)
    return destination


def numeric_paths(value, path=()):
    """JSON paths of the numbers in a scenario (the first two entries of each array), and of the
    constants in template constraints ("a.width == 40")."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [path]
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in numeric_paths(item, path + (key,))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value[:2]) for p in numeric_paths(item, path + (index,))]
    if isinstance(value, str) and path and "constraints" in path and re.search(r"[=<>] *[0-9.]+ *$|\+ [0-9.]+", value):
        return [path + ("#",)]
    return []


def with_number(document, path, token):
    """The JSON text of `document` with the number at `path` replaced by the raw `token`."""
    document = json.loads(json.dumps(document))
    marker = "@@NUMBER@@"
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if last == "#":  # a constant inside a constraint string
        grand = document
        for key in path[:-2]:
            grand = grand[key]
        text = grand[path[-2]]
        grand[path[-2]] = re.sub(r"[0-9.]+(?=[^0-9.]*$)", token, text, count=1)
        return json.dumps(document)
    parent[last] = marker
    return json.dumps(document).replace(json.dumps(marker), token)


# -- gzip that expands past the cap --

def crc32_combine(crc1, crc2, length2):
    """zlib's crc32_combine (the CRC of A+B from those of A and B and B's length)."""
    def times(matrix, vector):
        total, i = 0, 0
        while vector:
            if vector & 1:
                total ^= matrix[i]
            vector >>= 1
            i += 1
        return total

    def square(matrix):
        return [times(matrix, matrix[n]) for n in range(32)]

    if length2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << n for n in range(31)]
    even = square(odd)
    odd = square(even)
    while True:
        even = square(odd)
        if length2 & 1:
            crc1 = times(even, crc1)
        length2 >>= 1
        if not length2:
            break
        odd = square(even)
        if length2 & 1:
            crc1 = times(odd, crc1)
        length2 >>= 1
        if not length2:
            break
    return crc1 ^ crc2


def write_bomb(path, prefix, expanded_gib=10):
    """A valid gzip file: `prefix` followed by `expanded_gib` GiB of newlines, made of one
    compressed block of 1 MiB of newlines repeated (each ends with a full flush, so the copies
    are byte-identical), with the right CRC and length: about 1 MB per GiB, built in a moment."""
    chunk = b"\n" * (1 << 20)
    repeats = expanded_gib * 1024
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    second = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert block == second, "a full flush should make identical blocks"
    tail = compressor.flush(zlib.Z_FINISH)
    crc_chunk = zlib.crc32(chunk)
    crc_repeat, length, power, power_length, n = 0, 0, crc_chunk, len(chunk), repeats
    while n:  # CRC of the chunk repeated `repeats` times, by doubling
        if n & 1:
            crc_repeat = crc32_combine(crc_repeat, power, power_length) if length else power
            length += power_length
        power = crc32_combine(power, power, power_length)
        power_length *= 2
        n >>= 1
    crc = crc32_combine(zlib.crc32(prefix), crc_repeat, length)
    total = len(prefix) + length
    with open(path, "wb") as f:
        f.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff")
        f.write(head)
        for _ in range(repeats):
            f.write(block)
        f.write(tail)
        f.write(crc.to_bytes(4, "little") + (total & 0xFFFFFFFF).to_bytes(4, "little"))
    return total


def bomb_class(h, fx, rng):
    cls = "bomb"
    ran = 0
    samples = gzip.decompress(open(os.path.join(fx.head, "samples.csv.gz"), "rb").read()).splitlines(keepends=True)
    prefix = b"".join(samples[:50])
    cases = [("samples.csv.gz", prefix, lambda d, bomb: ["compare", fx.base, bomb], "samples.csv.gz"),
             ("profiles.csv.gz", gzip.decompress(fx.profiles_gz), None, "profiles.csv.gz")]
    for name, content, arguments, filename in cases:
        case = f"{name}/10 GiB of newlines"
        if not h.wanted(case):
            continue
        ran += 1
        directory = h.case_dir(f"bomb-{name}")
        if arguments is None:
            head = fx.copy_run(fx.head, os.path.join(directory, "h"))
            bomb = os.path.join(head, filename)
            arguments = lambda d, b, head=head: ["compare", fx.base, head]
        else:
            bomb = os.path.join(directory, filename)
        expanded = write_bomb(bomb, content)
        setup = f"{bomb}: {os.path.getsize(bomb) // 1000} kB of gzip expanding to {expanded / 2**30:.1f} GiB " \
                f"(valid rows, then newlines)"
        call = Call(h, arguments(directory, bomb))
        outcome = call.run(timeout=BOMB_TIMEOUT, memory_limit_kb=BOMB_MEMORY_KB)
        h.check_outcome(cls, case, call, outcome, [1], names=[filename], setup=setup,
                        expected=f"exit 1 naming {filename} within {BOMB_TIMEOUT:.0f} s and under {BOMB_MEMORY_KB >> 20} GiB resident")
        if outcome.status is not None and outcome.max_rss_kb > BOMB_MEMORY_KB:
            h.fail(cls, case, "memory", call, f"under {BOMB_MEMORY_KB >> 20} GiB resident", outcome.summary(), setup)
        h.check_clean(cls, case, call, [directory], setup=setup)
        os.unlink(bomb)
    return ran


# -- stdout that fails --

def stdout_class(h, fx, rng):
    cls = "stdout"
    ran = 0
    full = None
    if h.can_mknod:
        full = os.path.join(h.case_dir("stdout-device"), "full")
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    commands = {
        "dump": ["dump", fx.tiny, "--mode", "binary", "--items", "1000"],
        "export": ["export", fx.base, "--format", "bmf"],
        "compare": ["compare", fx.base, fx.base, "--all"],  # identical sides: exit 0 when stdout works
        "list": ["list"],
        "list --json": ["list", "--json"],
    }
    for name, arguments in commands.items():
        for target in (["full"] if full else []) + ["closed"]:
            case = f"{name}/stdout {target}"
            if not h.wanted(case):
                continue
            ran += 1
            call = Call(h, arguments, cwd=fx.dir, stdout=("device", full) if target == "full" else "closed")
            outcome = call.run()
            setup = f"mknod {full} c 1 7" if target == "full" else "standard output closed"
            if outcome.timed_out or outcome.over_memory or (outcome.status is not None and outcome.status < 0):
                h.check_outcome(cls, case, call, outcome, [1], setup=setup)
            elif outcome.status == 0 or not outcome.stderr.strip():
                h.fail(cls, case, "stdout-lost", call, "a non-zero exit and a message on stderr", outcome.summary(), setup)
            h.check_clean(cls, case, call, [], setup=setup)
    return ran


# -- signals at random moments --

def read_run(directory, instructions):
    """None when `directory` holds one run's complete set (and the extra entries kept), else why not."""
    if not os.path.isdir(directory):
        return "is not a directory"
    expected = set(RUN_FILES + (["profiles.csv.gz"] if instructions else []))
    visible = {e for e in os.listdir(directory) if not e.startswith(".")} - {"charts", "notes.txt", "keep"}
    if visible != expected:
        return f"holds {sorted(visible)}, expected {sorted(expected)}"
    hidden = [e for e in os.listdir(directory) if e.startswith(".")]
    if hidden:
        return f"hidden entries {hidden}"
    try:
        ids = {json.load(open(os.path.join(directory, "run.json")))["run_id"]}
        with gzip.open(os.path.join(directory, "samples.csv.gz"), "rt", newline="") as f:
            ids |= {row["run_id"] for row in csv.DictReader(f)}
        with open(os.path.join(directory, "summary.csv"), newline="") as f:
            ids |= {row["run_id"] for row in csv.DictReader(f)}
        if instructions:
            gzip.decompress(open(os.path.join(directory, "profiles.csv.gz"), "rb").read())
    except Exception as error:
        return f"unreadable: {error!r}"
    return None if len(ids) == 1 else f"files from several runs: {sorted(ids)}"


def signals_class(h, fx, rng, have_valgrind):
    cls = "signals"
    ran = 0
    sigs = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]

    def file_target(name, sizes, new_arguments, old_arguments, attempts):
        """dump/export/render/compare --out FILE: the old file (from `old_arguments`) stays whole, or
        the new one (from `new_arguments`) appears whole; nothing else. Of the input `sizes`, the
        largest that takes at most TARGET_SECONDS (so that a slow build keeps the class short)."""
        nonlocal ran
        directory = h.case_dir(f"signals-{name}")
        tmpdir = h.fresh_tmpdir()
        target = os.path.join(directory, "out")
        reference = os.path.join(directory, "reference")
        timing = None
        for size in sizes:
            call = Call(h, new_arguments(size, reference), tmpdir=tmpdir)
            outcome = call.run()
            if outcome.status not in (0, 2, 3, 4):
                h.fail(cls, f"{name}/reference", "exit-status", call, "a working command", outcome.summary())
                return
            if timing and outcome.seconds > TARGET_SECONDS:
                break
            timing, chosen = outcome, size
            new = open(reference, "rb").read()
            if outcome.seconds > TARGET_SECONDS / 3:
                break
        new_args = lambda out: new_arguments(chosen, out)
        old_args = lambda out: old_arguments(chosen, out)
        duration = timing.seconds
        clear(tmpdir)
        Call(h, old_args(target), tmpdir=tmpdir).run()
        old = open(target, "rb").read()
        assert old != new, name
        interrupted = tried = 0
        for attempt in range(attempts):
            sig = sigs[attempt % 3]
            first = attempt == attempts - 1  # the last attempt: no earlier file
            if first:
                os.unlink(target)
            late = attempt % 2 == 1
            fraction = rng.uniform(0.7, 1.1) if late else rng.uniform(0.0, 1.1)
            moment = fraction * duration
            case = f"{name}/#{attempt} {signal.Signals(sig).name} at {fraction:.0%} ({moment * 1000:.0f} ms of " \
                   f"{duration * 1000:.0f})" + (" (no earlier file)" if first else "")
            if not h.wanted(case):
                continue
            ran += 1
            tried += 1
            call = Call(h, new_args(target), tmpdir=tmpdir)
            outcome = call.run(signal_at=(moment, sig))
            interrupted += outcome.status == -sig
            h.check_outcome(cls, case, call, outcome, [0, 2, 3, 4, -sig], expected=f"exit by {signal.Signals(sig).name} or finished")
            state = node(target)
            allowed = [("file", new)] + ([("absent",)] if first else [("file", old)])
            if state not in allowed:
                h.fail(cls, case, "interrupted-output", call, "the output absent, the old one or the new one, whole",
                       f"{target} is {node_text(state)}" + ("" if state[0] != "file" else f" (old {len(old)}, new {len(new)} bytes)"))
            if sig != signal.SIGKILL:
                h.check_clean(cls, case, call, [directory])
            else:
                following = Call(h, new_args(target), tmpdir=tmpdir)
                after = following.run()
                h.check_outcome(cls, case + " (the next run)", following, after, [0, 2, 3, 4])
                h.check_clean(cls, case + " (the next run sweeps what the SIGKILL left)", following, [directory])
            write_file(target, old)
        print(f"fuzz-cli: signals: {name} (input size {chosen if isinstance(chosen, (int, str)) else 'big' if chosen != sizes[0] else 'small'}, "
              f"{duration:.2f} s): {interrupted} of {tried} interrupted before they finished", flush=True)

    def run_target(name, extra, attempts):
        nonlocal ran
        instructions = "--instructions" in extra
        directory = h.case_dir(f"signals-{name}")
        tmpdir = h.fresh_tmpdir()
        target = os.path.join(directory, "results")
        arguments = ["run", fx.tiny, "--quick"] + extra + ["--out", target]
        first_call = Call(h, arguments, tmpdir=tmpdir)
        timing = first_call.run(timeout=120)
        if timing.status != 0:
            h.fail(cls, f"{name}/first run", "exit-status", first_call, "exit 0", timing.summary())
            return
        duration = timing.seconds
        # The final writes follow the last progress line before `results:`.
        last_line = [line.startswith("results:") for line in timing.stderr.splitlines()].index(True)
        os.makedirs(os.path.join(target, "charts"))
        write_file(os.path.join(target, "charts", "index.html"), b"<p>kept</p>\n")
        write_file(os.path.join(target, "notes.txt"), b"kept\n")
        clear(tmpdir)
        interrupted = tried = 0
        for attempt in range(attempts):
            sig = sigs[attempt % 3]
            first = attempt == attempts - 1
            if first:
                shutil.rmtree(target)
            late = attempt % 2 == 1 or (instructions and attempt == 0)
            if late:  # during the final writes: a few milliseconds after the last progress line
                moment = rng.uniform(0.0, 0.03)
                when = (moment, sig, last_line)
                case = f"{name}/#{attempt} {signal.Signals(sig).name} {moment * 1000:.0f} ms after stderr line {last_line}"
            else:
                fraction = rng.uniform(0.0, 1.05)
                moment = fraction * duration
                when = (moment, sig)
                case = f"{name}/#{attempt} {signal.Signals(sig).name} at {fraction:.0%} ({moment:.2f} s of {duration:.2f})"
            case += " (no earlier results)" if first else ""
            if not h.wanted(case):
                continue
            ran += 1
            tried += 1
            call = Call(h, arguments, tmpdir=tmpdir)
            outcome = call.run(timeout=120, signal_at=when)
            interrupted += outcome.status == -sig
            h.check_outcome(cls, case, call, outcome, [0, -sig], expected=f"exit by {signal.Signals(sig).name} or finished")
            if os.path.exists(target):
                problem = read_run(target, instructions)
                if not first and not problem and not (os.path.isfile(os.path.join(target, "notes.txt"))
                                                      and os.path.isfile(os.path.join(target, "charts", "index.html"))):
                    problem = f"the directory's other entries are gone: {sorted(os.listdir(target))}"
                if problem:
                    h.fail(cls, case, "interrupted-output", call, "the results absent, the old set or the new set, whole, "
                           "with the directory's other entries (charts/, notes.txt)", f"{target} {problem}")
            elif not first:
                h.fail(cls, case, "interrupted-output", call, "the previous results kept", f"{target} is gone")
            if sig != signal.SIGKILL:
                h.check_clean(cls, case, call, [directory])
            else:
                following = Call(h, arguments, tmpdir=tmpdir)
                after = following.run(timeout=120)
                h.check_outcome(cls, case + " (the next run)", following, after, [0], status_tag="rerun")
                h.check_clean(cls, case + " (the next run sweeps what the SIGKILL left)", following, [directory])
            if not os.path.exists(target) or read_run(target, instructions):
                shutil.rmtree(target, ignore_errors=True)
                Call(h, arguments, tmpdir=tmpdir).run(timeout=120)
                clear(tmpdir)
            os.makedirs(os.path.join(target, "charts"), exist_ok=True)
            write_file(os.path.join(target, "charts", "index.html"), b"<p>kept</p>\n")
            write_file(os.path.join(target, "notes.txt"), b"kept\n")
        print(f"fuzz-cli: signals: {name} ({duration:.2f} s): {interrupted} of {tried} interrupted before they finished", flush=True)

    run_target("run", ["--repetitions", "2"], 7)
    if have_valgrind:
        run_target("run --instructions", ["--repetitions", "1", "--instructions"], 4)
    else:
        print("fuzz-cli: signals: no valgrind; run --instructions not interrupted")
    counts = ["30000", "100000", "300000"]
    file_target("dump", counts, lambda n, out: ["dump", fx.sig, "--mode", "binary", "--items", n, "--out", out],
                lambda n, out: ["dump", fx.sig, "--mode", "binary", "--items", n, "--rect", "0,0,390,2000", "--out", out], 7)
    file_target("render", counts + ["1000000"], lambda n, out: ["render", fx.sig, "--mode", "binary", "--items", n, "--out", out],
                lambda n, out: ["render", fx.sig, "--mode", "binary", "--items", n, "--offset", "100", "--out", out], 7)
    file_target("export", [200, 600, 2000], lambda n, out: ["export", fx.big_summary(n), "--format", "bmf", "--out", out],
                lambda n, out: ["export", fx.big_summary(n), "--format", "github-smaller", "--out", out], 7)
    pairs = [(fx.base, fx.head), (fx.big_base, fx.big_head)]
    file_target("compare", pairs, lambda pair, out: ["compare", *pair, "--out", out],
                lambda pair, out: ["compare", pair[1], pair[0], "--out", out], 7)
    return ran


def clear(directory):
    for entry in os.listdir(directory):
        remove(os.path.join(directory, entry))


def write_file(path, data):
    temporary = path + ".test-writing"
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)


# -- driver --

def run_classes(binary, seed, classes, only_case=None, keep=False):
    """Runs the chosen classes; returns the failures (class, case, tag, text)."""
    become_subreaper()
    h = Harness(binary, seed, only_case, keep)
    started = time.monotonic()
    print(f"fuzz-cli: hardening classes {','.join(classes)} with seed {seed} (scratch {h.root})", flush=True)
    try:
        fx = Fixtures(h, need_big="signals" in classes)
        print(f"fuzz-cli: fixtures made in {time.monotonic() - started:.1f} s", flush=True)
        have_valgrind = shutil.which("valgrind") is not None
        for cls in classes:
            rng = random.Random(f"{seed}-{cls}")
            began, before = time.monotonic(), len(h.failures)
            if cls == "special":
                ran = special_class(h, fx, rng)
            elif cls == "numbers":
                ran = numbers_class(h, fx, rng)
            elif cls == "bomb":
                ran = bomb_class(h, fx, rng)
            elif cls == "stdout":
                ran = stdout_class(h, fx, rng)
            elif cls == "signals":
                ran = signals_class(h, fx, rng, have_valgrind)
            elif cls == "drivers":
                from hardening_drivers import drivers_class
                ran = drivers_class(h, fx, rng)
            elif cls == "streams":
                ran = hardening_streams.streams_class(h, fx, rng)
            failed = len({case for c, case, _, _ in h.failures[before:]})
            print(f"fuzz-cli: {cls}: {ran} cases, {failed} failed, {time.monotonic() - began:.1f} s", flush=True)
    finally:
        h.close()
        while True:  # reap what ended after being re-parented here
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
    if h.failures:
        print(f"fuzz-cli: {len(h.failures)} failed checks by defect:")
        groups = {}
        for cls, case, tag, _ in h.failures:
            groups.setdefault(tag, []).append(f"{cls}: {case}")
        for tag, cases in sorted(groups.items(), key=lambda item: -len(item[1])):
            print(f"  {tag} ({len(cases)}): {DEFECTS[tag]}")
            for case in sorted(set(cases)):
                print(f"    {case}")
        print(f"fuzz-cli: re-run with --seed {seed} --only CLASS [--case TEXT]; --keep keeps the scratch directory")
    print(f"fuzz-cli: hardening classes took {time.monotonic() - started:.1f} s", flush=True)
    return h.failures


import hardening_streams  # noqa: E402 (it imports this module)
