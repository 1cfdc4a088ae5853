"""The time samples of a samples.csv for plot.py, read with numpy: the same rows, checks and errors as
results_csv.time_series_from_samples (which steps.py uses, on a python3 that may lack numpy), but
numpy splits the rows and reads the numbers, and only the time values are kept."""
import gzip
import zlib

import numpy as np

from results_csv import SAMPLES_HEADER, SCHEMAS, InputError, time_series_from_samples


# The fast reader takes the decompressed file this many bytes at a time (then up to a line end).
CHUNK_BYTES = 1 << 24


class _NotPlain(Exception):
    """Something in a samples.csv that the fast reader leaves to the csv module: another header, a
    quoted field, a CR or NUL, a byte beyond ASCII, a row of the wrong length or schema or longer than
    a chunk, an items or value field that does not read as a number. The csv module then reads the
    file again from its start, and names the line if it is bad."""


def time_samples(path):
    """{(scenario, mode, items, operation): {(run_id, repetition): values}} of the time metric, the
    values of each process one numpy array in the order of the file: what
    time_series_from_samples(path, by_process=True) reads, with the same checks and errors, but numpy
    splits the rows and reads the numbers. The file is read a chunk at a time and only the time
    values are kept."""
    try:
        pieces = _plain_time_pieces(path)
    except _NotPlain:
        series, _ = time_series_from_samples(path, by_process=True)
        return {key: {process: np.array(values, dtype=np.float64) for process, values in by_process.items()}
                for key, by_process in series.items()}
    for by_process in pieces.values():
        for process, parts in by_process.items():
            by_process[process] = np.concatenate(parts)
    return pieces


def _plain_time_pieces(path):
    """{key: {process: [arrays of values]}} of a plain samples.csv (see _NotPlain), chunk by chunk."""
    pieces = {}
    try:
        with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as f:
            if f.readline() != (",".join(SAMPLES_HEADER) + "\n").encode():
                raise _NotPlain  # no header or another one: the csv module's reader says which
            rest = b""
            while True:
                block = f.read(CHUNK_BYTES)
                text = rest + block
                if block:
                    end = text.rfind(b"\n") + 1
                    if end == 0 and len(text) > CHUNK_BYTES:
                        raise _NotPlain  # a row longer than a chunk: no row of samples.csv is
                    text, rest = text[:end], text[end:]
                elif text and not text.endswith(b"\n"):
                    text += b"\n"  # the last row without a line end
                if text:
                    _add_plain_rows(text, pieces)
                if not block:
                    return pieces
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error})")
    except (EOFError, zlib.error) as error:
        raise InputError(f"{path}: not a CSV file ({error})")


def _add_plain_rows(text, pieces):
    """Adds the time rows of text (whole rows, each ending in a line feed) to pieces: numpy finds
    the commas and line ends, picks the time rows, reads their values and finds the runs of rows of
    one scenario, mode, items, operation and process; Python reads the fields of each run once."""
    if b'"' in text or b"\r" in text or b"\0" in text or not text.isascii():
        raise _NotPlain
    separators = len(SAMPLES_HEADER) - 1
    buffer = np.frombuffer(text, dtype=np.uint8)
    ends = np.flatnonzero(buffer == ord("\n"))
    commas = np.flatnonzero(buffer == ord(","))
    # Every row has 12 commas: as many as the row's number times 12 come before its line end.
    before_ends = np.searchsorted(commas, ends)
    if len(commas) != separators * len(ends) or np.any(before_ends != separators * np.arange(1, len(ends) + 1)):
        raise _NotPlain
    commas = commas.reshape(len(ends), separators)  # column j: the comma after field j
    starts = np.concatenate(([0], ends[:-1] + 1))
    known_schema = np.logical_or.reduce([_field_is(buffer, starts, commas[:, 0], version) for version in SCHEMAS])
    if not np.all(known_schema):
        raise _NotPlain
    timed = (_field_is(buffer, commas[:, 9] + 1, commas[:, 10], "time")
             & ~_field_is(buffer, commas[:, 11] + 1, ends, "unsupported"))
    starts, prefix_ends = starts[timed], commas[timed, 8]
    value_starts, value_ends = commas[timed, 11] + 1, ends[timed]
    if len(starts) == 0:
        return
    if np.any(value_ends == value_starts):
        raise _NotPlain  # an empty value: no number
    try:
        values = _padded_fields(text, value_starts, value_ends).astype(np.float64)
    except ValueError:
        raise _NotPlain
    # A run: rows whose first nine fields (schema ... repetition) are those of the row before.
    runs = np.flatnonzero(~_same_as_previous(text, starts, prefix_ends))
    for first, last in zip(runs, np.append(runs[1:], len(starts))):
        fields = text[starts[first]:prefix_ends[first]].decode("ascii").split(",")
        try:
            items = int(fields[6])
        except ValueError:
            raise _NotPlain
        key, process = (fields[3], fields[5], items, fields[7]), (fields[1], fields[8])
        pieces.setdefault(key, {}).setdefault(process, []).append(values[first:last])


def _field_is(buffer, firsts, lasts, word):
    """Per row, whether its bytes firsts..lasts (a field) are word: a byte at a time, of the rows
    still alike."""
    alike = np.flatnonzero(lasts - firsts == len(word))
    for offset, byte in enumerate(word.encode()):
        alike = alike[buffer[firsts[alike] + offset] == byte]
    equal = np.zeros(len(firsts), dtype=bool)
    equal[alike] = True
    return equal


def _same_as_previous(text, firsts, lasts):
    """Per row, whether its bytes firsts..lasts are those of the row before (the first row: no),
    compared eight bytes at a time (the last eight of them overlapping the eight before)."""
    lengths = lasts - firsts
    if lengths.min() < 8:
        raise _NotPlain
    # The eight bytes from every position of the text, as one unsigned integer each.
    words = np.ndarray((len(text) - 7,), dtype="<u8", buffer=text, strides=(1,))
    same = np.zeros(len(firsts), dtype=bool)
    same[1:] = lengths[1:] == lengths[:-1]
    for offset in range(0, int(lengths.max()), 8):
        word = words[firsts + np.minimum(offset, lengths - 8)]
        same[1:] &= word[1:] == word[:-1]
    return same


def _padded_fields(text, firsts, lasts):
    """The bytes firsts..lasts of each row as a numpy array of fixed-width byte strings (padded with
    zero bytes, which the text has none of: numpy converts those to numbers)."""
    width = max(1, int((lasts - firsts).max()))
    padded = np.frombuffer(text + bytes(width), dtype=np.uint8)
    windows = np.lib.stride_tricks.sliding_window_view(padded, width)[firsts]
    windows[np.arange(width) >= (lasts - firsts)[:, None]] = 0
    return windows.view(f"S{width}").ravel()
