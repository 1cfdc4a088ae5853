#!/usr/bin/env python3
"""Independent references for constraint templates (docs/scenario-format.md, constraint templates).

Given a `templates` object (docs/scenario-format.md) and rows {"template", "text", "detail", "width"}, this computes
each row's FITTING height: contentView.height after pass 2 (before the 0.5 pt separator and the
44 pt fallback). Two references, neither sharing code with the Swift engine:

  lp    scipy.optimize.linprog(method="highs"): the lexicographic problem solved level by level
        exactly as docs/scenario-format.md states it. Required constraints are hard; then for each non-required
        priority level, highest first, the sum of that level's errors is minimised (e+ and e-
        >= 0 for ==, one violation variable for >= and <=) and fixed at its optimum (plus
        1e-9 + 1e-12 of it, see LexLP) before the next level. Both passes. It also tells
        whether a row depends on an ambiguous layout (see lp_measure).
  kiwi  kiwisolver (the Cassowary solver matplotlib uses). kiwi weighs priorities into one
        objective, so a template is eligible only when it has at most five distinct
        non-required priorities; they are ranked, highest first, onto the strengths
        strong (1e6), medium (1e3), weak (1), weak x 1e-3, weak x 1e-6. For a template whose
        priorities are exactly 999, 750, 250 and 50 that is 999 -> strong, 750 -> medium,
        250 -> weak, 50 -> weak scaled down; with labels' default hugging 251 as well it is
        999, 750, 251, 250, 50 -> 1e6, 1e3, 1, 1e-3, 1e-6. Adjacent levels are 1000x apart,
        far more than any trade-off ratio a cell template makes (its multipliers are < 4).

The text model (greedy word wrap, advances by character class) is a re-implementation of the
facts of Sources/LayoutEngine/Measurement/TemplateCell.swift, see `line_count`.

Module use:   refs = Oracle(templates); refs.lp_height(row); refs.kiwi_height(row)
CLI:          template_oracle.py FILE [--kiwi]
              FILE is {"templates": {...}, "rows": [...]}; prints one JSON object a line,
              {"row": i, "lp": h, "kiwi": h|null, "ambiguous": bool}.
"""
from __future__ import annotations

import json
import math
import re
import sys

# ---------------------------------------------------------------------------------------------
# The text model.

SPACE_ADVANCE = 4.5
MAX_LINES_PER_WORD = 1e12


def _advance_table():
    t = [8.0] * 256  # other punctuation and symbols
    for c in range(0x61, 0x7B):
        t[c] = 9.0    # lowercase
    for c in range(0x41, 0x5B):
        t[c] = 11.5   # uppercase
    for c in range(0x30, 0x3A):
        t[c] = 10.0   # digits
    for ch in "ijlI.,:;'!|":
        t[ord(ch)] = 4.5
    for ch in "frt()[]-":
        t[ord(ch)] = 6.0
    for ch in "mw":
        t[ord(ch)] = 13.5
    for ch in "MW@%":
        t[ord(ch)] = 15.5
    for c in range(0x80, 0xC0):
        t[c] = 0.0    # UTF-8 continuation bytes
    for c in range(0xC0, 0x100):
        t[c] = 15.0   # lead byte of a non-ASCII character: one wide glyph
    for c in list(range(0x00, 0x20)) + [0x7F]:
        t[c] = 0.0    # control characters
    return t


ADVANCE = _advance_table()
_BREAKS = (0x20, 0x0A, 0x09)


class RealFont:
    """A label with a font (docs/text.md): measured by scripts/text_oracle.py (uharfbuzz and
    PyICU), in place of the table model. Stands where a table label's fontScale stands."""

    def __init__(self, family, size):
        self.family, self.size = family, float(size)

    def __repr__(self):
        return f"RealFont({self.family!r}, {self.size})"


def _text_oracle():
    import text_oracle  # scripts/ is on the path of every caller of this module
    return text_oracle


def one_line_width(text: str, font_scale) -> float:
    """The label's intrinsic width: its whole text on one line (spaces 4.5, tabs 4 spaces,
    a line feed nothing), in table units times fontScale; for a RealFont, the text oracle's."""
    if isinstance(font_scale, RealFont):
        return _text_oracle().intrinsic_width(text, font_scale.family, font_scale.size)
    total = 0.0
    for b in text.encode("utf-8"):
        if b == 0x20:
            total += SPACE_ADVANCE
        elif b == 0x09:
            total += 4 * SPACE_ADVANCE
        else:
            total += ADVANCE[b]
    return total * font_scale


SNAP_BREAKPOINTS = True  # False: TemplateCell's literal `<=` on the rounded limit (--literal-wrap)


def wrap_limit(width: float, font_scale: float, snap: bool | None = None) -> float:
    """The line width in table units for a label `width` points wide (at least 1 pt).

    Every advance is a multiple of 0.5 table units, so lines break only where the limit crosses
    a multiple of 0.5. A limit within 1e-7 of one is taken to be on it: the width an exact
    solver gives (e.g. 295, or a label at exactly its intrinsic width) is then not turned into
    one more line by a rounding error in the last bit (295 * 0.88 / 0.88 < 295)."""
    w = width if width > 1 else 1.0
    limit = w / (font_scale if font_scale > 0 else 1.0)
    snapped = round(limit * 2) / 2
    if (SNAP_BREAKPOINTS if snap is None else snap) and abs(limit - snapped) <= 1e-7:
        limit = snapped
    return limit


def line_count(text: str, width: float, font_scale: float, snap: bool | None = None) -> int:
    """Lines of greedy word wrap at `width` points.

    Words are runs of bytes other than space, tab and line feed. A word goes on the current
    line when the line's width so far, the spaces before the word and the word fit the limit;
    otherwise it starts a new line (the spaces before it are dropped). A word longer than a line
    is split continuously: it fills whole lines and its remainder opens the next line, which
    later words may share. A line feed ends the line (an empty line still counts). A tab is four
    spaces. For a RealFont, the text oracle's lines (its own 1e-6 pt tolerance; no snapping)."""
    if isinstance(font_scale, RealFont):
        return _text_oracle().layout(text, font_scale.family, font_scale.size, width, 0)[1]
    limit = wrap_limit(width, font_scale, snap)
    lines = 0
    used = 0.0
    open_line = False
    spaces = 0.0
    word = 0.0
    in_word = False

    def place(word, spaces, lines, used, open_line):
        if open_line:
            if used + spaces + word <= limit:
                return lines, used + (spaces + word), True
            lines += 1
        if word <= limit:
            return lines, word, True
        wrapped = math.ceil(word / limit) - 1
        full = MAX_LINES_PER_WORD if math.isnan(wrapped) else min(float(wrapped), MAX_LINES_PER_WORD)
        return lines + int(full), word - full * limit, True

    for b in text.encode("utf-8"):
        if b in _BREAKS:
            if in_word:
                lines, used, open_line = place(word, spaces, lines, used, open_line)
                in_word = False
                word = 0.0
                spaces = 0.0
            if b == 0x0A:
                lines += 1
                used = 0.0
                open_line = False
                spaces = 0.0
            else:
                spaces += 4 * SPACE_ADVANCE if b == 0x09 else SPACE_ADVANCE
        else:
            word += ADVANCE[b]
            in_word = True
    if in_word:
        lines, used, open_line = place(word, spaces, lines, used, open_line)
    return lines + 1 if open_line else lines


# ---------------------------------------------------------------------------------------------
# Templates: parsing and checking (docs/scenario-format.md, constraint templates).

class TemplateError(ValueError):
    pass


REQUIRED = 1000.0
FITTING_LEVEL = 50.0

# attribute -> (axis, {variable: coefficient}); a view's variables are x, y, w, h.
ATTRIBUTES = {
    "leading": ("x", {"x": 1.0}),
    "trailing": ("x", {"x": 1.0, "w": 1.0}),
    "centerX": ("x", {"x": 1.0, "w": 0.5}),
    "width": ("x", {"w": 1.0}),
    "top": ("y", {"y": 1.0}),
    "bottom": ("y", {"y": 1.0, "h": 1.0}),
    "centerY": ("y", {"y": 1.0, "h": 0.5}),
    "height": ("y", {"h": 1.0}),
}
_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_ITEM = r"([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z]+)"
_REL = r"(==|>=|<=)"
_PRIO = r"(?:\s*@\s*(" + _NUM + r"))?"
_TWO_ITEMS = re.compile(r"^\s*" + _ITEM + r"\s*" + _REL + r"\s*(?:(" + _NUM + r")\s*\*\s*)?" + _ITEM
                        + r"(?:\s*([+-])\s*((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?))?" + _PRIO + r"\s*$")
_CONSTANT = re.compile(r"^\s*" + _ITEM + r"\s*" + _REL + r"\s*(" + _NUM + r")" + _PRIO + r"\s*$")


class Constraint:
    """`sum(coef * var) + constant  REL  0` at `priority`; variables are (view, 'x'|'y'|'w'|'h')."""
    __slots__ = ("terms", "constant", "relation", "priority", "source")

    def __init__(self, terms, constant, relation, priority, source):
        self.terms = {k: v for k, v in terms.items() if v != 0.0}
        self.constant = constant
        self.relation = relation
        self.priority = priority
        self.source = source

    def __repr__(self):
        return f"Constraint({self.source!r})"


def _terms(item, attr, scale):
    return {(item, var): c * scale for var, c in ATTRIBUTES[attr][1].items()}


def _add(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) + v
    return out


def _priority(text, where):
    if text is None:
        return REQUIRED
    p = float(text)
    if not (1 <= p <= 1000):
        raise TemplateError(f"{where}: priority {text} outside 1...1000")
    return p


def parse_constraint(text, items, where):
    """Parses one constraint string (docs/scenario-format.md). `items` is the set of names ITEM may take."""
    if not isinstance(text, str):
        raise TemplateError(f"{where}: a constraint is a string")
    m = _TWO_ITEMS.match(text)
    if m:
        li, la, rel, mult, ri, ra, sign, const, prio = m.groups()
        for item, attr in ((li, la), (ri, ra)):
            if item not in items:
                raise TemplateError(f"{where}: unknown view '{item}' in {text!r}")
            if attr not in ATTRIBUTES:
                raise TemplateError(f"{where}: unknown attribute '{attr}' in {text!r}")
        lax, rax = ATTRIBUTES[la][0], ATTRIBUTES[ra][0]
        if lax != rax and not (la in ("width", "height") and ra in ("width", "height")):
            raise TemplateError(f"{where}: {la} and {ra} are on different axes in {text!r}")
        multiplier = float(mult) if mult is not None else 1.0
        constant = float(const) if const is not None else 0.0
        if sign == "-":
            constant = -constant
        # lhs - (multiplier * rhs + constant)  REL  0
        terms = _add(_terms(li, la, 1.0), _terms(ri, ra, -multiplier))
        return Constraint(terms, -constant, rel, _priority(prio, where), text)
    m = _CONSTANT.match(text)
    if m:
        li, la, rel, const, prio = m.groups()
        if li not in items:
            raise TemplateError(f"{where}: unknown view '{li}' in {text!r}")
        if la not in ATTRIBUTES:
            raise TemplateError(f"{where}: unknown attribute '{la}' in {text!r}")
        if la not in ("width", "height"):
            raise TemplateError(f"{where}: only width and height may equal a constant, in {text!r}")
        return Constraint(_terms(li, la, 1.0), -float(const), rel, _priority(prio, where), text)
    raise TemplateError(f"{where}: malformed constraint {text!r}")


class View:
    __slots__ = ("name", "label", "intrinsic_w", "intrinsic_h", "hug_h", "hug_v", "cr_h", "cr_v")


_VIEW_KEYS = {"intrinsic", "label", "hugging", "compressionResistance"}
_LABEL_KEYS = {"text", "lineHeight", "fontScale", "lines", "font"}


def _number(value, where, minimum=None):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TemplateError(f"{where}: expected a number")
    if minimum is not None and value < minimum:
        raise TemplateError(f"{where}: expected a number >= {minimum}")
    return float(value)


def _pair(obj, where, default_h, default_v):
    if obj is None:
        return default_h, default_v
    if not isinstance(obj, dict) or set(obj) - {"horizontal", "vertical"}:
        raise TemplateError(f"{where}: expected {{\"horizontal\": P, \"vertical\": P}}")
    h = _priority(str(obj["horizontal"]), where) if "horizontal" in obj else default_h
    v = _priority(str(obj["vertical"]), where) if "vertical" in obj else default_v
    return h, v


class Template:
    def __init__(self, name, spec):
        where = f"template '{name}'"
        if not isinstance(spec, dict) or set(spec) - {"views", "constraints"}:
            raise TemplateError(f"{where}: expected {{\"views\": ..., \"constraints\": [...]}}")
        self.name = name
        self.views = {}
        for vname, v in (spec.get("views") or {}).items():
            vw = f"{where}, view '{vname}'"
            if vname == "contentView" or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", vname):
                raise TemplateError(f"{vw}: invalid view name")
            if not isinstance(v, dict) or set(v) - _VIEW_KEYS:
                raise TemplateError(f"{vw}: unknown keys {sorted(set(v) - _VIEW_KEYS)}")
            if "label" in v and "intrinsic" in v:
                raise TemplateError(f"{vw}: a view is a label or has an intrinsic size, not both")
            view = View()
            view.name = vname
            view.label = None
            view.intrinsic_w = view.intrinsic_h = None
            if "label" in v:
                lab = v["label"]
                if not isinstance(lab, dict) or set(lab) - _LABEL_KEYS or lab.get("text") not in ("text", "detail"):
                    raise TemplateError(f"{vw}: a label is {{\"text\": \"text\"|\"detail\", ...}}")
                lines = lab.get("lines", 0)
                if isinstance(lines, bool) or not isinstance(lines, int) or lines < 0:
                    raise TemplateError(f"{vw}: lines is an integer >= 0")
                if "font" in lab:
                    font = lab["font"]
                    if not isinstance(font, dict) or set(font) != {"family", "size"} or "fontScale" in lab:
                        raise TemplateError(f"{vw}: font is {{\"family\": F, \"size\": S}}, without fontScale")
                    real = RealFont(font["family"], _number(font["size"], vw, 0))
                    height = lab.get("lineHeight", "font")
                    if height == "font":
                        height = _text_oracle().line_height(real.family, real.size)
                    view.label = (lab["text"], _number(height, vw, 0), real, lines)
                else:
                    view.label = (lab["text"], _number(lab.get("lineHeight", 20.5), vw, 0),
                                  _number(lab.get("fontScale", 1.0), vw, 0), lines)
            if "intrinsic" in v:
                intr = v["intrinsic"]
                if not isinstance(intr, dict) or set(intr) - {"width", "height"}:
                    raise TemplateError(f"{vw}: intrinsic is {{\"width\": W, \"height\": H}}")
                if "width" in intr:
                    view.intrinsic_w = _number(intr["width"], vw)
                if "height" in intr:
                    view.intrinsic_h = _number(intr["height"], vw)
            default_hug = 251.0 if view.label else 250.0
            view.hug_h, view.hug_v = _pair(v.get("hugging"), vw, default_hug, default_hug)
            view.cr_h, view.cr_v = _pair(v.get("compressionResistance"), vw, 750.0, 750.0)
            self.views[vname] = view
        items = set(self.views) | {"contentView"}
        cons = spec.get("constraints")
        if not isinstance(cons, list):
            raise TemplateError(f"{where}: constraints is a list of strings")
        self.constraints = [parse_constraint(c, items, f"{where}, constraint {i}") for i, c in enumerate(cons)]
        self.labels = [v for v in self.views.values() if v.label]

    def pinned_labels(self):
        """Labels whose width the required equalities alone determine (at any width): no
        ambiguity check is needed for them. Cached; linear algebra on the required rows."""
        if getattr(self, "_pinned", None) is None:
            import numpy as np
            index = {v: i for i, v in enumerate(self.variables())}
            rows = [c.terms for c in self.constraints if c.priority >= REQUIRED and c.relation == "=="]
            rows += [{("contentView", "x"): 1.0}, {("contentView", "y"): 1.0}, {("contentView", "w"): 1.0}]
            a = np.zeros((len(rows), len(index)))
            for k, r in enumerate(rows):
                for var, coef in r.items():
                    a[k, index[var]] = coef
            rank = np.linalg.matrix_rank(a)
            self._pinned = set()
            for v in self.labels:
                e = np.zeros((1, len(index)))
                e[0, index[(v.name, "w")]] = 1.0
                if np.linalg.matrix_rank(np.vstack([a, e])) == rank:
                    self._pinned.add(v.name)
        return self._pinned

    def variables(self):
        names = ["contentView"] + list(self.views)
        return [(n, a) for n in names for a in "xywh"]

    def system(self, row, label_lines=None):
        """All constraints of one pass at the row's width. `label_lines` maps a label to its line
        count (pass 2); without it every label is one line tall (pass 1; 0 for empty text)."""
        width = float(row["width"])
        out = list(self.constraints)
        for v in self.views.values():
            iw, ih = v.intrinsic_w, v.intrinsic_h
            if v.label:
                source, line_height, scale, max_lines = v.label
                text = row.get(source) or ""
                iw = one_line_width(text, scale)
                if label_lines is None:
                    lines = 1 if text else 0
                else:
                    lines = label_lines[v.name]
                    if max_lines > 0:
                        lines = min(lines, max_lines)
                ih = line_height * lines
            if iw is not None:
                out.append(Constraint({(v.name, "w"): 1.0}, -iw, ">=", v.cr_h, f"{v.name} intrinsic width >= {iw}"))
                out.append(Constraint({(v.name, "w"): 1.0}, -iw, "<=", v.hug_h, f"{v.name} intrinsic width <= {iw}"))
            if ih is not None:
                out.append(Constraint({(v.name, "h"): 1.0}, -ih, ">=", v.cr_v, f"{v.name} intrinsic height >= {ih}"))
                out.append(Constraint({(v.name, "h"): 1.0}, -ih, "<=", v.hug_v, f"{v.name} intrinsic height <= {ih}"))
        cv = "contentView"
        out.append(Constraint({(cv, "x"): 1.0}, 0.0, "==", REQUIRED, "contentView.leading == 0"))
        out.append(Constraint({(cv, "y"): 1.0}, 0.0, "==", REQUIRED, "contentView.top == 0"))
        out.append(Constraint({(cv, "w"): 1.0}, -width, "==", REQUIRED, f"contentView.width == {width}"))
        out.append(Constraint({(cv, "h"): 1.0}, 0.0, "==", FITTING_LEVEL, "contentView.height == 0 @50"))
        return out

    def lines_at(self, row, widths):
        """Each label's line count at the pass-1 width it was given."""
        out = {}
        for v in self.labels:
            source, _, scale, _ = v.label
            out[v.name] = line_count(row.get(source) or "", widths[v.name], scale)
        return out

    def soft_levels(self):
        """The distinct non-required priorities of any pass (template, intrinsic sizes, fitting)."""
        levels = {c.priority for c in self.constraints}
        for v in self.views.values():
            if v.label or v.intrinsic_w is not None:
                levels |= {v.hug_h, v.cr_h}
            if v.label or v.intrinsic_h is not None:
                levels |= {v.hug_v, v.cr_v}
        levels.add(FITTING_LEVEL)
        levels.discard(REQUIRED)
        return sorted(levels, reverse=True)


def load_templates(obj):
    if not isinstance(obj, dict):
        raise TemplateError("templates: expected an object of name -> template")
    return {name: Template(name, spec) for name, spec in obj.items()}


class Unsatisfiable(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# The LP reference.

class _TooTight(Exception):
    pass



def _share_highs_options_manager():
    """scipy's HiGHS wrapper builds a HighsOptionsManager (HiGHS's table of every option) once
    per option it checks and once more per solve: eight per linprog call here, about 40% of the
    oracle's time. The manager only answers questions about option names and values, so one
    instance answers them all; the options set, and so every solve, are the same. Without that
    private module (another scipy), linprog runs as it is."""
    try:
        from scipy.optimize._highspy import _highs_options as hopt
    except ImportError:
        return
    make = getattr(hopt, "HighsOptionsManager", None)
    if make is None or getattr(make, "_layoutbench_shared", False):
        return
    shared = make()

    def one_manager():
        return shared

    one_manager._layoutbench_shared = True
    hopt.HighsOptionsManager = one_manager


class LexLP:
    """One pass: required constraints hard, then each priority level's error sum minimised and
    fixed, highest level first (docs/scenario-format.md). `skip_level` drops one level (for the mutation test)."""

    # A level is fixed at its optimum plus TOL_ABS + TOL_REL x optimum. Should HiGHS find the
    # next level infeasible (its tolerances are 1e-10 on values up to thousands), the pass is
    # solved again with tolerances 10 and 100 times larger; `retries` counts these.
    TOL_ABS, TOL_REL = 1e-9, 1e-12
    RETRY_SCALES = (1.0, 10.0, 100.0)
    OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

    def __init__(self, variables, constraints, skip_level=None):
        import numpy as np
        from scipy.optimize import linprog
        _share_highs_options_manager()
        self._np, self._linprog = np, linprog
        self.index = {v: i for i, v in enumerate(variables)}
        n = len(variables)
        eq_rows, eq_rhs, ub_rows, ub_rhs = [], [], [], []
        self.level_errors = {}  # priority -> [error variable indices]
        self.level_cons = {}    # priority -> [(row over view variables, constant, relation)]
        self.constraints = constraints

        def row(c):
            r = {}
            for k, a in c.terms.items():
                r[self.index[k]] = a
            return r

        for c in constraints:
            r = row(c)
            if c.priority >= REQUIRED:
                if c.relation == "==":
                    eq_rows.append(r); eq_rhs.append(-c.constant)
                elif c.relation == ">=":
                    ub_rows.append({i: -a for i, a in r.items()}); ub_rhs.append(c.constant)
                else:
                    ub_rows.append(r); ub_rhs.append(-c.constant)
                continue
            errs = self.level_errors.setdefault(c.priority, [])
            self.level_cons.setdefault(c.priority, []).append((dict(r), c.constant, c.relation))
            if c.relation == "==":
                ep, em = n, n + 1
                n += 2
                r[ep] = -1.0; r[em] = 1.0
                eq_rows.append(r); eq_rhs.append(-c.constant)
                errs += [ep, em]
            elif c.relation == ">=":
                s = n
                n += 1
                r = {i: -a for i, a in r.items()}
                r[s] = -1.0
                ub_rows.append(r); ub_rhs.append(c.constant)
                errs.append(s)
            else:
                s = n
                n += 1
                r[s] = -1.0
                ub_rows.append(r); ub_rhs.append(-c.constant)
                errs.append(s)
        self.n = n
        self.nviews = len(variables)
        self.eq = (eq_rows, eq_rhs)
        self.ub = (ub_rows, ub_rhs)
        self.bounds = [(None, None)] * len(variables) + [(0.0, None)] * (n - len(variables))
        self.levels = sorted(self.level_errors, reverse=True)
        if skip_level is not None:
            self.levels = [p for p in self.levels if p != skip_level]
        self.lp_calls = 0
        self.retries = 0
        base = (list(self.ub[0]), list(self.ub[1]), list(self.bounds))
        for attempt, scale in enumerate(self.RETRY_SCALES):
            self.ub = (list(base[0]), list(base[1]))
            self.bounds = list(base[2])
            self.tol_abs, self.tol_rel = self.TOL_ABS * scale, self.TOL_REL * scale
            try:
                self.x = self._solve_levels()
                break
            except _TooTight as e:
                if attempt + 1 == len(self.RETRY_SCALES):
                    raise RuntimeError(f"linprog: {e}, with tolerances up to {self.tol_abs:g}")
                self.retries += 1

    def _dense(self, rows, rhs):
        np = self._np
        if not rows:
            return None, None
        a = np.zeros((len(rows), self.n))
        for k, r in enumerate(rows):
            for i, v in r.items():
                a[k, i] = v
        return a, np.array(rhs, dtype=float)

    def _lp(self, c):
        a_eq, b_eq = self._dense(*self.eq)
        a_ub, b_ub = self._dense(*self.ub)
        self.lp_calls += 1
        return self._linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=self.bounds,
                             method="highs", options=self.OPTIONS)

    def _solve_levels(self):
        np = self._np
        x = None
        for p in self.levels + [None]:
            if p is None:
                if x is None:  # no soft constraints: any feasible point
                    res = self._lp(np.zeros(self.n))
                    if res.status != 0:
                        raise Unsatisfiable("required constraints cannot all hold")
                    x = res.x
                break
            errs = self.level_errors[p]
            residual = self._level_error(p, x) if x is not None else math.inf
            if residual <= 1e-9:
                # The current point's views already satisfy the level: its optimum is 0. Its
                # errors are bounded by what they are there (HiGHS's residuals, ~1e-10).
                for i in errs:
                    self.bounds[i] = (0.0, residual + self.tol_abs)
                continue
            else:
                c = np.zeros(self.n)
                c[errs] = 1.0
                res = self._lp(c)
                if res.status == 2:
                    if x is not None:  # feasible before: the fixing of a level was too tight
                        raise _TooTight(f"level {p:g} infeasible after fixing the levels above")
                    raise Unsatisfiable("required constraints cannot all hold")
                if res.status != 0:
                    raise RuntimeError(f"linprog: {res.message}")
                x = res.x
                # HiGHS's optimum and its point differ in the last digits (its tolerances, on
                # values up to thousands of points): the level is fixed at what the point achieves,
                # so that the point stays feasible for the next level, plus a tolerance.
                achieved = max(res.fun, self._level_error(p, x))
                if achieved <= 1e-9:
                    for i in errs:
                        self.bounds[i] = (0.0, achieved + self.tol_abs)
                else:
                    self.ub[0].append({i: 1.0 for i in errs})
                    self.ub[1].append(achieved + self.tol_abs + self.tol_rel * achieved)
        return x

    def _level_error(self, p, x):
        """The errors of level p's constraints at the view values of x (not its error variables,
        which an earlier level's optimum leaves wherever they may be)."""
        total = 0.0
        for row, constant, relation in self.level_cons[p]:
            v = constant + sum(a * x[i] for i, a in row.items())
            total += abs(v) if relation == "==" else max(0.0, -v) if relation == ">=" else max(0.0, v)
        return total

    def value(self, var):
        return float(self.x[self.index[var]])

    def range_of(self, weights):
        """(min, max) of sum(w * var) over the lexicographic optimum; None when unbounded."""
        np = self._np
        c = np.zeros(self.n)
        for var, w in weights.items():
            c[self.index[var]] = w
        lo = self._lp(c)
        hi = self._lp(-c)
        if lo.status != 0 or hi.status != 0:
            return None
        return lo.fun, -hi.fun


class Result:
    __slots__ = ("height", "widths", "lines", "ambiguous", "why", "lp_calls", "breakpoint", "retries")

    def __init__(self):
        self.breakpoint = False  # a label's pass-1 width is on a wrap breakpoint (see wrap_limit)
        self.ambiguous = False
        self.why = ""
        self.lp_calls = 0


AMBIGUITY = 1e-6


def lp_measure(template, row, check_ambiguity=True, skip_level=None, rng=None):
    """The fitting height by the LP reference, with pass 1's label widths and line counts.
    With `check_ambiguity`, `ambiguous` tells whether the row depends on an undetermined
    pass-1 label width (one whose line count changes over its optimal range) or has an
    undetermined fitting height; such rows are left out of the checks (docs/scenario-format.md: no check relies on them)."""
    import random as _random
    rng = rng or _random.Random(0)
    variables = template.variables()
    out = Result()
    p1 = LexLP(variables, template.system(row), skip_level)
    widths = {v.name: p1.value((v.name, "w")) for v in template.labels}
    lines = template.lines_at(row, widths)
    for v in template.labels:
        text, scale = row.get(v.label[0]) or "", v.label[2]
        if line_count(text, widths[v.name], scale, True) != line_count(text, widths[v.name], scale, False):
            out.breakpoint = True
    calls = p1.lp_calls
    if check_ambiguity:
        pinned = template.pinned_labels()
        texts = [v for v in template.labels if row.get(v.label[0]) and v.name not in pinned]
        if texts:
            weights = {(v.name, "w"): 1.0 + rng.random() for v in texts}
            r = p1.range_of(weights)
            if r is None or r[1] - r[0] > AMBIGUITY:
                # Some width is not determined: fine as long as no line count depends on it.
                for v in texts:
                    rv = p1.range_of({(v.name, "w"): 1.0})
                    if rv is None:
                        out.ambiguous, out.why = True, f"label {v.name}: width unbounded in pass 1"
                        break
                    source, _, scale, _ = v.label
                    text = row.get(source) or ""
                    if line_count(text, rv[0], scale) != line_count(text, rv[1], scale):
                        out.ambiguous = True
                        out.why = f"label {v.name}: width anywhere in [{rv[0]:.6f}, {rv[1]:.6f}] in pass 1"
                        break
            calls = p1.lp_calls
    pass1_lines = {v.name: 1 if row.get(v.label[0]) else 0 for v in template.labels}
    capped = {v.name: min(lines[v.name], v.label[3]) if v.label[3] > 0 else lines[v.name] for v in template.labels}
    if capped == pass1_lines:
        p2 = p1  # every label one line tall after all: pass 2 is pass 1's problem again
    else:
        p2 = LexLP(variables, template.system(row, lines), skip_level)
    out.height = p2.value(("contentView", "h"))
    if check_ambiguity and not out.ambiguous:
        shared = [c for c in template.constraints if c.priority == FITTING_LEVEL]
        if shared:  # otherwise the fitting level's only error is |height|: a unique minimum
            r = p2.range_of({("contentView", "h"): 1.0})
            if r is None or r[1] - r[0] > AMBIGUITY:
                out.ambiguous, out.why = True, "fitting height not unique"
    out.widths, out.lines = widths, lines
    out.lp_calls = calls + (p2.lp_calls if p2 is not p1 else 0)
    out.retries = p1.retries + (p2.retries if p2 is not p1 else 0)
    return out


# ---------------------------------------------------------------------------------------------
# The kiwisolver reference.

KIWI_STRENGTHS = (1e6, 1e3, 1.0, 1e-3, 1e-6)  # strong, medium, weak, weak/1e3, weak/1e6


def kiwi_strengths(template):
    """priority -> kiwi strength for a kiwi-eligible template, else None."""
    levels = template.soft_levels()
    if len(levels) > len(KIWI_STRENGTHS):
        return None
    return dict(zip(levels, KIWI_STRENGTHS))


def _kiwi_pass(kiwi, template, constraints, strengths):
    solver = kiwi.Solver()
    variables = {v: kiwi.Variable(f"{v[0]}.{v[1]}") for v in template.variables()}
    for c in constraints:
        expr = c.constant
        for k, a in c.terms.items():
            expr = expr + variables[k] * a
        if not c.terms:
            continue
        if c.relation == "==":
            kc = expr == 0
        elif c.relation == ">=":
            kc = expr >= 0
        else:
            kc = expr <= 0
        strength = kiwi.strength.required if c.priority >= REQUIRED else strengths[c.priority]
        try:
            solver.addConstraint(kc | strength)
        except kiwi.UnsatisfiableConstraint as e:
            raise Unsatisfiable(str(e))
    solver.updateVariables()
    return {k: v.value() for k, v in variables.items()}


def kiwi_measure(template, row):
    """(fitting height, pass-1 label widths) by kiwisolver, or None if not eligible."""
    import kiwisolver as kiwi
    strengths = kiwi_strengths(template)
    if strengths is None:
        return None
    values = _kiwi_pass(kiwi, template, template.system(row), strengths)
    widths = {v.name: values[(v.name, "w")] for v in template.labels}
    lines = template.lines_at(row, widths)
    values = _kiwi_pass(kiwi, template, template.system(row, lines), strengths)
    return values[("contentView", "h")], widths


class Oracle:
    def __init__(self, templates_json):
        self.templates = load_templates(templates_json)

    def template(self, row):
        name = row.get("template")
        if name not in self.templates:
            raise TemplateError(f"row names unknown template {name!r}")
        return self.templates[name]

    def lp(self, row, **kw):
        return lp_measure(self.template(row), row, **kw)

    def lp_height(self, row):
        return self.lp(row, check_ambiguity=False).height

    def kiwi_height(self, row):
        r = kiwi_measure(self.template(row), row)
        return None if r is None else r[0]


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="Fitting heights of constraint-template rows (docs/scenario-format.md, constraint templates) by an LP reference and kiwisolver.")
    ap.add_argument("file", help='JSON {"templates": {...}, "rows": [{"template","text","detail","width"}, ...]}')
    ap.add_argument("--kiwi", action="store_true", help="also kiwisolver's height (null where the template is not eligible)")
    args = ap.parse_args(argv)
    try:
        with open(args.file) as f:
            doc = json.load(f)
        oracle = Oracle(doc["templates"])
        for i, row in enumerate(doc["rows"]):
            r = oracle.lp(row)
            line = {"row": i, "lp": r.height, "ambiguous": r.ambiguous}
            if args.kiwi:
                line["kiwi"] = oracle.kiwi_height(row)
            print(json.dumps(line))
    except (OSError, ValueError, KeyError, Unsatisfiable) as e:
        print(f"template_oracle: {args.file}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
