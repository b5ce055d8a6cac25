#!/usr/bin/env python3
"""Checks the built book (docs/book/book, after `mdbook build docs/book`): every
relative link and image in a chapter's content points to a file of the build, and every
#anchor to an id in the page it names. tests/tests/book.rs checks the same on the
Markdown without mdBook; this checks what mdBook really wrote. Exits 1 on any broken
link, naming each."""
import glob
import html
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "book")
os.chdir(root)
pages = glob.glob("**/*.html", recursive=True)
ids = {p: set(re.findall(r'id="([^"]+)"', open(p, encoding="utf-8").read())) for p in pages}
broken, checked = [], 0
for page in pages:
    if page in ("print.html", "404.html", "toc.html"):
        continue
    text = open(page, encoding="utf-8").read()
    main = text[text.find("<main>"):text.find("</main>")]
    for link in re.findall(r'(?:href|src)="([^"]+)"', main):
        if link.startswith(("http://", "https://", "mailto:")):
            continue
        checked += 1
        path, _, anchor = link.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(target):
            broken.append(f"{page}: {link}: no such file")
        elif anchor and target.endswith(".html") and html.unescape(anchor) not in ids.get(target, set()):
            broken.append(f"{page}: {link}: no id {anchor} there")
print(f"book links: {checked} checked, {len(broken)} broken")
for b in broken:
    print("  " + b)
if checked < 50:
    print("too few links found: is the book built?")
    sys.exit(1)
sys.exit(1 if broken else 0)
