#!/usr/bin/env python3
"""Seeded random constraint templates (docs/scenario-format.md, constraint templates) shaped like real XIB cells, and rows for them.

A template is put together from parts a feed cell has: a header (avatar, name, optional
timestamp, optional badge centred on the avatar), a body label, a photo with an aspect ratio, a
row of buttons, a side thumbnail centred vertically, and a bottom (a required equality, or
`>=` bottoms with an `== ... @999`, or `>=` bottoms alone left to the fitting level). Hugging,
compression resistance, `lines`, font scales and margins vary. Every template has 10 to 30
constraints, and is built so that no two views compete at one priority level for the same
width (a timestamp is fixed, required, or more resistant than the name), which would make a
label's width ambiguous; the LP reference still checks every row for ambiguity.

    python3 scripts/template_gen.py SEED COUNT [ROWS_PER_TEMPLATE]   # JSON {"templates", "rows"}
"""
from __future__ import annotations

import json
import random
import sys

WIDTHS = (320, 375, 390, 414, 428, 768, 1024)
WORDS = ("the a of and to in is you that it he was for on are as with his they I at be this have "
         "from or one had by word but not what all were we when your can said there use an each "
         "which she do how their if will up other about out many then them these so some her would "
         "make like him into time has look two more write go see number no way could people my than "
         "first water been call who oil its now find long down day did get come made may part "
         "mmm wow Whoa MWM llama illicit jiffy frill tiptoe minimum swimming Mammoth Wilhelm "
         "2026 100% @home e-mail (maybe) [sic] well-known I'll it's 3.14 q&a ok! yes, no; why:").split()
LONG_WORDS = ("https://example.com/a/very/long/path/that/does/not/fit/on/one/line/of/any/cell",
              "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen",
              "supercalifragilisticexpialidocious-supercalifragilisticexpialidocious")
UNICODE_WORDS = ("café", "naïve", "日本語", "😀", "Zürich", "señor", "ŵŵŵ")


def random_text(rng, lo=1, hi=60, line_feeds=False):
    n = rng.randint(lo, hi)
    words = []
    for _ in range(n):
        u = rng.random()
        if u < 0.01:
            words.append(rng.choice(LONG_WORDS))
        elif u < 0.04:
            words.append(rng.choice(UNICODE_WORDS))
        else:
            w = rng.choice(WORDS)
            words.append(w.capitalize() if rng.random() < 0.1 else w)
    text = " ".join(words)
    # A line feed now and then, only in `detail` (body labels, pinned at both sides): how a line
    # feed counts in a label's intrinsic width ("its text on one line") is not settled by
    # docs/scenario-format.md.
    if line_feeds and text and rng.random() < 0.05:
        i = rng.randrange(len(text))
        if text[i] == " ":
            text = text[:i] + "\n" + text[i + 1:]
    return text


def _pick(rng, *options):
    return rng.choice(options)


def _label(rng, source, lines=None, scale=None, lh=None):
    lab = {"text": source}
    lab["lineHeight"] = lh if lh is not None else _pick(rng, 20.5, 18, 17, 22, 16.5)
    lab["fontScale"] = scale if scale is not None else _pick(rng, 1, 0.88, 0.94, 0.82, 1.18)
    if lines is not None:
        lab["lines"] = lines
    return {"label": lab}


def make_template(rng):
    """One random template as a JSON object of `data.templates` (docs/scenario-format.md)."""
    views = {}
    cons = []
    m = _pick(rng, 8, 12, 16, 20)          # side margin
    top = _pick(rng, 8, 10, 12, 16)        # top margin
    pad = _pick(rng, 8, 11, 12, 16)        # bottom margin
    gap = _pick(rng, 2, 4, 6, 8)
    bottoms = []                            # views whose bottom the content must clear
    last = None                             # the view at the bottom of the main column
    kind = rng.choice(("post", "post", "comment", "ad", "title", "media", "thumb"))

    # --- header ----------------------------------------------------------------------------
    if kind in ("post", "comment", "ad"):
        s = _pick(rng, 32, 36, 40, 44, 48) if kind != "comment" else _pick(rng, 24, 28, 32)
        if rng.random() < 0.5:
            # An image view's intrinsic width at the default 750 would give way to a long name
            # at the same level (an ambiguous layout): the avatar does not give way.
            views["avatar"] = {"intrinsic": {"width": s, "height": s},
                               "compressionResistance": {"horizontal": 1000, "vertical": _pick(rng, 750, 1000)}}
            cons += [f"avatar.leading == contentView.leading + {m}", f"avatar.top == contentView.top + {top}"]
        else:
            views["avatar"] = {}
            cons += [f"avatar.leading == contentView.leading + {m}", f"avatar.top == contentView.top + {top}",
                     f"avatar.width == {s}", "avatar.height == avatar.width"]
        bottoms.append("avatar")
        if rng.random() < 0.25:  # an online badge centred on the avatar's corner
            views["badge"] = {"intrinsic": {"width": 10, "height": 10}}
            cons += ["badge.centerX == avatar.trailing - 4", "badge.centerY == avatar.bottom - 4"]
        name_lines = _pick(rng, 1, 1, 2, 0)
        views["name"] = _label(rng, "text", lines=name_lines, scale=_pick(rng, 1, 0.94, 1.18))
        cons += ["name.leading == avatar.trailing + 8"]
        cons += [_pick(rng, "name.top == avatar.top", "name.top == contentView.top + %d" % top)]
        time = rng.random()
        if time < 0.55:
            variant = rng.randrange(4)
            if variant == 0:    # a fixed width, required
                views["time"] = {"intrinsic": {"height": 16}}
                cons += [f"time.width == {_pick(rng, 48, 56, 64)}"]
            elif variant == 1:  # intrinsic width that never gives way
                views["time"] = {"intrinsic": {"width": _pick(rng, 40, 52, 60), "height": 16},
                                 "compressionResistance": {"horizontal": 1000, "vertical": 750}}
            elif variant == 2:  # intrinsic width, more resistant than the name
                views["time"] = {"intrinsic": {"width": _pick(rng, 40, 52, 60), "height": 16},
                                 "compressionResistance": {"horizontal": 751, "vertical": 750}}
            else:               # the name gives way first
                views["time"] = {"intrinsic": {"width": _pick(rng, 40, 52, 60), "height": 16}}
                views["name"]["compressionResistance"] = {"horizontal": 749, "vertical": 750}
            cons += [f"time.trailing == contentView.trailing - {m}", "time.top == name.top",
                     "name.trailing <= time.leading - 8"]
            if rng.random() < 0.5:
                cons += ["name.trailing == time.leading - 8 @%d" % _pick(rng, 250, 200, 300)]
        else:
            cons += [f"name.trailing == contentView.trailing - {m}"]
        last = "name"
        bottoms.append("name")
    elif kind == "thumb":
        s = _pick(rng, 44, 60, 72, 80)
        views["thumb"] = {"intrinsic": {"width": s, "height": s}} if rng.random() < 0.5 else {}
        cons += [f"thumb.leading == contentView.leading + {m}", f"thumb.width == {s}", "thumb.height == thumb.width",
                 "thumb.centerY == contentView.centerY", f"thumb.top >= contentView.top + {top}"]
        bottoms.append("thumb")
        views["name"] = _label(rng, "text", lines=_pick(rng, 0, 1, 2, 3))
        cons += ["name.leading == thumb.trailing + 12", f"name.trailing == contentView.trailing - {m}",
                 f"name.top >= contentView.top + {top}", "name.centerY == contentView.centerY @%d" % _pick(rng, 999, 750, 500)]
        last = "name"
        bottoms.append("name")
        if rng.random() < 0.5:
            views["chevron"] = {"intrinsic": {"width": 8, "height": 13},
                                "compressionResistance": {"horizontal": 1000, "vertical": 750}}
            cons[cons.index(f"name.trailing == contentView.trailing - {m}")] = "name.trailing == chevron.leading - 8"
            cons += [f"chevron.trailing == contentView.trailing - {m}", "chevron.centerY == contentView.centerY"]
            bottoms.append("chevron")

    # --- body --------------------------------------------------------------------------------
    if kind in ("post", "comment", "ad", "title", "media") and (kind == "title" or rng.random() < 0.9):
        views["body"] = _label(rng, "detail" if kind != "title" else "text", lines=_pick(rng, 0, 0, 0, 2, 3, 5))
        if rng.random() < 0.3:
            views["body"]["compressionResistance"] = {"horizontal": 750, "vertical": _pick(rng, 1000, 751, 999)}
        if rng.random() < 0.2:
            views["body"]["hugging"] = {"horizontal": _pick(rng, 251, 250, 249), "vertical": _pick(rng, 251, 750)}
        if last is None:
            cons += [f"body.leading == contentView.leading + {m}", f"body.trailing == contentView.trailing - {m}",
                     f"body.top == contentView.top + {top}"]
        else:
            lead = _pick(rng, f"body.leading == {last}.leading", f"body.leading == contentView.leading + {m}")
            cons += [lead, f"body.trailing == contentView.trailing - {m}", f"body.top == {last}.bottom + {gap}"]
        last = "body"
        bottoms.append("body")
        if kind == "title" and rng.random() < 0.6:
            views["subtitle"] = _label(rng, "detail", lines=_pick(rng, 0, 1, 2))
            cons += ["subtitle.leading == body.leading", "subtitle.trailing == body.trailing",
                     f"subtitle.top == body.bottom + {gap}"]
            last = "subtitle"
            bottoms.append("subtitle")

    # --- photo -------------------------------------------------------------------------------
    if kind in ("post", "ad", "media") and (kind == "media" or rng.random() < 0.6):
        ratio = _pick(rng, 0.5625, 0.75, 1, 0.5, 1.25)
        inset = _pick(rng, 0, m)
        views["photo"] = {} if rng.random() < 0.7 else {"intrinsic": {"width": 300, "height": 200}}
        cons += [f"photo.leading == contentView.leading + {inset}", f"photo.trailing == contentView.trailing - {inset}",
                 f"photo.height == {ratio} * photo.width"]
        cons += [f"photo.top == {last}.bottom + 8" if last else f"photo.top == contentView.top + {top}"]
        last = "photo"
        bottoms.append("photo")
        if kind == "media":
            views["caption"] = _label(rng, "text", lines=_pick(rng, 0, 2))
            cons += [f"caption.leading == contentView.leading + {m}", f"caption.trailing == contentView.trailing - {m}",
                     f"caption.top == photo.bottom + {gap}"]
            last = "caption"
            bottoms.append("caption")

    # --- a third label: a one-line footnote (likes, a source) -----------------------------------
    if kind in ("post", "ad") and rng.random() < 0.35:
        views["meta"] = _label(rng, "text", lines=_pick(rng, 1, 1, 2), scale=_pick(rng, 0.82, 0.88))
        cons += [f"meta.leading == contentView.leading + {m}", f"meta.top == {last}.bottom + {gap}"]
        cons += [_pick(rng, f"meta.trailing == contentView.trailing - {m}", f"meta.trailing <= contentView.trailing - {m}")]
        last = "meta"
        bottoms.append("meta")

    # --- buttons -----------------------------------------------------------------------------
    if kind in ("post", "ad", "comment") and rng.random() < 0.5:
        n = rng.randint(1, 4) if kind != "comment" else 1
        h = _pick(rng, 32, 44)
        equal = n > 1 and rng.random() < 0.4
        for i in range(n):
            b = f"button{i}"
            views[b] = {"intrinsic": {"width": _pick(rng, 44, 60, 72, 88), "height": h}}
            if i == 0:
                cons += [f"{b}.leading == contentView.leading + {m}", f"{b}.top == {last}.bottom + 8"]
            else:
                cons += [f"{b}.leading == button{i - 1}.trailing + 8", f"{b}.top == button0.top"]
                if equal:
                    cons += [f"{b}.width == button0.width"]
        if equal:
            cons += [f"button{n - 1}.trailing == contentView.trailing - {m}"]
        elif rng.random() < 0.5:
            cons += [f"button{n - 1}.trailing <= contentView.trailing - {m}"]
        last = "button0"
        bottoms.append("button0")

    # --- bottom ------------------------------------------------------------------------------
    style = rng.randrange(3)
    if style == 0 or len(bottoms) == 1:
        cons += [f"contentView.bottom == {last}.bottom + {pad}"]
    elif style == 1:
        others = [b for b in bottoms if b != last]
        for b in rng.sample(others, min(len(others), 2)):
            cons += [f"contentView.bottom >= {b}.bottom + {pad}"]
        cons += [f"contentView.bottom == {last}.bottom + {pad} @999"]
    else:
        for b in dict.fromkeys(bottoms + [last]):
            cons += [f"contentView.bottom >= {b}.bottom + {pad}"]
    # A preferred height below or above the labels' vertical hugging (251): below, the labels
    # keep their height and the cell its natural height; above, a label stretches to it; below
    # the fitting level (50) it has no say where a `>=` bottom leaves the height free.
    if rng.random() < 0.3:
        cons += ["contentView.height == %d @%d" % (_pick(rng, 60, 80, 120, 150), _pick(rng, 200, 200, 500, 20))]
    # A spacer keeps small templates at 10 constraints or more (a hairline divider, as in XIBs).
    if len(cons) < 10:
        views["divider"] = {}
        cons += ["divider.leading == contentView.leading + %d" % m, "divider.trailing == contentView.trailing",
                 "divider.height == 0.5", "divider.bottom == contentView.bottom"]
    while len(cons) < 10:
        cons.append("divider.width >= 1")
    if len(cons) > 30:
        return None
    return {"views": views, "constraints": cons}


def make_row(rng, template_name, width=None):
    return {"template": template_name,
            "text": random_text(rng, 1, 12) if rng.random() < 0.9 else random_text(rng, 1, 60),
            "detail": "" if rng.random() < 0.08 else random_text(rng, 1, 60, line_feeds=True),
            "width": width if width is not None else rng.choice(WIDTHS)}


def generate(seed, count, rows_per_template=2):
    """`count` templates named t0000... and `rows_per_template` rows each."""
    rng = random.Random(seed)
    templates, rows = {}, []
    while len(templates) < count:
        t = make_template(rng)
        if t is None:
            continue
        name = f"t{len(templates):04d}"
        templates[name] = t
        for _ in range(rows_per_template):
            rows.append(make_row(rng, name))
    return templates, rows


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    per = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    t, r = generate(seed, count, per)
    json.dump({"templates": t, "rows": r}, sys.stdout, ensure_ascii=False, indent=1)
    print()
