#!/usr/bin/env python3
"""Writes Scenarios/feed-capture.csv: a 2-column shopping/lifestyle feed in the shape of a
capture (sections = pages loaded by infinite scroll, of varied sizes; cards whose heights are
image aspect ratio + 1 or 2 title lines + an author row, at 1/3 pt like a 3x screen; a
full-width banner now and then). Deterministic (seed 2026)."""
import random
import sys
random.seed(2026)
column = (390 - 2 * 12 - 8) / 2          # insets 12, spacing 8
ratios = [(3, 4, 30), (1, 1, 22), (4, 5, 20), (9, 16, 10), (4, 3, 12), (2, 3, 6)]
weights = [r[2] for r in ratios]
rows = []
section = 0
while len(rows) < 12000:
    page = random.choice([20, 20, 20, 40, 40, 60]) - random.randint(0, 5)   # last pages come short
    for i in range(page):
        if i == 0 and section % 3 == 0:
            rows.append((section, 120 if section % 2 else 180, True))     # banner at the top of a page
            continue
        w, h, _ = random.choices(ratios, weights)[0]
        image = round(column * h / w * 3) / 3
        title_lines = random.choice([1, 2, 2])
        card = image + 8 + title_lines * 18.333 + 6 + 24 + 10       # padding, titles, author row
        rows.append((section, round(card * 3) / 3, False))
    section += 1
with open(sys.argv[1] if len(sys.argv) > 1 else "Scenarios/feed-capture.csv", "w") as f:
    f.write("section,w,h,fullWidth\n")
    for s, h, full in rows:
        f.write(f"{s},,{('%.3f' % h).rstrip('0').rstrip('.')},{'true' if full else ''}\n")
print(len(rows), section)
