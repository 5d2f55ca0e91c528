"""Terminal text made plain: what a program drew for a terminal, kept out of results.csv.

torch, Lightning and rich print ANSI escape sequences (`\x1b[1m...\x1b[0m` for bold, colours,
cursor moves) and stray control characters; in `error` and `signature` they would make one
failure two (a coloured and a plain line) and print as garbage in a spreadsheet.
"""

from __future__ import annotations

import re

# CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), and the two-byte escapes (ESC + one byte).
_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]")
# Control characters other than tab and newline (carriage returns become line ends: a progress bar's
# last state is what a terminal would show).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def plain(text: str) -> str:
    """text without terminal escape sequences and control characters."""
    if "\x1b" not in text and "\x9b" not in text and not _CONTROL.search(text) and "\r" not in text:
        return text
    text = _ESCAPE.sub("", text)
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
