"""Reading the CSV files that layout-bench writes, shared by plot.py and steps.py: every problem is
one InputError that names the file, the line and the field (no traceback for a malformed file)."""
import csv
import gzip
import json
import os
import zlib

# The columns of every results CSV, as the harness defines them (`layout-bench list --json`'s "csv",
# written into results_schema.json by scripts/docs-tables, whose --check keeps it current).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "results_schema.json"), encoding="utf-8") as _schema:
    SCHEMA = json.load(_schema)
SAMPLES_HEADER = SCHEMA["samples"]
SUMMARY_HEADER = SCHEMA["summary"]
COMPARE_HEADER = SCHEMA["compare"]
CAUSES_HEADER = SCHEMA["causes"]
FAILURES_HEADER = SCHEMA["failures"]
SCHEMAS = ("1", "2")  # 2: peak_rss is one group-level row (empty mode); time rows are the same in both


class InputError(Exception):
    pass


def open_csv(path):
    """A text stream of the CSV file at path, decompressed when its name ends in .gz."""
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")


def samples_path(directory):
    """The samples of a results directory: samples.csv.gz (what runs write), else samples.csv
    (older runs), else None."""
    for name in ("samples.csv.gz", "samples.csv"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    return None


def read_csv(path):
    """(header, rows) of the CSV file at path (gzip-compressed when it ends in .gz)."""
    try:
        with open_csv(path) as f:
            rows = list(csv.reader(f))
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error})")
    except (csv.Error, UnicodeDecodeError, EOFError) as error:
        raise InputError(f"{path}: not a CSV file ({error})")
    if not rows:
        raise InputError(f"{path}: empty file (expected a header row)")
    return rows[0], rows[1:]


def _time_rows(path, rows):
    """(key, process, workload, value) of each time row among the rows of a samples.csv after its
    header, key (scenario, mode, items, operation) and process (run_id, repetition); every row is
    checked, the first bad one is an InputError naming its line and field."""
    for number, row in enumerate(rows, start=2):
        if len(row) != len(SAMPLES_HEADER):
            raise InputError(f"{path}: line {number}: {len(row)} fields, header has {len(SAMPLES_HEADER)}")
        if row[0] not in SCHEMAS:
            raise InputError(f"{path}: line {number}: schema version {row[0]}; this script reads versions {', '.join(SCHEMAS)}")
        if row[10] != "time" or row[12] == "unsupported":
            continue
        try:
            items = int(row[6])
        except ValueError:
            raise InputError(f"{path}: line {number}: items: expected an integer, got '{row[6]}'")
        try:
            value = float(row[12])
        except ValueError:
            raise InputError(f"{path}: line {number}: value: expected a number, got '{row[12]}'")
        yield (row[3], row[5], items, row[7]), (row[1], row[8]), row[4], value


def _samples_rows(path):
    """The rows of the samples.csv at path after its header (checked), read as they are needed."""
    try:
        with open_csv(path) as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise InputError(f"{path}: empty file (expected a header row)")
            if header != SAMPLES_HEADER:
                raise InputError(f"{path}: not a samples.csv (header {','.join(header[:4])},...)")
            yield from reader
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error})")
    except (csv.Error, UnicodeDecodeError, EOFError, zlib.error) as error:
        raise InputError(f"{path}: not a CSV file ({error})")


def time_series_from_samples(path, by_process=False):
    """{(scenario, mode, items, operation): [values]} of the time metric, and the scenario workloads;
    by_process: {(scenario, mode, items, operation): {(run_id, repetition): [values]}}, the values of
    each process (a scenario's modes share their processes, which take turns). The file is read row
    by row, never held whole (samples_numpy.time_samples is plot.py's faster reader)."""
    series, workloads = {}, {}
    for key, process, workload, value in _time_rows(path, _samples_rows(path)):
        if by_process:
            series.setdefault(key, {}).setdefault(process, []).append(value)
        else:
            series.setdefault(key, []).append(value)
        workloads[key[0]] = workload
    return series, workloads
