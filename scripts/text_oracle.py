#!/usr/bin/env python3
"""An independent measurer of label text on real fonts (docs/text.md), for Tests/Oracle.

It shares no code with Sources/TextShaping: advances come from uharfbuzz (HarfBuzz's Python
binding) fed code points (clusters are code point indices, not UTF-8 byte offsets), break
opportunities from PyICU's line BreakIterator over UTF-16 (offsets mapped back to code points),
the line height from HarfBuzz's font extents (the Swift side reads FreeType's), and lines are
filled by its own greedy loop. The rules it implements are the ones docs/text.md states:

  - segments between break opportunities; trailing U+0020 U+0009 U+000A U+000D hang;
  - a segment joins the line when the line with it (its hanging part not counted) fits:
    units * size / upem <= width + 1e-6; else it opens a new line; a segment wider than a line
    is split between glyph clusters, at least one per line, its last part left open;
  - a mandatory break ends the line (no empty line after a final one); empty text: 0 lines;
  - the reported width is the widest line, or the label's width when maxLines truncates.

BREAK_BEFORE_CLOSING (an injected bug for the tests): allow a break before closing punctuation.
"""
from __future__ import annotations

import functools
import os
import sys

import icu
import uharfbuzz as hb

FAMILIES = {
    "DejaVu Sans": ("truetype/dejavu/DejaVuSans.ttf", 0),
    "DejaVu Serif": ("truetype/dejavu/DejaVuSerif.ttf", 0),
    "WenQuanYi Micro Hei": ("truetype/wqy/wqy-microhei.ttc", 0),
}
HANGING = {" ", "\t", "\n", "\r"}
TOLERANCE = 1e-6
BREAK_BEFORE_CLOSING = False
CLOSING = set(")]}）】」』〕〉》，。、！？：；")


def font_dirs():
    """The folders FontLibrary looks in: LAYOUT_BENCH_FONT_DIRS, else the OS's font folders."""
    dirs = os.environ.get("LAYOUT_BENCH_FONT_DIRS")
    if dirs:
        return [d for d in dirs.split(":") if d]
    if sys.platform == "darwin":
        return [os.path.expanduser("~/Library/Fonts"), "/Library/Fonts", "/System/Library/Fonts",
                "/System/Library/Fonts/Supplemental", "/opt/homebrew/share/fonts", "/usr/local/share/fonts"]
    return ["/usr/share/fonts", "/usr/local/share/fonts"]


def font_path(rel):
    """The first of DIR/rel (Debian's tree) and DIR/basename (macOS's flat folders), folder by folder."""
    for d in font_dirs():
        for candidate in (d + "/" + rel, d + "/" + os.path.basename(rel)):
            if os.path.exists(candidate):
                return candidate
    raise SystemExit(f"text_oracle: no {rel} in {':'.join(font_dirs())}")


class Face:
    _cache: dict = {}

    def __init__(self, family):
        self.family = family
        rel, index = FAMILIES[family]
        path = font_path(rel)
        self.face = hb.Face(hb.Blob.from_file_path(path), index)
        self.font = hb.Font(self.face)
        self.upem = self.face.upem
        extents = self.font.get_font_extents("ltr")
        self.line_units = extents.ascender - extents.descender + extents.line_gap

    @classmethod
    def get(cls, family):
        if family not in cls._cache:
            cls._cache[family] = Face(family)
        return cls._cache[family]

    def advance(self, ch):
        """The nominal advance of one character, font units (for hand-computed cases)."""
        return self.font.get_glyph_h_advance(self.font.get_nominal_glyph(ord(ch)) or 0)


def cluster_advances(text, face):
    """Per code point index, the advance of the cluster that starts there (0 elsewhere), and
    whether a cluster starts there."""
    if not text:
        return [], []
    buf = hb.Buffer()
    buf.add_codepoints([ord(c) for c in text])
    buf.direction = "ltr"
    buf.language = "en"
    buf.guess_segment_properties()
    hb.shape(face.font, buf)
    adv = [0] * len(text)
    starts = [False] * len(text)
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        adv[info.cluster] += pos.x_advance
        starts[info.cluster] = True
    return adv, starts


def break_opportunities(text):
    """[(code point index, hard)] after each break opportunity, the text's end included."""
    utf16_to_cp = {}
    u = 0
    for i, c in enumerate(text):
        utf16_to_cp[u] = i
        u += 2 if ord(c) > 0xFFFF else 1
    utf16_to_cp[u] = len(text)
    it = icu.BreakIterator.createLineInstance(icu.Locale.getRoot())
    it.setText(icu.UnicodeString(text))
    out = []
    it.first()
    while True:
        b = it.nextBoundary()
        if b == -1:
            break
        status = it.getRuleStatus()
        out.append((utf16_to_cp[b], 100 <= status < 200))
    if BREAK_BEFORE_CLOSING:
        extra = [(i, False) for i in range(1, len(text)) if text[i] in CLOSING and text[i - 1] not in HANGING]
        out = sorted(set(out) | set(extra), key=lambda x: (x[0], not x[1]))
        merged = {}
        for p, h in out:
            merged[p] = merged.get(p, False) or h
        out = sorted(merged.items())
    return out


def segments(text, face):
    """The text's break segments: each one's full and visible advance, whether a hard break ends
    it, and its clusters' advances (font units). They depend on the text and the font, not on
    the width, so a text laid out at many widths is segmented once (the list is not changed by
    its callers)."""
    return _segments(text, face.family, BREAK_BEFORE_CLOSING)


@functools.lru_cache(maxsize=64)
def _segments(text, family, break_before_closing):
    # break_before_closing is the flag break_opportunities reads: in the key so that a text
    # segmented before the flag changed is not reused after.
    face = Face.get(family)
    adv, starts = cluster_advances(text, face)
    segs = []
    start = 0
    for end, hard in break_opportunities(text):
        if end <= start:
            continue
        vis_end = end
        while vis_end > start and text[vis_end - 1] in HANGING:
            vis_end -= 1
        full = sum(adv[start:end])
        visible = sum(adv[start:vis_end])
        clusters = []
        for i in range(start, vis_end):
            if starts[i] or i == start or not clusters:
                clusters.append(adv[i])
            else:
                clusters[-1] += adv[i]
        segs.append({"full": full, "visible": visible, "hard": hard, "clusters": clusters})
        start = end
    return segs


def layout(text, family, size, width, max_lines=0):
    """(widest line or the width when truncated, lines) of `text` at `width` points."""
    if text == "":
        return 0.0, 0
    face = Face.get(family)

    def pt(units):
        return units * size / face.upem

    def fits(units):
        return pt(units) <= width + TOLERANCE

    done = []          # visible widths of closed lines, units
    line = None        # [used, shown] of the open line
    for s in segments(text, face):
        if line is not None and fits(line[0] + s["visible"]):
            line = [line[0] + s["full"], line[0] + s["visible"]]
        else:
            if line is not None:
                done.append(line[1])
            if fits(s["visible"]):
                line = [s["full"], s["visible"]]
            else:
                part = None
                for a in s["clusters"]:
                    if part is not None and not fits(part + a):
                        done.append(part)
                        part = a
                    else:
                        part = a if part is None else part + a
                part = part or 0
                line = [part + s["full"] - s["visible"], part]
        if s["hard"]:
            done.append(line[1])
            line = None
    if line is not None:
        done.append(line[1])
    if max_lines > 0 and len(done) > max_lines:
        return width, max_lines
    return pt(max(done)), len(done)


def intrinsic_width(text, family, size):
    return layout(text, family, size, float("inf"))[0]


def line_height(family, size):
    face = Face.get(family)
    return face.line_units * size / face.upem


def break_widths(text, family, size):
    """The widths (pt) at which the layout of `text` can change: every prefix width of a line
    that a greedy filling could end at (each segment end's visible width from each segment
    start, and each cluster boundary inside a segment). Bounded to keep the test fast."""
    face = Face.get(family)
    segs = segments(text, face)
    out = set()
    for i in range(len(segs)):
        used = 0
        for j in range(i, min(len(segs), i + 12)):
            out.add((used + segs[j]["visible"]) * size / face.upem)
            used += segs[j]["full"]
        part = 0
        for a in segs[i]["clusters"][:20]:
            part += a
            out.add(part * size / face.upem)
    return sorted(out)
